@_spi(Generated) import LatchkeyRuntime
import LatchkeyVocabulary

@testable import LatchkeyGenerator

/// Walks a spec literal the generator writes beside the value the compiled client holds, through the generator's
/// ``RuntimeConstruct`` tables: every argument written must have arrived in the stored property its table names,
/// and every argument left out must equal, in the compiled value, the default the table says the runtime has.
///
/// It also records what it saw, so a test can require that the catalog and the fixtures make the generator write
/// every construct and label of the tables, and leave out every default at least once.
struct SpecComparison {
    /// The generator's tables (a test may replace one to show that a wrong table is caught).
    var constructs: [RuntimeConstruct] = RuntimeConstruct.all
    /// Where the compiled value differs from the literal, each naming the runtime type and the label.
    var mismatches: [String] = []
    /// The constructs and labels (``key(_:_:)``) that a literal wrote and the compiled value holds.
    var written: Set<String> = []
    /// The labels left out whose default was compared with a compiled value.
    var defaulted: Set<String> = []
    /// Stored properties of a runtime spec type the generator writes that its table does not list
    /// (`LatchkeyRuntime.InputSpec.newField`): values no descriptor can state.
    var unlisted: Set<String> = []

    /// How a construct, or one of its labels, is named in ``written`` and ``defaulted``.
    static func key(_ construct: RuntimeConstruct, _ property: String? = nil) -> String {
        let name = construct.spelling == .qualified ? construct.type : "\(construct.type) \(construct.printedName)"
        return name + (property.map { " " + $0 } ?? "")
    }

    /// Every construct and every label the tables list.
    static func everyWrittenKey(_ constructs: [RuntimeConstruct] = RuntimeConstruct.all) -> Set<String> {
        Set(constructs.flatMap { c in [key(c)] + c.parameters.map { key(c, $0.property) } })
    }

    /// Every label the generator may leave out as a default.
    static func everyDefaultedKey(_ constructs: [RuntimeConstruct] = RuntimeConstruct.all) -> Set<String> {
        Set(constructs.flatMap { c in c.parameters.filter { $0.omittedDefault != nil }.map { key(c, $0.property) } })
    }

    /// Compares a compiled value with the literal the generator wrote for it.
    /// - Parameters:
    ///   - value: The compiled value.
    ///   - expression: The literal.
    ///   - path: Where the value is, for messages.
    ///   - recording: Whether what is seen counts as written (not inside a default).
    mutating func compare(_ value: Any, _ expression: SwiftExpression, at path: String, recording: Bool = true) {
        let unwrapped = Self.unwrapped(value)
        if case .none = expression {
            if let unwrapped { fail(path, "the literal writes nil, the compiled value is \(unwrapped)") }
            return
        }
        guard let value = unwrapped else {
            return fail(path, "the literal writes \(expression.singleLine), the compiled value is nil")
        }
        switch expression {
        case .string(let text): expect((value as? String) == text, path, expression, value)
        case .int(let number):
            expect((value as? Int) == number || (value as? Double) == Double(number), path, expression, value)
        case .number(let lexeme): expect("\(value)" == lexeme, path, expression, value)
        case .bool(let flag): expect((value as? Bool) == flag, path, expression, value)
        case .symbol(let name):
            if recording, let construct = construct(of: value, printedAs: name) { written.insert(Self.key(construct)) }
            expect("." + String(describing: value) == name, path, expression, value)
        case .array(let items):
            guard let list = value as? [Any], list.count == items.count else {
                return fail(path, "the literal writes \(items.count) elements, the compiled value is \(value)")
            }
            for (index, (element, item)) in zip(list, items).enumerated() {
                compare(element, item, at: "\(path)[\(index)]", recording: recording)
            }
        case .dictionary(let pairs):
            guard let dictionary = value as? [String: Any], Set(dictionary.keys) == Set(pairs.map(\.key)) else {
                return fail(path, "the literal writes \(expression.singleLine), the compiled value is \(value)")
            }
            for pair in pairs {
                compare(dictionary[pair.key] as Any, pair.value, at: "\(path)[\(pair.key)]", recording: recording)
            }
        case .call(let name, let arguments):
            compareCall(value, name, arguments, at: path, recording: recording)
        case .none: break
        }
    }

    private mutating func compareCall(
        _ value: Any, _ name: String, _ arguments: [SwiftExpression.Argument], at path: String, recording: Bool
    ) {
        guard let construct = construct(of: value, printedAs: name) else {
            return fail(
                path,
                "the literal writes \(name)(…) for a \(String(reflecting: type(of: value))), which no RuntimeConstruct "
                    + "of the generator names")
        }
        if recording { written.insert(Self.key(construct)) }
        if let template = value as? ValueTemplate, case .member = construct.spelling {
            // `.literal(...)`/`.variable(...)`: the template's factories for a template of one segment.
            guard template.segments.count == 1 else {
                return fail(path, "\(construct.type)\(name)(…) makes one segment, the compiled value has \(template)")
            }
            if recording { written.insert(Self.key(construct, construct.parameters[0].property)) }
            return compare(template.segments[0], .call(name, arguments), at: path, recording: false)
        }
        guard let fields = fields(of: value, construct: construct, name: name, at: path) else { return }
        if Mirror(reflecting: value).displayStyle == .struct {
            let listed = Set(construct.parameters.map(\.property))
            unlisted.formUnion(fields.keys.filter { !listed.contains($0) }.map { "\(construct.type).\($0)" })
        }
        var remaining = arguments[...]
        for parameter in construct.parameters {
            let label = "\(construct.type) \(parameter.label ?? "_"):"
            var writtenValue: SwiftExpression?
            if let first = remaining.first, first.label == parameter.label {
                writtenValue = first.value
                remaining.removeFirst()
            }
            guard let field = fields[parameter.property] else {
                fail(path, "\(label) the runtime type has no stored property `\(parameter.property)`")
                continue
            }
            let fieldPath = "\(path).\(parameter.property)"
            if let writtenValue {
                if recording { written.insert(Self.key(construct, parameter.property)) }
                compare(field, writtenValue, at: fieldPath, recording: recording)
            } else if let omitted = parameter.omittedDefault {
                compareDefault(
                    field, omitted, label: label, key: Self.key(construct, parameter.property), at: fieldPath)
            } else {
                fail(fieldPath, "\(label) left out, though the generator's table says it always writes it")
            }
        }
        for extra in remaining {
            fail(
                path,
                "\(construct.type) \(extra.label ?? "_"): written, but not in the generator's table (or out of order)")
        }
    }

    /// Compares, for each argument of `construct` the generator may leave out, the runtime value's property with
    /// the default the table gives: `value` is built with the initializer's required arguments only.
    /// - Parameters:
    ///   - value: A runtime value made with its required arguments only.
    ///   - construct: The construct that names its type.
    ///   - path: Where the value is, for messages.
    mutating func compareDefaults(of value: Any, _ construct: RuntimeConstruct, at path: String) {
        guard let fields = fields(of: value, construct: construct, name: construct.printedName, at: path) else {
            return
        }
        for parameter in construct.parameters {
            guard let omitted = parameter.omittedDefault else { continue }
            let label = "\(construct.type) \(parameter.label ?? "_"):"
            guard let field = fields[parameter.property] else {
                fail(path, "\(label) the runtime type has no stored property `\(parameter.property)`")
                continue
            }
            compareDefault(
                field, omitted, label: label, key: Self.key(construct, parameter.property),
                at: "\(path).\(parameter.property)")
        }
    }

    /// Compares a property the generator left out with the default its table gives.
    private mutating func compareDefault(
        _ field: Any, _ omitted: SwiftExpression, label: String, key: String, at path: String
    ) {
        defaulted.insert(key)
        var inner = SpecComparison(constructs: constructs)
        inner.compare(field, omitted, at: path, recording: false)
        defaulted.formUnion(inner.defaulted)
        guard !inner.mismatches.isEmpty else { return }
        // A default that is a value of its own (`ClientPolicy()`) says which of its properties differ.
        let runtimeValue = Self.unwrapped(field).map { "\($0)" } ?? "nil"
        let detail = if case .call = omitted { " (\(inner.mismatches.joined(separator: "; ")))" } else { "" }
        fail(
            path,
            "\(label) the generator leaves it out as the runtime's default \(omitted.singleLine), but the runtime's "
                + "value is \(runtimeValue)\(detail)")
    }

    /// The stored properties of a struct, or the payload of an enum case (by element label, or the one
    /// parameter's property), or `nil` after recording a mismatch.
    private mutating func fields(
        of value: Any, construct: RuntimeConstruct, name: String, at path: String
    ) -> [String: Any]? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum else {
            return Dictionary(mirror.children.compactMap { c in c.label.map { ($0, c.value) } }) { a, _ in a }
        }
        guard let payload = mirror.children.first, "." + (payload.label ?? "") == name else {
            fail(path, "the literal writes \(construct.type)\(name)(…), the compiled value is \(value)")
            return nil
        }
        if construct.parameters.count == 1 { return [construct.parameters[0].property: payload.value] }
        let elements = Mirror(reflecting: payload.value).children.enumerated()
        return Dictionary(elements.map { ($1.label ?? ".\($0)", $1.value) }) { a, _ in a }
    }

    private func construct(of value: Any, printedAs name: String) -> RuntimeConstruct? {
        let type = String(reflecting: Swift.type(of: value))
        return constructs.first { $0.type == type && $0.printedName == name }
    }

    private mutating func expect(_ holds: Bool, _ path: String, _ expression: SwiftExpression, _ value: Any) {
        if !holds { fail(path, "the literal writes \(expression.singleLine), the compiled value is \(value)") }
    }

    private mutating func fail(_ path: String, _ message: String) { mismatches.append("\(path): \(message)") }

    /// The value inside any number of optionals, or `nil`.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        guard let wrapped = mirror.children.first else { return nil }
        return unwrapped(wrapped.value)
    }
}
