@_spi(Generated) import LatchkeyRuntime

/// The coverage fixtures' compiled specs, sorted by descriptor name.
///
/// Each `*.json` here is a descriptor no app uses: together with the catalog they make the generator write every
/// construct and label of its `RuntimeConstruct` tables, so this target compiles every literal shape the
/// generator can emit, and `LatchkeySpecAgreementTests` compares each with the descriptor it came from.
@_spi(Generated) public let generatorFixtureSpecs: [ProviderSpec] = LatchkeyProviders.all
