import LatchkeyVocabulary

/// Reads the members of one JSON object, reporting wrong types, missing keys and unknown keys.
///
/// Every accessor records the key as known; ``finish()`` reports the keys nobody asked for,
/// with a "did you mean" suggestion.
struct ObjectReader {
    let node: JSONNode
    let object: JSONObject
    private(set) var knownKeys: [String] = []
    var sink: DiagnosticSink

    init?(_ node: JSONNode, _ sink: DiagnosticSink, expected what: String) {
        guard case .object(let object) = node.value else {
            sink.error(
                "\(what) must be a JSON object, found \(node.typeName)", at: node, fixIt: "write it as { ... }")
            return nil
        }
        self.node = node
        self.object = object
        self.sink = sink
    }

    mutating func member(_ key: String) -> JSONNode? {
        knownKeys.append(key)
        return object[key]
    }

    mutating func required(_ key: String, _ what: String) -> JSONNode? {
        guard let value = member(key) else {
            sink.error("missing required key \"\(key)\" (\(what))", at: node, fixIt: "add \"\(key)\"")
            return nil
        }
        return value
    }

    mutating func string(_ key: String, required isRequired: Bool = false, _ what: String = "a string") -> String? {
        guard let value = isRequired ? required(key, what) : member(key) else { return nil }
        return Self.string(value, sink, what)
    }

    static func string(_ value: JSONNode, _ sink: DiagnosticSink, _ what: String = "a string") -> String? {
        guard case .string(let text) = value.value else {
            sink.error("expected \(what), found \(value.typeName)", at: value)
            return nil
        }
        return text
    }

    mutating func bool(_ key: String, default defaultValue: Bool) -> Bool {
        guard let value = member(key) else { return defaultValue }
        guard case .bool(let flag) = value.value else {
            sink.error("expected true or false, found \(value.typeName)", at: value)
            return defaultValue
        }
        return flag
    }

    mutating func int(_ key: String, range: ClosedRange<Int>) -> Int? {
        guard let value = member(key) else { return nil }
        return Self.int(value, sink, range: range)
    }

    static func int(_ value: JSONNode, _ sink: DiagnosticSink, range: ClosedRange<Int>) -> Int? {
        guard case .number(let number) = value.value, let int = number.int, range.contains(int) else {
            sink.error(
                "expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(value.describedBriefly)",
                at: value)
            return nil
        }
        return int
    }

    mutating func strings(_ key: String, _ what: String = "a string") -> [String] {
        guard let value = member(key) else { return [] }
        return Self.strings(value, sink, what)
    }

    static func strings(_ value: JSONNode, _ sink: DiagnosticSink, _ what: String = "a string") -> [String] {
        guard case .array(let items) = value.value else {
            sink.error("expected an array of strings, found \(value.typeName)", at: value)
            return []
        }
        return items.compactMap { string($0, sink, what) }
    }

    mutating func oneOf(_ key: String, _ allowed: [String], default defaultValue: String) -> String {
        guard let value = member(key) else { return defaultValue }
        guard let text = Self.string(value, sink) else { return defaultValue }
        guard allowed.contains(text) else {
            reportNotOneOf(text, allowed, at: value)
            return defaultValue
        }
        return text
    }

    /// The vocabulary term a key spells (``VocabularyTerm/descriptorSpellings`` are the allowed values), or
    /// `defaultValue` when the key is absent or invalid (an error is reported). The spellings are listed only
    /// for the error: a valid key is read with the term's own `init(rawValue:)`.
    mutating func oneOf<Term: VocabularyTerm>(_ key: String, default defaultValue: Term) -> Term {
        guard let value = member(key) else { return defaultValue }
        guard let text = Self.string(value, sink) else { return defaultValue }
        guard let term = Term(rawValue: text) else {
            reportNotOneOf(text, Term.descriptorSpellings, at: value)
            return defaultValue
        }
        return term
    }

    private func reportNotOneOf(_ text: String, _ allowed: [String], at value: JSONNode) {
        let suggestion = Suggestions.closest(to: text, among: allowed).map { "did you mean \"\($0)\"? " } ?? ""
        sink.error(
            "\"\(text)\" is not one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))", at: value,
            fixIt: "\(suggestion)use one of the listed values")
    }

    /// Each member of an object-valued key, in source order.
    mutating func members(_ key: String, _ what: String) -> [JSONMember] {
        guard let value = member(key) else { return [] }
        guard case .object(let object) = value.value else {
            sink.error("\(what) must be a JSON object, found \(value.typeName)", at: value)
            return []
        }
        return object.members
    }

    func finish() {
        let known = knownKeys
        for member in object.members where !known.contains(member.key) {
            var fix = "remove it"
            if let suggestion = Suggestions.closest(to: member.key, among: known) {
                fix = "did you mean \"\(suggestion)\"?"
            } else if !known.isEmpty {
                fix = "allowed keys here: \(Set(known).sorted().joined(separator: ", "))"
            }
            sink.error(
                "unknown key \"\(member.key)\"", at: member.keyLocation,
                pointer: node.pointer.appending(member.key).description, fixIt: fix)
        }
    }
}

extension JSONNode {
    /// A short description of the value for messages.
    var describedBriefly: String {
        switch value {
        case .number(let number): "the number \(number.lexeme.prefix(24))"
        case .string(let text): "the string \"\(text.prefix(40))\""
        default: typeName
        }
    }
}
