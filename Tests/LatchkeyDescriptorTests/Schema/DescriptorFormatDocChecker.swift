import Foundation

/// Compares `docs/DescriptorFormat.md` with `Descriptors/descriptor.schema.json`, both ways: every property
/// key the schema defines is mentioned in the doc as a code span (`` `key` ``), and every key in the doc's
/// key tables is a property somewhere in the schema.
///
/// A key table is a Markdown table with a `key` or `flow` column (every code span in that cell is a key) or
/// a `keys` column (the code span that starts each top-level comma-separated item is a key:
/// `` `request` (response `session`), `scopes` `` names `request` and `scopes`).
enum DescriptorFormatDocChecker {
    /// A key named in a key table of the doc.
    struct DocumentedKey: Hashable {
        /// The key.
        var key: String
        /// The 1-based line of the table row.
        var line: Int
        /// The heading the table is under, without `#` and backticks.
        var section: String
    }

    /// A difference between the doc and the schema.
    enum Gap: Hashable, CustomStringConvertible {
        /// A schema property the doc never mentions, with the JSON pointers that define it.
        case undocumented(key: String, schemaPaths: [String])
        /// A key documented in a table row that the schema does not define.
        case unknownToSchema(key: String, line: Int, section: String)

        var description: String {
            switch self {
            case .undocumented(let key, let paths):
                return "\(DescriptorFormatDocChecker.docPath) does not mention `\(key)`, defined in "
                    + "\(DescriptorFormatDocChecker.schemaPath) at \(paths.joined(separator: ", ")); "
                    + "document it there as `\(key)`"
            case .unknownToSchema(let key, let line, let section):
                return "\(DescriptorFormatDocChecker.docPath):\(line) (section \"\(section)\") documents `\(key)`, "
                    + "which \(DescriptorFormatDocChecker.schemaPath) does not define; fix the key or add it "
                    + "to the schema"
            }
        }
    }

    static let docPath = "docs/DescriptorFormat.md"
    static let schemaPath = "Descriptors/descriptor.schema.json"

    /// Keywords whose value maps names to subschemas. Only the keys of `properties` are property keys.
    static let subschemaMapKeywords: Set<String> = [
        "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
    ]
    /// Keywords whose value is one subschema (`items` and `additionalProperties` may also be an array or a
    /// boolean; arrays are walked, booleans hold no keys).
    static let subschemaKeywords: Set<String> = [
        "items", "additionalItems", "additionalProperties", "unevaluatedProperties", "unevaluatedItems",
        "contains", "propertyNames", "not", "if", "then", "else",
    ]
    /// Keywords whose value is an array of subschemas.
    static let subschemaArrayKeywords: Set<String> = ["oneOf", "anyOf", "allOf", "prefixItems"]

    /// Every property key the schema defines, with the JSON pointers of its definitions, found by walking
    /// the subschema keywords only (so an `examples` or `default` value is never mistaken for a schema).
    static func schemaKeys(in schema: Any, at pointer: String = "#") -> [String: [String]] {
        var keys: [String: [String]] = [:]
        func add(_ other: [String: [String]]) { keys.merge(other) { $0 + $1 } }
        if let array = schema as? [Any] {
            for (index, item) in array.enumerated() { add(schemaKeys(in: item, at: "\(pointer)/\(index)")) }
        }
        guard let object = schema as? [String: Any] else { return keys }
        for keyword in object.keys.sorted() {
            let value = object[keyword] as Any
            let here = "\(pointer)/\(escape(keyword))"
            if subschemaMapKeywords.contains(keyword), let members = value as? [String: Any] {
                for name in members.keys.sorted() {
                    let memberPointer = "\(here)/\(escape(name))"
                    if keyword == "properties" { keys[name, default: []].append(memberPointer) }
                    add(schemaKeys(in: members[name] as Any, at: memberPointer))
                }
            } else if subschemaKeywords.contains(keyword) || subschemaArrayKeywords.contains(keyword) {
                add(schemaKeys(in: value, at: here))
            }
        }
        return keys
    }

    /// The keys of the doc's key tables, in document order (fenced code blocks are skipped).
    static func documentedKeys(in markdown: String) -> [DocumentedKey] {
        var found: [DocumentedKey] = []
        var section = ""
        var header: [String]?
        var inFence = false
        for (index, rawLine) in markdown.components(separatedBy: "\n").enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, !line.hasPrefix("```") else { continue }
            guard line.hasPrefix("|") else {
                header = nil
                if line.hasPrefix("#") {
                    section = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                        .replacingOccurrences(of: "`", with: "")
                }
                continue
            }
            let cells = tableCells(line)
            guard let columns = header else {
                header = cells.map { $0.lowercased() }
                continue
            }
            if cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) { continue }
            for (column, cell) in zip(columns, cells) {
                let keys: [String]
                switch column {
                case "key", "flow": keys = codeSpans(in: cell)
                case "keys": keys = leadingCodeSpans(in: cell)
                default: continue
                }
                found += keys.map { DocumentedKey(key: $0, line: index + 1, section: section) }
            }
        }
        return found
    }

    /// The differences between the doc and the schema: undocumented keys by name, then unknown keys by line.
    static func gaps(schema: Any, markdown: String) -> [Gap] {
        let defined = schemaKeys(in: schema)
        let undocumented = defined.keys.sorted()
            .filter { !markdown.contains("`\($0)`") }
            .map { Gap.undocumented(key: $0, schemaPaths: defined[$0] ?? []) }
        let unknown = documentedKeys(in: markdown)
            .filter { defined[$0.key] == nil }
            .map { Gap.unknownToSchema(key: $0.key, line: $0.line, section: $0.section) }
        return undocumented + unknown
    }

    /// The cells of a table row, split at unescaped `|`, trimmed.
    static func tableCells(_ row: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var previous: Character?
        for character in row {
            if character == "|", previous != "\\" {
                cells.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        cells.append(current.trimmingCharacters(in: .whitespaces))
        // The row starts and ends with `|`: drop the empty first and last pieces.
        if cells.first?.isEmpty == true { cells.removeFirst() }
        if cells.last?.isEmpty == true { cells.removeLast() }
        return cells
    }

    /// Every code span of a cell.
    static func codeSpans(in text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && !$0.element.isEmpty }
            .map { String($0.element) }
    }

    /// The code span that starts each comma-separated item outside parentheses and code spans.
    static func leadingCodeSpans(in text: String) -> [String] {
        var items: [String] = []
        var current = ""
        var depth = 0
        var inCode = false
        for character in text {
            if character == "`" { inCode.toggle() }
            if !inCode {
                if character == "(" { depth += 1 }
                if character == ")" { depth = max(depth - 1, 0) }
                if character == ",", depth == 0 {
                    items.append(current)
                    current = ""
                    continue
                }
            }
            current.append(character)
        }
        items.append(current)
        return items.compactMap { item in
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("`") else { return nil }
            return codeSpans(in: trimmed).first
        }
    }

    /// A JSON pointer segment (RFC 6901).
    static func escape(_ segment: String) -> String {
        segment.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
