import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// A transport that answers every request at once, in process, with a fresh Supabase token response: it takes
/// the socket and URLSession out of a measurement, leaving the engine's own cost (request building, response
/// mapping, session decoding, store write, lifecycle, executor hand-offs).
final class CannedTransport: CancellationShieldHonouringTransport {  // it never looks at cancellation
    private let issued = Locked(0)
    private static let headers: HTTPHeaderFields = {
        var fields = HTTPHeaderFields()
        fields.set("Content-Type", "application/json")
        return fields
    }()

    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        let number = issued.withLock { value -> Int in
            value += 1
            return value
        }
        // Built as text, not with JSONSerialization, so that the transport costs next to nothing itself.
        let body = Data(
            """
            {"access_token":"bench-at-\(number)","refresh_token":"bench-rt-\(number)","token_type":"bearer",\
            "expires_in":3600,"user":{"id":"user-ada","email":"ada@example.com","role":"authenticated",\
            "user_metadata":{"full_name":"Ada Lovelace"}}}
            """.utf8)
        return TransportResponse(status: 200, headerFields: Self.headers, body: body)
    }
}
