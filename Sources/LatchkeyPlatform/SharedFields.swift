/// The stored fields of a large value type, kept behind one immutable reference.
///
/// A struct whose fields live here is one pointer wide: copying it, returning it from an `async` function or
/// throwing it (typed throws carry the error inline at every call site) costs one retain instead of one per
/// field, and the code that moves it is a pointer move. `AuthError`, `Session` and `User` keep their fields
/// here; measured on a stripped one-provider release app, that removed about 530 KB of code
/// (docs/Performance.md, "Size of an unused provider"). A setter replaces the reference (``updating(_:)``): the fields are never
/// changed in place, so an instance is safe to share between threads.
package final class SharedFields<Fields: Sendable>: Sendable {
    /// The fields.
    package let fields: Fields

    /// Keeps fields.
    /// - Parameter fields: The fields.
    package init(_ fields: Fields) {
        self.fields = fields
    }

    /// A copy of the fields with one change.
    /// - Parameter change: Changes the copy.
    /// - Returns: A new reference to the changed copy; `self` is unchanged.
    package func updating(_ change: (inout Fields) -> Void) -> SharedFields {
        var copy = fields
        change(&copy)
        return SharedFields(copy)
    }
}

/// Equal when both hold the same reference or equal fields, so that a struct whose one stored property is a
/// `SharedFields` gets `Equatable` synthesised over its fields.
extension SharedFields: Equatable where Fields: Equatable {
    package static func == (lhs: SharedFields, rhs: SharedFields) -> Bool {
        lhs === rhs || lhs.fields == rhs.fields
    }
}

/// Hashes the fields (not the reference), consistent with `==`.
extension SharedFields: Hashable where Fields: Hashable {
    package func hash(into hasher: inout Hasher) {
        fields.hash(into: &hasher)
    }
}
