import Foundation
import LatchkeyDescriptor
import LatchkeyGenerator

/// `latchkey-gen`: generates, checks and validates Latchkey clients from descriptors.
@main
enum LatchkeyGen {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else {
            Console.error(Help.overview)
            exit(ExitCode.usage)
        }
        arguments.removeFirst()
        let status: Int32
        do {
            switch command {
            case "generate": status = try GenerateCommand(arguments: arguments).run()
            case "check": status = try CheckCommand(arguments: arguments).run()
            case "validate": status = try ValidateCommand(arguments: arguments).run()
            case "new": status = try NewCommand(arguments: arguments).run()
            case "help", "--help", "-h":
                print(arguments.first.flatMap(Help.forCommand) ?? Help.overview)
                status = ExitCode.ok
            default:
                let suggestion =
                    Suggestions.closest(to: command, among: Help.commands).map { " Did you mean '\($0)'?" } ?? ""
                throw UsageError("unknown command '\(command)'.\(suggestion)")
            }
        } catch let error as UsageError {
            Console.error("latchkey-gen: error: \(error.message)\nRun 'latchkey-gen --help' for usage.")
            status = ExitCode.usage
        } catch {
            Console.error("latchkey-gen: error: \(error)")
            status = ExitCode.invalid
        }
        exit(status)
    }
}

/// Exit codes of the contract: 0 ok, 1 invalid input or drift, 2 usage.
enum ExitCode {
    static let ok: Int32 = 0
    static let invalid: Int32 = 1
    static let usage: Int32 = 2
}

/// A command line that cannot be understood.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Writes to standard error.
enum Console {
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
