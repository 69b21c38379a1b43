import LatchkeyDescriptor
@_spi(Generated) import LatchkeyRuntime
import Testing

@testable import LatchkeyGenerator

/// The generator and the runtime agree: the spec literal the generator writes for each descriptor of the catalog
/// and of the coverage fixtures equals, field by field, the `ProviderSpec` its compiled client holds — each value
/// the descriptor states arrived where the generator's table says, and each argument left out equals the runtime's
/// own default — and together they make the generator write every construct and label its tables list.
@Suite(timeLimit(minutes: 5)) struct SpecAgreementTests {
    /// Compares every descriptor of a source with its compiled spec.
    static func comparison(of source: CompiledSpecs.Source) throws -> SpecComparison {
        var comparison = SpecComparison()
        let files = CompiledSpecs.descriptorFiles(source)
        #expect(files.count == source.specs.count, "\(source.folder): one compiled client per descriptor")
        for file in files {
            let result = CompiledSpecs.load(file, in: source)
            let descriptor = try #require(result.descriptor, "\(file): \(result.diagnostics)")
            guard let compiled = source.specs.first(where: { $0.name == descriptor.name }) else {
                Issue.record("\(source.folder)/\(file): no compiled client named \(descriptor.name)")
                continue
            }
            comparison.compare(compiled, SpecLiteral.make(descriptor), at: descriptor.name)
        }
        return comparison
    }

    @Test func catalogClientsHoldTheirLiterals() throws {
        let comparison = try Self.comparison(of: CompiledSpecs.catalog)
        #expect(comparison.mismatches.isEmpty, "\(comparison.mismatches.joined(separator: "\n"))")
    }

    @Test func fixtureClientsHoldTheirLiterals() throws {
        let comparison = try Self.comparison(of: CompiledSpecs.fixtures)
        #expect(comparison.mismatches.isEmpty, "\(comparison.mismatches.joined(separator: "\n"))")
    }

    /// A construct or label added to a table with no descriptor that makes the generator write it fails here: add
    /// a fixture under `Tests/LatchkeyGeneratorFixtures/` (`RuntimeDefaultsTests` checks the defaults). So does a
    /// stored property of a written spec type that its table does not list: a runtime field no descriptor can set.
    @Test func catalogAndFixturesWriteEveryConstructAndLabel() throws {
        let catalog = try Self.comparison(of: CompiledSpecs.catalog)
        let fixtures = try Self.comparison(of: CompiledSpecs.fixtures)
        let written = catalog.written.union(fixtures.written)
        let unwritten = SpecComparison.everyWrittenKey().subtracting(written).sorted()
        #expect(unwritten.isEmpty, "written by no descriptor:\n\(unwritten.joined(separator: "\n"))")
        let unlisted = catalog.unlisted.union(fixtures.unlisted).sorted()
        #expect(
            unlisted.isEmpty,
            "stored properties no table lists, so no descriptor can set them:\n\(unlisted.joined(separator: "\n"))")
        let unknown = written.subtracting(SpecComparison.everyWrittenKey()).sorted()
        #expect(unknown.isEmpty, "written but not in the tables:\n\(unknown.joined(separator: "\n"))")
    }

    /// Each construct is listed once, and each label once per construct.
    @Test func tablesNameEachConstructAndLabelOnce() {
        let keys = RuntimeConstruct.all.map { SpecComparison.key($0) }
        #expect(Set(keys).count == keys.count)
        for construct in RuntimeConstruct.all {
            let properties = construct.parameters.map(\.property)
            #expect(Set(properties).count == properties.count, "\(SpecComparison.key(construct))")
        }
    }

    /// A label the runtime type has no property for is reported with the type and the label, and a property the
    /// table does not list is reported as one no descriptor can set.
    @Test func aLabelTheRuntimeDoesNotHaveIsReported() {
        var comparison = SpecComparison()
        comparison.constructs = RuntimeConstruct.all.map { construct in
            guard construct.type == "LatchkeyRuntime.RefreshFlowSpec" else { return construct }
            return RuntimeConstruct("RefreshFlowSpec", .qualified, [.always("requestName")])
        }
        let literal = SwiftExpression.call(
            "LatchkeyRuntime.RefreshFlowSpec", [.init(label: "requestName", value: .string("r"))])
        comparison.compare(RefreshFlowSpec(request: "r"), literal, at: "p.flows.refresh")
        #expect(comparison.mismatches.count == 1)
        #expect(
            comparison.mismatches.first?.contains("LatchkeyRuntime.RefreshFlowSpec requestName:") == true,
            "\(comparison.mismatches)")
        // The runtime's own properties, which that table no longer lists, are what no descriptor could set.
        #expect(
            comparison.unlisted == [
                "LatchkeyRuntime.RefreshFlowSpec.request", "LatchkeyRuntime.RefreshFlowSpec.reuseCodes",
            ])
    }
}
