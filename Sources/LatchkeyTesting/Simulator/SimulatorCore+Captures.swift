import Foundation
@_spi(Generated) import LatchkeyRuntime

/// The simulator's answers for a descriptor's `captures` and `user.nameParts`: capture requests carry the
/// value where the descriptor reads it, token responses carry the token-response captures, requests whose
/// URL uses `{NAME}` are served at the path the captured value gives, and user documents carry the name's
/// parts.
extension SimulatorCore {
    /// The value the simulator answers for the capture `name` (the same for every session), safe in a URL
    /// path: `simulated-cloudid`.
    static func capturedValue(_ name: String) -> String {
        "simulated-" + name.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    /// Headers carrying the token-response captures that are read from a header.
    var tokenResponseCaptureHeaders: [(String, String)] {
        provider.captures.compactMap { capture in
            guard capture.request == nil, let header = capture.header else { return nil }
            return (header, Self.capturedValue(capture.name))
        }
    }

    /// The answer to a request that captures name (a JSON document with each value at its capture's pointer,
    /// and each header capture's header), or `nil` when no capture sends `route`.
    func captureAnswer(_ route: SimulatorRoutes.Route) -> TestResponse? {
        let captures = provider.captures.filter { $0.request == route.name }
        guard !captures.isEmpty else { return nil }
        var document: Any?
        var headers: [(String, String)] = []
        for capture in captures {
            if let pointer = capture.pointer {
                document = JSONPointerWriter.set(Self.capturedValue(capture.name), at: pointer, in: document)
            }
            if let header = capture.header { headers.append((header, Self.capturedValue(capture.name))) }
        }
        return .json(document ?? [String: Any](), headers: headers)
    }

    /// A name split into `count` parts for ``UserMapping/nameParts``: one word each, the last part taking the
    /// remaining words (`Ada Lovelace` over two pointers: `Ada`, `Lovelace`), indexed by pointer.
    func nameParts(of name: String, count: Int) -> [(Int, String)] {
        guard count > 0 else { return [] }
        var words = name.split(separator: " ").map(String.init)
        var parts: [(Int, String)] = []
        for index in 0..<count where !words.isEmpty {
            if index == count - 1 {
                parts.append((index, words.joined(separator: " ")))
                words = []
            } else {
                parts.append((index, words.removeFirst()))
            }
        }
        return parts
    }
}
