@_spi(Generated) import LatchkeyRuntime
import Testing

/// Expects `body` to throw an ``AuthError`` with `code`.
func expectAuthError(
    _ code: AuthError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async {
    let error = await #expect(throws: AuthError.self, sourceLocation: sourceLocation) { try await body() }
    #expect(
        error?.code == code, "got \(error.map(String.init(describing:)) ?? "nothing")", sourceLocation: sourceLocation)
}

/// The ``AuthError`` `body` throws, or `nil` when it returns: for a call a test starts in a task and checks later.
func thrownAuthError(_ body: () async throws(AuthError) -> Void) async -> AuthError? {
    do throws(AuthError) {
        try await body()
        return nil
    } catch {
        return error
    }
}
