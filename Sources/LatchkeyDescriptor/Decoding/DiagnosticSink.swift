import LatchkeyPlatform

/// Collects diagnostics while a descriptor is decoded and validated.
final class DiagnosticSink: Sendable {
    private let storage = Locked<[Diagnostic]>([])

    var diagnostics: [Diagnostic] {
        storage.withLock { $0 }.sorted { ($0.location, $0.message) < ($1.location, $1.message) }
    }

    var hasErrors: Bool { storage.withLock { $0.contains { $0.severity == .error } } }

    func add(_ diagnostic: Diagnostic) {
        storage.withLock { $0.append(diagnostic) }
    }

    func error(_ message: String, at node: JSONNode, fixIt: String? = nil) {
        add(.error(message, at: node.location, pointer: node.pointer.description, fixIt: fixIt))
    }

    func error(_ message: String, at location: SourceLocation, pointer: String, fixIt: String? = nil) {
        add(.error(message, at: location, pointer: pointer, fixIt: fixIt))
    }

    func warning(_ message: String, at node: JSONNode, fixIt: String? = nil) {
        add(.warning(message, at: node.location, pointer: node.pointer.description, fixIt: fixIt))
    }
}
