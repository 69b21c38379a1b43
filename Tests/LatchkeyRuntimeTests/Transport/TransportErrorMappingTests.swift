import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Transport error mapping")
struct TransportErrorMappingTests {
    @Test("labels carry no user info, query or fragment")
    func labels() throws {
        let request = TransportRequest(
            method: "GET", url: try #require(URL(string: "https://user:pw@example.com:8443/cb?code=secret#frag")))
        #expect(TransportErrorMapping.label(for: request) == "GET https://example.com:8443/cb")
    }

    @Test("URLError codes map to timeout or network_error")
    func urlErrors() {
        #expect(TransportErrorMapping.map(URLError(.timedOut), label: "GET x", timeout: 3).code == .timeout)
        #expect(
            TransportErrorMapping.map(URLError(.cannotConnectToHost), label: "GET x", timeout: 3).code == .networkError)
        #expect(
            TransportErrorMapping.map(URLError(.networkConnectionLost), label: "GET x", timeout: 3).code
                == .networkError)
        #expect(
            TransportErrorMapping.map(CocoaError(.fileNoSuchFile), label: "GET x", timeout: 3).code == .networkError)
    }

    @Test("a body shorter than its Content-Length is a truncation")
    func truncation() {
        #expect(
            TransportErrorMapping.truncation(method: "GET", status: 200, headers: ["content-length": "10"], received: 4)
                != nil)
        #expect(
            TransportErrorMapping.truncation(method: "GET", status: 200, headers: ["content-length": "4"], received: 4)
                == nil)
        #expect(
            TransportErrorMapping.truncation(
                method: "HEAD", status: 200, headers: ["content-length": "10"], received: 0) == nil)
        #expect(
            TransportErrorMapping.truncation(method: "GET", status: 304, headers: ["content-length": "10"], received: 0)
                == nil)
        #expect(
            TransportErrorMapping.truncation(
                method: "GET", status: 200, headers: ["content-length": "10", "content-encoding": "gzip"], received: 30)
                == nil)
        #expect(TransportErrorMapping.truncation(method: "GET", status: 200, headers: [:], received: 30) == nil)
    }

    @Test(
        "Content-Length values: plain digits, whitespace around them, and values that are no number",
        arguments: [
            ("10", "the connection closed after 4 of 10 body bytes"),
            (" 10\t", "the connection closed after 4 of 10 body bytes"),
            ("010", "the connection closed after 4 of 10 body bytes"),
            ("4", nil), (" 4 ", nil), ("", nil), ("1 0", nil), ("ten", nil),
            ("+10", "the connection closed after 4 of 10 body bytes"),
            ("99999999999999999999999", nil),
        ] as [(String, String?)])
    func contentLengthValues(value: String, problem: String?) {
        #expect(
            TransportErrorMapping.truncation(
                method: "GET", status: 200, headers: ["content-length": value], received: 4)
                == problem)
    }
}
