/// Writes a JSON object straight into bytes, its members given in order of their names (the caller's duty,
/// which tests check against ``JSON/serialized``): the same text
/// ``JSON/serialized`` gives for the same members, without building a ``JSON`` value first (no dictionary, no
/// hashing, no sort). For documents whose member names are known in advance, such as the session record.
package struct JSONObjectWriter {
    /// The text so far.
    package private(set) var bytes: [UInt8]
    /// Whether the innermost open object has a member yet, one entry per open object.
    private var hasMembers: [Bool] = [false]

    /// Starts the outermost object.
    /// - Parameter capacity: Bytes to reserve.
    package init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// A member with any value.
    package mutating func member(_ name: String, _ value: JSON) {
        self.name(name)
        value.write(to: &bytes)
    }

    /// A member whose value is a string.
    package mutating func member(_ name: String, string: String) {
        self.name(name)
        JSON.writeString(string, to: &bytes)
    }

    /// A member whose value is a number (`null` when it is not finite, as ``JSON/serialized`` writes it).
    package mutating func member(_ name: String, number: Double) {
        self.name(name)
        bytes.append(contentsOf: JSON.format(number).utf8)
    }

    /// A member whose value is an object, written by `body` (its members in order of their names too).
    package mutating func member(_ name: String, object body: (inout JSONObjectWriter) -> Void) {
        self.name(name)
        bytes.append(UInt8(ascii: "{"))
        hasMembers.append(false)
        body(&self)
        hasMembers.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Closes the outermost object and returns the text.
    package consuming func finish() -> [UInt8] {
        precondition(hasMembers.count == 1, "an object is still open")
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func name(_ name: String) {
        if hasMembers[hasMembers.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasMembers[hasMembers.count - 1] = true
        JSON.writeString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }
}
