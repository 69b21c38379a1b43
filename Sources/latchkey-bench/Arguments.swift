import Foundation

/// What the command line asked for.
struct BenchOptions {
    static let sectionNames = [
        "generator", "token", "restore", "coalescing", "flows", "wire", "hostile", "peer", "size", "dpop",
    ]

    var jsonPath: String?
    var descriptorsDirectory: String
    var sections: Set<String> = Set(sectionNames)
    var descriptorCounts = [1, 10, 100, 1_000, 10_000]
    var generatorBudget = 30.0
    var callerCounts = [1, 10, 100, 1_000]
    var wireSamples = 300
    var quick = false
    var peerSetup = true
    var help = false

    static let usage = """
        latchkey-bench: Latchkey's performance figures, each beside its floor (issue 9).

        USAGE
          swift run -c release latchkey-bench [OPTIONS]

        OPTIONS
          --json FILE              Also write every table and target as JSON to FILE.
          --only LIST              Run only these sections (comma-separated):
                                   \(sectionNames.joined(separator: ", ")).
          --skip LIST              Skip these sections.
          --max-descriptors N      Largest generator run (default 10000).
          --generator-budget S     Cap a generator size predicted to take longer than S seconds (default 30):
                                   the largest round N that fits runs instead, and the table says so.
          --descriptors DIR        Where oidc.json and supabase.json are (default: the package's Descriptors/).
          --no-peer-setup          Do not install what the peer section needs; skip it when something is missing.
          --quick                  Smaller runs (N ≤ 100 descriptors, 50 wire samples): a smoke test.
          --help                   Show this help.

        The peer section runs authlib (Python) against ci-oidc/. It uses the first Python with authlib and
        requests ($LATCHKEY_BENCH_PYTHON, .build/latchkey-bench-venv/bin/python, ci-oidc/.venv/bin/python).
        What is missing is installed first (network needed): ci-oidc/.venv with bash ci-oidc/setup.sh, and
        .build/latchkey-bench-venv with python3 -m venv + pip install authlib requests. When that fails, or
        with --no-peer-setup, the section is skipped with the reason. See docs/Performance.md.

        The size section runs scripts/provider-size.sh: tiny apps built in release mode (several minutes; needs
        swift, strip, nm and git, or it is skipped with the reason).

        SUBCOMMANDS (for scripts/supabase-peer.sh, the side by side with supabase-swift)
          serve-gotrue                              A GoTrue-shaped loopback server; prints its base URL.
          supabase-side --url BASE [--samples N]    SupabaseClient against it: one median per operation.

        Exit status: 0 when every section ran (targets may be MISSED), 1 when a section failed, 2 on usage errors.
        """

    static func parse(_ arguments: [String]) throws -> BenchOptions {
        var options = BenchOptions(descriptorsDirectory: defaultDescriptorsDirectory())
        var index = 0
        func value(_ name: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw BenchError("\(name) needs a value") }
            return arguments[index]
        }
        func sectionList(_ name: String) throws -> Set<String> {
            let list = Set(try value(name).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            let unknown = list.subtracting(sectionNames)
            guard unknown.isEmpty else {
                throw BenchError(
                    "unknown section \(unknown.sorted().joined(separator: ", ")); known: \(sectionNames.joined(separator: ", "))"
                )
            }
            return list
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h": options.help = true
            case "--json": options.jsonPath = try value(argument)
            case "--only": options.sections = try sectionList(argument)
            case "--skip": options.sections.subtract(try sectionList(argument))
            case "--descriptors": options.descriptorsDirectory = try value(argument)
            case "--max-descriptors":
                guard let maximum = Int(try value(argument)), maximum >= 1 else {
                    throw BenchError("--max-descriptors needs N ≥ 1")
                }
                options.descriptorCounts = options.descriptorCounts.filter { $0 <= maximum }
                if !options.descriptorCounts.contains(maximum) { options.descriptorCounts.append(maximum) }
            case "--generator-budget":
                guard let seconds = Double(try value(argument)), seconds > 0 else {
                    throw BenchError("--generator-budget needs S > 0")
                }
                options.generatorBudget = seconds
            case "--no-peer-setup": options.peerSetup = false
            case "--quick":
                options.quick = true
                options.descriptorCounts = options.descriptorCounts.filter { $0 <= 100 }
                options.wireSamples = 50
            default: throw BenchError("unknown argument '\(argument)' (see --help)")
            }
            index += 1
        }
        return options
    }

    /// `Descriptors/` of the package this file was built from, or `./Descriptors`.
    static func defaultDescriptorsDirectory() -> String {
        let source = URL(fileURLWithPath: #filePath)
        let package = source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let beside = package.appendingPathComponent("Descriptors").path
        if FileManager.default.fileExists(atPath: beside + "/oidc.json") { return beside }
        return FileManager.default.currentDirectoryPath + "/Descriptors"
    }

    /// The package root (for ci-oidc/), the same way.
    static func packageRoot() -> String {
        let source = URL(fileURLWithPath: #filePath)
        let package = source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path) {
            return package.path
        }
        return FileManager.default.currentDirectoryPath
    }
}
