/// Renders parsed templates against a context stack.
public struct Template: Sendable {
    /// The template's name, for messages.
    public let name: String
    let nodes: [TemplateNode]

    /// Parses a template, and the partials it includes.
    ///
    /// `{{> Name}}`, on a line of its own, includes the partial `_Name.swift.template` from `partials`: the
    /// line is replaced by the partial's lines, each indented by the spaces before the tag, rendered with the
    /// values at the include.
    /// - Parameters:
    ///   - source: The template text.
    ///   - name: Its name, for messages.
    ///   - partials: Template text by file name, where `{{> Name}}` finds `_Name.swift.template`.
    /// - Throws: ``TemplateError`` for malformed syntax, a placeholder without escaping, or a partial that is
    ///   missing or includes itself.
    public init(source: String, name: String, partials: [String: String] = [:]) throws(TemplateError) {
        self.name = name
        var includes = PartialIncludes(sources: partials, for: name)
        self.nodes = try TemplateParser.parse(source, name: name, includes: &includes)
    }

    /// Renders the template.
    /// - Parameter context: The values.
    /// - Returns: The code, trailing spaces removed from every line.
    /// - Throws: ``TemplateError`` when a value is missing or does not fit its escaping.
    public func render(_ context: TemplateContext) throws(TemplateError) -> GeneratedCode {
        var output = ""
        output.reserveCapacity(64 * 1024)
        var scopes = [Scope.context(context)]
        try render(nodes, &scopes, into: &output, file: name)
        return GeneratedCode(Self.removingTrailingSpaces(&output))
    }

    /// The text with the spaces at the end of every line removed.
    ///
    /// Most lines end without spaces, so the text is scanned for the runs to cut first (a space is never part of
    /// a multi-byte scalar in UTF-8, so every cut falls between scalars), and the pieces between the runs are
    /// copied whole into a buffer of the right size: no byte-by-byte copy, and no second UTF-8 validation.
    static func removingTrailingSpaces(_ text: inout String) -> String {
        let cuts = text.withUTF8 { bytes -> [Range<Int>] in
            var cuts: [Range<Int>] = []
            var lineStart = 0
            func cutBefore(_ end: Int) {
                var start = end
                while start > lineStart, bytes[start - 1] == UInt8(ascii: " ") { start -= 1 }
                if start < end { cuts.append(start..<end) }
            }
            for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
                cutBefore(index)
                lineStart = index + 1
            }
            cutBefore(bytes.count)
            return cuts
        }
        // Copied even when nothing is cut: the rendering buffer grew by doubling, and a generator run holds every
        // client's code at once.
        let utf8 = text.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        var result = ""
        result.reserveCapacity(utf8.count)
        var kept = 0
        for cut in cuts {
            result += text[index(kept)..<index(cut.lowerBound)]
            kept = cut.upperBound
        }
        result += text[index(kept)...]
        return result
    }

    /// One level of names: a context, or the `first` and `last` flags of an `{{#each}}` item.
    private enum Scope {
        case context(TemplateContext)
        case position(index: Int, count: Int)

        subscript(name: String) -> TemplateValue? {
            switch self {
            case .context(let context): context[name]
            case .position(let index, let count):
                name == "first" ? .bool(index == 0) : name == "last" ? .bool(index == count - 1) : nil
            }
        }
    }

    /// What looking up a path found.
    private enum Found {
        case value(TemplateValue)
        case noValue
        case noMember(String)
    }

    private func find(_ path: String, _ scopes: [Scope]) -> Found {
        guard path.utf8.contains(UInt8(ascii: ".")) else {
            for scope in scopes.reversed() {
                if let value = scope[path] { return .value(value) }
            }
            return .noValue
        }
        let segments = path.split(separator: ".").map(String.init)
        for scope in scopes.reversed() {
            guard var value = scope[segments[0]] else { continue }
            for segment in segments.dropFirst() {
                guard case .context(let nested) = value, let next = nested[segment] else { return .noMember(segment) }
                value = next
            }
            return .value(value)
        }
        return .noValue
    }

    private func lookup(_ path: String, _ scopes: [Scope], file: String, line: Int) throws(TemplateError)
        -> TemplateValue
    {
        switch find(path, scopes) {
        case .value(let value): return value
        case .noMember(let segment): throw .render("\(file):\(line): \"\(path)\" has no member \"\(segment)\"")
        case .noValue: throw .render("\(file):\(line): no value named \"\(path)\"")
        }
    }

    /// Renders nodes parsed from `file` (the template, or a partial it includes).
    private func render(_ nodes: [TemplateNode], _ scopes: inout [Scope], into output: inout String, file: String)
        throws(TemplateError)
    {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .placeholder(let path, let escaping, let line):
                let value = try lookup(path, scopes, file: file, line: line)
                // The two most common placeholders are appended in place (what `apply` returns, without the copy).
                switch (escaping, value) {
                case (.string, .text(let text)):
                    SwiftLiteral.appendString(text, to: &output)
                    continue
                case (.code, .code(let code)):
                    output += code.text
                    continue
                default:
                    break
                }
                // Only comments need the text before the placeholder on its line.
                let linePrefix: Substring
                if escaping == .doc {
                    let lineStart = output.utf8.lastIndex(of: UInt8(ascii: "\n"))
                    linePrefix = output[(lineStart.map { output.index(after: $0) } ?? output.startIndex)...]
                } else {
                    linePrefix = ""
                }
                output += try escaping.apply(
                    value, linePrefix: linePrefix, placeholder: "\(file):\(line): {{\(path)}}")
            case .each(let path, let body, let line):
                guard case .list(let items) = try lookup(path, scopes, file: file, line: line) else {
                    throw .render("\(file):\(line): {{#each \(path)}} needs a list")
                }
                for (index, item) in items.enumerated() {
                    // `first` and `last` sit in a scope of their own above the item, so they shadow the
                    // item's own names exactly as setting them on the item would, without copying it.
                    scopes.append(.context(item))
                    scopes.append(.position(index: index, count: items.count))
                    defer { scopes.removeLast(2) }
                    try render(body, &scopes, into: &output, file: file)
                }
            case .conditional(let path, let negated, let then, let otherwise, _):
                let truthy: Bool
                if case .value(let value) = find(path, scopes) { truthy = value.isTruthy } else { truthy = false }
                try render(truthy != negated ? then : otherwise, &scopes, into: &output, file: file)
            case .partial(let partialFile, let body, let line):
                // The partial sees the values at its include; a failure in it names the include too.
                do throws(TemplateError) {
                    try render(body, &scopes, into: &output, file: partialFile)
                } catch {
                    throw error.included(from: file, line: line)
                }
            }
        }
    }
}
