import Foundation

// latchkey-demo: signs in against a local simulated identity provider (default) or a real OpenID
// provider, then refreshes, calls a protected API and signs out. See `latchkey-demo --help`.
let output = Output()
do {
    let mode = try DemoArguments.parse(Array(CommandLine.arguments.dropFirst()))
    try await DemoRun(output: output).run(mode)
    exit(0)
} catch {
    output.fail(error)
    exit(1)
}
