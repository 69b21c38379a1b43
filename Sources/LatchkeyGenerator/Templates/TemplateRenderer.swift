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
        // Built as UTF-8 bytes and made a `String` once: appending to a byte array costs a fraction of appending
        // to a `String`, and a client takes thousands of appends.
        var output: [UInt8] = []
        output.reserveCapacity(64 * 1024)
        var scopes = [Scope.context(context)]
        try render(nodes, &scopes, into: &output, file: name)
        return GeneratedCode(Self.removingTrailingSpaces(output))
    }

    /// The text with the spaces at the end of every line removed.
    ///
    /// Most lines end without spaces, so the runs to cut are found first (a space is never part of a multi-byte
    /// scalar in UTF-8, so every cut falls between scalars) and the pieces between them are copied whole.
    /// - Parameter bytes: UTF-8 text (every piece appended to it came from a `String`).
    static func removingTrailingSpaces(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { source in
            var cuts: [Range<Int>] = []
            var lineStart = 0
            func cutBefore(_ end: Int) {
                var start = end
                while start > lineStart, source[start - 1] == UInt8(ascii: " ") { start -= 1 }
                if start < end { cuts.append(start..<end) }
            }
            for index in source.indices where source[index] == UInt8(ascii: "\n") {
                cutBefore(index)
                lineStart = index + 1
            }
            cutBefore(source.count)
            let removed = cuts.reduce(0) { $0 + $1.count }
            return String(unsafeUninitializedCapacity: source.count - removed) { target in
                var written = 0
                var kept = 0
                // The pieces between the cuts, then the piece after the last one.
                for cut in cuts + [source.count..<source.count] {
                    let count = cut.lowerBound - kept
                    if count > 0 {
                        target.baseAddress!.advanced(by: written).update(
                            from: source.baseAddress!.advanced(by: kept), count: count)
                    }
                    written += count
                    kept = cut.upperBound
                }
                return written
            }
        }
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
    private func render(_ nodes: [TemplateNode], _ scopes: inout [Scope], into output: inout [UInt8], file: String)
        throws(TemplateError)
    {
        for node in nodes {
            switch node {
            case .text(let text):
                output.append(contentsOf: text.utf8)
            case .placeholder(let path, let escaping, let line):
                let value = try lookup(path, scopes, file: file, line: line)
                // The two most common placeholders are appended in place (what `apply` returns, without the copy).
                switch (escaping, value) {
                case (.string, .text(let text)):
                    SwiftLiteral.appendString(text, to: &output)
                    continue
                case (.code, .code(let code)):
                    output.append(contentsOf: code.text.utf8)
                    continue
                default:
                    break
                }
                // Only comments need the text before the placeholder on its line.
                let linePrefix: Substring
                if escaping == .doc {
                    let lineStart = output.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                    linePrefix = Substring(String(decoding: output[lineStart...], as: UTF8.self))
                } else {
                    linePrefix = ""
                }
                let text = try escaping.apply(
                    value, linePrefix: linePrefix, placeholder: "\(file):\(line): {{\(path)}}")
                output.append(contentsOf: text.utf8)
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
