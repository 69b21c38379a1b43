/// A parsed template: text, placeholders and sections.
indirect enum TemplateNode: Sendable, Hashable {
    case text(String)
    case placeholder(path: String, escaping: Escaping, line: Int)
    case each(path: String, body: [TemplateNode], line: Int)
    case conditional(path: String, negated: Bool, then: [TemplateNode], otherwise: [TemplateNode], line: Int)
    /// A partial's nodes (`{{> name}}` on `line`), parsed from `file` with the include's indentation.
    case partial(file: String, body: [TemplateNode], line: Int)
}

/// Parses the template syntax: `{{path | escaping}}`, `{{#each path}}…{{/each}}`,
/// `{{#if path}}…{{else}}…{{/if}}`, `{{#unless path}}…{{/unless}}`, `{{! comment }}`, `{{> partial}}`.
/// A line holding only a section tag, a comment or a partial include is removed whole; an include's line
/// is replaced by the partial's lines, each non-empty one indented by the spaces before the tag.
enum TemplateParser {
    /// Parses a template, or a partial with the indentation of its include.
    /// - Parameters:
    ///   - source: The template text.
    ///   - name: Its file name, for messages.
    ///   - indentation: Put before every non-empty line (a partial's include indentation).
    ///   - includes: The partials `{{> name}}` can include, and the includes open around this parse.
    static func parse(
        _ source: String, name: String, indentation: Substring = "", includes: inout PartialIncludes
    ) throws(TemplateError) -> [TemplateNode] {
        var stack:
            [(kind: String, path: String, negated: Bool, nodes: [TemplateNode], otherwise: [TemplateNode]?, line: Int)] =
                [
                    ("root", "", false, [], nil, 0)
                ]
        func append(_ node: TemplateNode) {
            if stack[stack.count - 1].otherwise != nil {
                stack[stack.count - 1].otherwise!.append(node)
            } else {
                stack[stack.count - 1].nodes.append(node)
            }
        }
        // Lines split on the "\n" byte; a source with "\r" keeps the Character split ("\r\n" is one Character).
        let lines =
            source.utf8.contains(UInt8(ascii: "\r"))
            ? source.split(separator: "\n", omittingEmptySubsequences: false)
            : source.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
        for (offset, sourceLine) in lines.enumerated() {
            let lineNumber = offset + 1
            let isLast = offset == lines.count - 1
            let rawLine = indentation.isEmpty || sourceLine.isEmpty ? sourceLine : Substring(indentation + sourceLine)
            let trimmed = rawLine.trimmingSpaces()
            let standalone =
                trimmed.hasPrefix("{{") && trimmed.hasSuffix("}}")
                && trimmed.dropFirst(2).firstRange(ofDoubled: UInt8(ascii: "{")) == nil
                && ["#", "/", "!", "e", ">"].contains(trimmed.dropFirst(2).first.map(String.init) ?? "")
                && (trimmed.dropFirst(2).first != "e" || trimmed == "{{else}}")
            var rest = standalone ? trimmed[...] : rawLine[...]
            while !rest.isEmpty {
                guard let open = rest.firstRange(ofDoubled: UInt8(ascii: "{")) else {
                    append(.text(String(rest)))
                    break
                }
                if open.lowerBound > rest.startIndex { append(.text(String(rest[..<open.lowerBound]))) }
                guard let close = rest[open.upperBound...].firstRange(ofDoubled: UInt8(ascii: "}")) else {
                    throw .syntax(template: name, line: lineNumber, message: "\"{{\" is not closed on this line")
                }
                let tag = rest[open.upperBound..<close.lowerBound].trimmingSpaces()
                rest = rest[close.upperBound...]
                if tag.hasPrefix("!") { continue }
                if tag.hasPrefix(">") {
                    guard standalone else {
                        throw .syntax(
                            template: name, line: lineNumber, message: "{{\(tag)}} must stand on a line of its own")
                    }
                    append(
                        try includes.include(
                            tag.dropFirst().trimmingSpaces(), indentation: rawLine.prefix { $0 == " " || $0 == "\t" },
                            from: name, line: lineNumber))
                    continue
                }
                if tag.hasPrefix("#each ") || tag.hasPrefix("#if ") || tag.hasPrefix("#unless ") {
                    let parts = tag.dropFirst().split(separator: " ", maxSplits: 1)
                    let kind = String(parts[0])
                    let path = parts.count > 1 ? String(parts[1]).trimmingSpaces() : ""
                    guard !path.isEmpty else {
                        throw .syntax(template: name, line: lineNumber, message: "{{#\(kind)}} needs a name")
                    }
                    stack.append((kind, String(path), kind == "unless", [], nil, lineNumber))
                } else if tag == "else" {
                    guard stack.count > 1, stack[stack.count - 1].kind != "each",
                        stack[stack.count - 1].otherwise == nil
                    else {
                        throw .syntax(template: name, line: lineNumber, message: "{{else}} outside {{#if}}")
                    }
                    stack[stack.count - 1].otherwise = []
                } else if tag.hasPrefix("/") {
                    let kind = String(tag.dropFirst())
                    guard stack.count > 1, stack[stack.count - 1].kind == kind else {
                        throw .syntax(template: name, line: lineNumber, message: "{{/\(kind)}} closes nothing open")
                    }
                    let frame = stack.removeLast()
                    if kind == "each" {
                        append(.each(path: frame.path, body: frame.nodes, line: frame.line))
                    } else {
                        append(
                            .conditional(
                                path: frame.path, negated: frame.negated, then: frame.nodes,
                                otherwise: frame.otherwise ?? [], line: frame.line))
                    }
                } else {
                    let pieces = tag.split(separator: "|", maxSplits: 1).map { $0.trimmingSpaces() }
                    guard pieces.count == 2 else {
                        throw .syntax(
                            template: name, line: lineNumber,
                            message:
                                "placeholder {{\(tag)}} names no escaping; write {{\(tag) | identifier|string|doc|url|code|int}}"
                        )
                    }
                    guard let escaping = Escaping(rawValue: String(pieces[1])) else {
                        throw .syntax(
                            template: name, line: lineNumber,
                            message:
                                "unknown escaping \"\(pieces[1])\"; use one of \(Escaping.allCases.map(\.rawValue).joined(separator: ", "))"
                        )
                    }
                    append(.placeholder(path: String(pieces[0]), escaping: escaping, line: lineNumber))
                }
            }
            if !standalone && !isLast { append(.text("\n")) }
        }
        guard stack.count == 1 else {
            let frame = stack[stack.count - 1]
            throw .syntax(template: name, line: frame.line, message: "{{#\(frame.kind) \(frame.path)}} is never closed")
        }
        return stack[0].nodes
    }
}

extension StringProtocol {
    func trimmingSpaces() -> SubSequence {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}

extension Substring {
    /// The first place `byte` (an ASCII byte such as `{`) occurs twice in a row, searched in the UTF-8 view.
    func firstRange(ofDoubled byte: UInt8) -> Range<Index>? {
        let bytes = utf8
        var index = bytes.startIndex
        while let found = bytes[index...].firstIndex(of: byte) {
            let next = bytes.index(after: found)
            guard next < bytes.endIndex else { return nil }
            if bytes[next] == byte { return found..<bytes.index(after: next) }
            index = next
        }
        return nil
    }
}
