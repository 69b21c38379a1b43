/// `latchkey-gen validate FILE...`: reports every problem, generates nothing.
struct ValidateCommand {
    let options: Options

    init(arguments: [String]) throws(UsageError) {
        options = try Options(arguments, valued: [], flags: [], command: "validate")
        if options.positional.isEmpty && !options.flags.contains("--help") {
            throw UsageError("'validate' needs at least one descriptor file")
        }
    }

    func run() throws -> Int32 {
        if options.flags.contains("--help") {
            print(Help.forCommand("validate")!)
            return ExitCode.ok
        }
        let set = DescriptorSet(paths: options.positional)
        return set.failed ? ExitCode.invalid : ExitCode.ok
    }
}
