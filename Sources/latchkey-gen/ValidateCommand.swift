/// `latchkey-gen validate FILE...`: reports every problem on standard error and one line per valid file on
/// standard output, generates nothing.
struct ValidateCommand {
    let options: Options

    init(arguments: [String]) throws(UsageError) {
        options = try Options(arguments, valued: [], flags: ["--quiet"], command: "validate")
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
        for (path, descriptor) in set.loaded where !set.collided.contains(path) && !options.flags.contains("--quiet") {
            print(ValidationSummary.line(path: path, descriptor: descriptor))
        }
        return set.failed ? ExitCode.invalid : ExitCode.ok
    }
}
