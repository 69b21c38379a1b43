import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime

/// Plain-words output: steps to stdout, failures to stderr.
struct Output: Sendable {
    func step(_ text: String) {
        write(text)
    }

    func detail(_ text: String) {
        write("  " + text)
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func fail(_ error: any Error) {
        let text: String
        if let error = error as? AuthError {
            text =
                "Error (\(error.code.rawValue)): \(error.message)"
                + (error.providerCode.map { " [provider code: \($0)]" } ?? "")
        } else if let error = error as? DemoArgumentError {
            text = "Error: \(error.message)\nRun `latchkey-demo --help` for usage."
        } else {
            text = "Error: \(error)"
        }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
