/// The first syntax error of a document; it ends parsing.
struct JSONSyntaxError: Error {
    /// What was expected and what was found.
    var message: String
    /// Where the problem is.
    var location: SourceLocation
    /// The pointer of the enclosing value; filled in by the tree builder when the scanner can't know it.
    var pointer: JSONPointer?
    /// How to fix it, when known.
    var fixIt: String?

    init(_ message: String, at location: SourceLocation, pointer: JSONPointer? = nil, fixIt: String? = nil) {
        self.message = message
        self.location = location
        self.pointer = pointer
        self.fixIt = fixIt
    }

    /// The error as a diagnostic.
    func diagnostic(defaultPointer: JSONPointer) -> Diagnostic {
        .error(message, at: location, pointer: (pointer ?? defaultPointer).description, fixIt: fixIt)
    }
}
