/// A JSON number, kept exactly as written so that no precision is lost and no value can trap.
///
/// Equality and hashing compare the lexeme: `1` and `1.0` are different numbers here.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written in the source, e.g. `-12.5e3`.
    public let lexeme: String

    /// Wraps a lexeme the scanner has already validated.
    init(validLexeme: String) {
        self.lexeme = validLexeme
    }

    /// Creates a number from its JSON text; nil when `lexeme` is not an RFC 8259 number.
    public init?(_ lexeme: String) {
        guard Self.isValid(Array(lexeme.utf8)) else { return nil }
        self.lexeme = lexeme
    }

    /// Creates a number from an integer.
    public init(_ value: Int) {
        self.lexeme = String(value)
    }

    /// The value as an `Int`, when it is mathematically an integer in `Int` range
    /// (`12`, `-0`, `1.0`, `1e3` and `1200e-2` are; `1.5`, `1e19` and `1e999999` are not).
    public var int: Int? {
        if let value = Int(lexeme) { return value }
        return Self.exactInteger(Array(lexeme.utf8))
    }

    /// The value as a `Double`, or nil when it is not finite as a `Double` (e.g. `1e999999`).
    public var double: Double? {
        guard let value = Double(lexeme), value.isFinite else { return nil }
        return value
    }

    /// The lexeme.
    public var description: String { lexeme }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Whether `bytes` is exactly one RFC 8259 number.
    static func isValid(_ bytes: [UInt8]) -> Bool {
        var i = 0
        let n = bytes.count
        if i < n, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n, isDigit(bytes[i]) else { return false }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < n, isDigit(bytes[i]) { i += 1 }
        }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < n, isDigit(bytes[i]) else { return false }
            while i < n, isDigit(bytes[i]) { i += 1 }
        }
        if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < n, isDigit(bytes[i]) else { return false }
            while i < n, isDigit(bytes[i]) { i += 1 }
        }
        return i == n
    }

    /// The exact integer value of a valid lexeme with a fraction or exponent, or nil.
    private static func exactInteger(_ bytes: [UInt8]) -> Int? {
        var i = 0
        let n = bytes.count
        var negative = false
        if i < n, bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var digits: [UInt8] = []
        var fractionDigits = 0
        while i < n, isDigit(bytes[i]) {
            digits.append(bytes[i] - UInt8(ascii: "0"))
            i += 1
        }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, isDigit(bytes[i]) {
                digits.append(bytes[i] - UInt8(ascii: "0"))
                fractionDigits += 1
                i += 1
            }
        }
        var exponent = 0
        if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var negativeExponent = false
            if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                negativeExponent = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            while i < n, isDigit(bytes[i]) {
                // Saturate: any exponent this large already decides the answer.
                if exponent < 1_000_000_000 {
                    exponent = exponent * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                }
                i += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        guard i == n else { return nil }
        guard let first = digits.firstIndex(where: { $0 != 0 }),
            let last = digits.lastIndex(where: { $0 != 0 })
        else {
            return 0
        }
        let scale = exponent - fractionDigits + (digits.count - 1 - last)
        let significant = last - first + 1
        guard scale >= 0, significant + scale <= 19 else { return nil }
        // At most 19 decimal digits: below 10^19 < 2^64, so nothing here can overflow.
        var magnitude: UInt64 = 0
        for digit in digits[first...last] {
            magnitude = magnitude * 10 + UInt64(digit)
        }
        for _ in 0..<scale {
            magnitude *= 10
        }
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            return Int(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }
}
