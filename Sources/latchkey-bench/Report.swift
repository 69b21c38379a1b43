import Foundation
import LatchkeyDescriptor

/// A JSON value for the `--json` report.
indirect enum JSONOut: Sendable {
    case number(Double)
    case int(Int)
    case string(String)
    case bool(Bool)
    case null
    case array([JSONOut])
    case object([(String, JSONOut)])

    /// Serialized with keys in insertion order, two-space indentation.
    func serialized(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent)
        let inner = String(repeating: "  ", count: indent + 1)
        switch self {
        case .number(let value):
            guard value.isFinite else { return "null" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
            return String(format: "%.6g", value)
        case .int(let value): return String(value)
        case .string(let value): return Self.quote(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { inner + $0.serialized(indent: indent + 1) }.joined(separator: ",\n") + "\n" + pad
                + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            return "{\n"
                + members.map { inner + Self.quote($0.0) + ": " + $0.1.serialized(indent: indent + 1) }
                .joined(separator: ",\n") + "\n" + pad + "}"
        }
    }

    private static func quote(_ text: String) -> String { JSONStringLiteral.quoted(text) }
}

/// One cell: what the table shows and what the JSON report holds.
struct Cell: Sendable {
    var text: String
    var value: JSONOut

    init(_ text: String, _ value: JSONOut) {
        self.text = text
        self.value = value
    }

    static func text(_ text: String) -> Cell { Cell(text, .string(text)) }
    static func int(_ value: Int) -> Cell { Cell(Format.int(value), .int(value)) }
    static func seconds(_ value: Double) -> Cell { Cell(Format.duration(value), .number(value)) }
    static func ratio(_ value: Double) -> Cell { Cell(Format.ratio(value), .number(value)) }
    static func rate(_ value: Double) -> Cell { Cell(Format.rate(value), .number(value)) }
    static func kib(_ value: Int) -> Cell { Cell(Format.mebibytes(kib: value), .int(value)) }
    static func nanos(_ value: Double) -> Cell { Cell(Format.fixed(value, 1) + " ns", .number(value)) }
    static let none = Cell("-", .null)
}

/// A printed table: a title, aligned columns, notes under it.
struct Table: Sendable {
    struct Column: Sendable {
        var header: String
        /// The JSON key.
        var key: String
        var rightAligned: Bool
    }

    var title: String
    var columns: [Column]
    var rows: [[Cell]] = []
    var notes: [String] = []

    init(_ title: String, _ columns: [(header: String, key: String, right: Bool)]) {
        self.title = title
        self.columns = columns.map { Column(header: $0.header, key: $0.key, rightAligned: $0.right) }
    }

    mutating func add(_ row: [Cell]) {
        precondition(row.count == columns.count, "row width \(row.count) ≠ \(columns.count) columns in \(title)")
        rows.append(row)
    }

    func render() -> String {
        var widths = columns.map { $0.header.count }
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.text.count) }
        }
        func line(_ texts: [String]) -> String {
            var parts: [String] = []
            for (index, text) in texts.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - text.count)
                parts.append(columns[index].rightAligned ? padding + text : text + padding)
            }
            var joined = parts.joined(separator: "  ")
            while joined.hasSuffix(" ") { joined.removeLast() }
            return joined
        }
        var out = "\n== \(title) ==\n"
        out += line(columns.map(\.header)) + "\n"
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in rows { out += line(row.map(\.text)) + "\n" }
        for note in notes { out += "  " + note + "\n" }
        return out
    }

    var json: JSONOut {
        .object([
            ("title", .string(title)),
            (
                "rows",
                .array(rows.map { row in .object(zip(columns, row).map { ($0.key, $1.value) }) })
            ),
            ("notes", .array(notes.map(JSONOut.string))),
        ])
    }
}

/// A target from issue 9 and whether this run met it.
struct TargetResult: Sendable {
    enum Outcome: String, Sendable {
        case met = "MET"
        case missed = "MISSED"
        case skipped = "SKIPPED"
    }

    var name: String
    var outcome: Outcome
    var detail: String

    var line: String { "TARGET \(name): \(outcome.rawValue) (\(detail))" }

    var json: JSONOut {
        .object([("target", .string(name)), ("outcome", .string(outcome.rawValue)), ("detail", .string(detail))])
    }

    static func check(_ name: String, _ met: Bool, _ detail: String) -> TargetResult {
        TargetResult(name: name, outcome: met ? .met : .missed, detail: detail)
    }
}

/// What a section hands back.
struct SectionResult: Sendable {
    var key: String
    var tables: [Table]
    var targets: [TargetResult]
    var seconds: Double = 0
}
