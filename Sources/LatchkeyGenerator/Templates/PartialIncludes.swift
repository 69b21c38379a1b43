/// The partials a template can include with `{{> Name}}`, and the includes being parsed.
///
/// A partial is the template file `_Name.swift.template`. Its include stands on a line of its own and is
/// replaced by the partial's lines, each indented by the spaces before the tag; the partial sees the values
/// at the include. Includes are expanded when the template is parsed, so a missing partial, a cycle or a
/// partial's malformed tag is reported before anything renders.
struct PartialIncludes {
    /// The deepest chain of includes (a template including a partial is one).
    static let maximumDepth = 16
    /// The most includes one template may expand, the nested ones counted.
    static let maximumCount = 4096

    /// Template text by file name.
    let sources: [String: String]
    /// The files being parsed, the outermost template first.
    private var open: [String]
    /// The includes expanded so far.
    private var count = 0

    /// Partials to include into the template `name`.
    /// - Parameters:
    ///   - sources: Template text by file name; the partials are the `_Name.swift.template` ones.
    ///   - name: The template being parsed.
    init(sources: [String: String], for name: String) {
        self.sources = sources
        self.open = [name]
    }

    /// The file a partial's name stands for (`ActionMethods` → `_ActionMethods.swift.template`).
    static func fileName(of name: some StringProtocol) -> String {
        "_" + name + ".swift.template"
    }

    /// Whether a partial's name is letters, digits and `_`.
    static func isValidName(_ name: some StringProtocol) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
            }
    }

    /// Parses the partial `name`, included on `line` of `template` with the spaces before its tag.
    /// - Returns: The partial's nodes.
    /// - Throws: ``TemplateError/syntax(template:line:message:)`` at the include for a malformed name, a
    ///   missing partial, a cycle or too deep a nesting; at the partial's own line for its malformed syntax.
    mutating func include(_ name: Substring, indentation: Substring, from template: String, line: Int)
        throws(TemplateError) -> TemplateNode
    {
        guard Self.isValidName(name) else {
            throw .syntax(
                template: template, line: line,
                message: "malformed partial include {{> \(name)}}: a partial's name is letters, digits and \"_\"")
        }
        let file = Self.fileName(of: name)
        guard let source = sources[file] else {
            throw .syntax(template: template, line: line, message: "no partial named \"\(name)\" (no file \(file))")
        }
        guard !open.contains(file) else {
            let chain = (open.drop { $0 != file } + [file]).joined(separator: " → ")
            throw .syntax(template: template, line: line, message: "partial \"\(name)\" includes itself: \(chain)")
        }
        guard open.count <= Self.maximumDepth else {
            throw .syntax(
                template: template, line: line,
                message: "partials nest more than \(Self.maximumDepth) deep at {{> \(name)}}")
        }
        count += 1
        guard count <= Self.maximumCount else {
            throw .syntax(
                template: template, line: line,
                message: "\(open[0]) expands more than \(Self.maximumCount) partial includes")
        }
        open.append(file)
        defer { open.removeLast() }
        // A partial's last line ends the include's line, whether or not the file ends with a line break.
        let text = source.isEmpty || source.hasSuffix("\n") ? source : source + "\n"
        let body = try TemplateParser.parse(text, name: file, indentation: indentation, includes: &self)
        return .partial(file: file, body: body, line: line)
    }
}
