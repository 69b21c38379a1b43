/// Renders parsed templates against a context stack.
public struct Template: Sendable {
    /// The template's name, for messages.
    public let name: String
    let nodes: [TemplateNode]

    /// Parses a template.
    /// - Parameters:
    ///   - source: The template text.
    ///   - name: Its name, for messages.
    /// - Throws: ``TemplateError`` for malformed syntax or a placeholder without escaping.
    public init(source: String, name: String) throws(TemplateError) {
        self.name = name
        self.nodes = try TemplateParser.parse(source, name: name)
    }

    /// Renders the template.
    /// - Parameter context: The values.
    /// - Returns: The code, trailing spaces removed from every line.
    /// - Throws: ``TemplateError`` when a value is missing or does not fit its escaping.
    public func render(_ context: TemplateContext) throws(TemplateError) -> GeneratedCode {
        var output = ""
        try render(nodes, [context], into: &output)
        // Trailing spaces are removed from every line, byte by byte (a space is never part of a
        // multi-byte scalar in UTF-8).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(output.utf8.count)
        var pendingSpaces = 0
        for byte in output.utf8 {
            if byte == UInt8(ascii: " ") {
                pendingSpaces += 1
                continue
            }
            if byte != UInt8(ascii: "\n") && pendingSpaces > 0 {
                bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pendingSpaces))
            }
            pendingSpaces = 0
            bytes.append(byte)
        }
        return GeneratedCode(String(decoding: bytes, as: UTF8.self))
    }

    private func lookup(_ path: String, _ scopes: [TemplateContext], line: Int) throws(TemplateError) -> TemplateValue {
        let segments = path.contains(".") ? path.split(separator: ".").map(String.init) : [path]
        for scope in scopes.reversed() {
            guard var value = scope[segments[0]] else { continue }
            for segment in segments.dropFirst() {
                guard case .context(let nested) = value, let next = nested[segment] else {
                    throw .render("\(name):\(line): \"\(path)\" has no member \"\(segment)\"")
                }
                value = next
            }
            return value
        }
        throw .render("\(name):\(line): no value named \"\(path)\"")
    }

    private func render(_ nodes: [TemplateNode], _ scopes: [TemplateContext], into output: inout String)
        throws(TemplateError)
    {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .placeholder(let path, let escaping, let line):
                let value = try lookup(path, scopes, line: line)
                // Only comments need the text before the placeholder on its line.
                let lineStart = escaping == .doc ? output.utf8.lastIndex(of: UInt8(ascii: "\n")) : nil
                let linePrefix =
                    escaping == .doc ? output[(lineStart.map { output.index(after: $0) } ?? output.startIndex)...] : ""
                output += try escaping.apply(value, linePrefix: linePrefix, placeholder: "\(name):\(line): {{\(path)}}")
            case .each(let path, let body, let line):
                guard case .list(let items) = try lookup(path, scopes, line: line) else {
                    throw .render("\(name):\(line): {{#each \(path)}} needs a list")
                }
                for (index, item) in items.enumerated() {
                    var item = item
                    item["first"] = .bool(index == 0)
                    item["last"] = .bool(index == items.count - 1)
                    try render(body, scopes + [item], into: &output)
                }
            case .conditional(let path, let negated, let then, let otherwise, let line):
                let truthy = (try? lookup(path, scopes, line: line))?.isTruthy ?? false
                try render(truthy != negated ? then : otherwise, scopes, into: &output)
            }
        }
    }
}
