import LatchkeyVocabulary

/// An RFC 6901 JSON pointer: the path of reference tokens from the document root to a value.
///
/// Storage is a shared, immutable chain of the outer tokens plus the last token kept inline, so
/// the pointers of sibling values share their parent's storage and the parser allocates nothing
/// for the pointer of a scalar value. ``tokens`` and ``description`` are computed.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// One reference token; array indices stay numbers until their text is needed.
    enum Token: Sendable {
        case name(String)
        case index(Int)

        var text: String {
            switch self {
            case .name(let name): name
            case .index(let index): String(index)
            }
        }

        static func same(_ a: Token, _ b: Token) -> Bool {
            switch (a, b) {
            case (.index(let x), .index(let y)): x == y
            case (.name(let x), .name(let y)): x == y
            default: a.text == b.text
            }
        }
    }

    /// One link of the chain of outer tokens.
    ///
    /// `parent` is only mutated in `deinit` while the link is uniquely referenced, which makes the
    /// `@unchecked Sendable` sound.
    final class Link: @unchecked Sendable {
        let token: Token
        let count: Int
        var parent: Link?

        init(token: Token, parent: Link?) {
            self.token = token
            self.parent = parent
            self.count = (parent?.count ?? 0) + 1
        }

        // Releases a long chain iteratively instead of recursively, so that no chain length can
        // overflow the stack.
        deinit {
            guard var link = parent else { return }
            parent = nil
            while isKnownUniquelyReferenced(&link) {
                guard let next = link.parent else { break }
                link.parent = nil
                link = next
            }
        }
    }

    /// Every token but the last, innermost first.
    private var outer: Link?
    /// The last token; nil only for the root.
    private var last: Token?

    private init(outer: Link?, last: Token?) {
        self.outer = outer
        self.last = last
    }

    /// The pointer to the `index`th element of the array whose pointer's tokens are `chain`.
    init(chain: Link?, index: Int) {
        self.init(outer: chain, last: .index(index))
    }

    /// The pointer to the member `name` of the object whose pointer's tokens are `chain`.
    init(chain: Link?, name: String) {
        self.init(outer: chain, last: .name(name))
    }

    /// All tokens of this pointer as one chain (allocates one link; nil for the root).
    var chain: Link? {
        guard let last else { return nil }
        return Link(token: last, parent: outer)
    }

    /// Creates a pointer from unescaped reference tokens, outermost first.
    public init(tokens: [String]) {
        var link: Link?
        for token in tokens.dropLast() {
            link = Link(token: .name(token), parent: link)
        }
        self.init(outer: link, last: tokens.last.map(Token.name))
    }

    /// Parses the string form of a pointer (`""` or `/a/0/b~1c`); nil when it is not valid RFC 6901.
    public init?(_ string: String) {
        guard let tokens = JSONPointerSyntax.referenceTokens(string) else { return nil }
        self.init(tokens: tokens)
    }

    /// The pointer to the document root (no tokens; string form `""`).
    public static let root = JSONPointer(outer: nil, last: nil)

    /// The unescaped reference tokens, outermost first.
    public var tokens: [String] {
        get {
            var result: [String] = []
            result.reserveCapacity(count)
            forEachToken { result.append($0.text) }
            result.reverse()
            return result
        }
        set {
            self = JSONPointer(tokens: newValue)
        }
    }

    /// The number of reference tokens (0 for the root).
    public var count: Int {
        guard last != nil else { return 0 }
        return (outer?.count ?? 0) + 1
    }

    /// The last reference token, or nil for the root.
    public var lastToken: String? { last?.text }

    /// Returns this pointer extended by one member name.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(outer: chain, last: .name(token))
    }

    /// Returns this pointer extended by one array index (a negative index is written as is, e.g. "-1").
    public func appending(_ index: Int) -> JSONPointer {
        JSONPointer(outer: chain, last: index >= 0 ? .index(index) : .name(String(index)))
    }

    /// The RFC 6901 string form: `""` for the root, otherwise `/`-separated tokens with `~` written
    /// as `~0` and `/` as `~1`.
    public var description: String {
        var text = ""
        for token in tokens {
            text += "/"
            text += JSONPointerSyntax.escape(token)
        }
        return text
    }

    /// Calls `body` with each token, innermost first.
    private func forEachToken(_ body: (Token) -> Void) {
        guard let last else { return }
        body(last)
        var link = outer
        while let current = link {
            body(current.token)
            link = current.parent
        }
    }

    /// Two pointers are equal when their tokens are equal.
    public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let leftLast = lhs.last, let rightLast = rhs.last else { return true }
        guard Token.same(leftLast, rightLast) else { return false }
        var left = lhs.outer
        var right = rhs.outer
        while let l = left, let r = right {
            if l === r { return true }
            guard Token.same(l.token, r.token) else { return false }
            left = l.parent
            right = r.parent
        }
        return true
    }

    /// Hashes the tokens.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        forEachToken { hasher.combine($0.text) }
    }
}
