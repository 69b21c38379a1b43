/// Parses `--flag value`, `--flag=value`, boolean flags and positional arguments.
struct Options {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positional: [String] = []

    init(_ arguments: [String], valued: Set<String>, flags allowedFlags: Set<String>, command: String)
        throws(UsageError)
    {
        var index = 0
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                flags.insert("--help")
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            if valued.contains(name) {
                if parts.count == 2 {
                    values[name] = parts[1]
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    values[name] = arguments[index]
                    index += 1
                }
            } else if allowedFlags.contains(name), parts.count == 1 {
                flags.insert(name)
            } else {
                throw UsageError("'\(command)' has no option '\(name)'")
            }
        }
    }
}
