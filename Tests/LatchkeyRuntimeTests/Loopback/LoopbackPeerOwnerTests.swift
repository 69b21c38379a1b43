import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The loopback server serves only the current user's processes on Linux (issue 28, item 2).
@Suite("Loopback: only the current user's processes are served")
struct LoopbackPeerOwnerTests {
    /// Real lines, from a little-endian Linux machine: a listener on 127.0.0.1:33311, the connection it
    /// accepted (root's), and the other end, a process of user 65534 on port 38250.
    private static let tcp = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           1: 0100007F:821F 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 607128 1 00000000bb5727c1 100 0 0 10 0
          11: 0100007F:821F 0100007F:956A 01 00000000:00000000 00:00000000 00000000     0        0 607130 1 000000007d4d0420 20 0 0 10 -1
          13: 0100007F:956A 0100007F:821F 01 00000000:00000000 00:00000000 00000000 65534        0 607129 2 00000000cfa6a92d 20 0 0 10 -1
        """
    /// Real lines of `/proc/net/tcp6`: a listener on [::1]:46613 and both ends of a connection from port 46696.
    private static let tcp6 = """
          sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 00000000000000000000000001000000:B615 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 607123 1 000000003de0091f 100 0 0 10 0
           1: 00000000000000000000000001000000:B668 00000000000000000000000001000000:B615 01 00000000:00000000 00:00000000 00000000  1000        0 607124 2 00000000b99c3b59 20 0 0 10 -1
           2: 00000000000000000000000001000000:B615 00000000000000000000000001000000:B668 01 00000000:00000000 00:00000000 00000000     0        0 607125 1 000000006df3b721 20 0 0 10 -1
        """
    private static let v4Loopback: [UInt8] = [127, 0, 0, 1]
    private static let v6Loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]

    /// peer, local, table, owner.
    private static let ownerCases: [(TCPEndpoint, TCPEndpoint, String, UInt32?)] = [
        (
            TCPEndpoint(address: v4Loopback, port: 38250), TCPEndpoint(address: v4Loopback, port: 33311), tcp,
            65534
        ),
        (TCPEndpoint(address: v4Loopback, port: 33311), TCPEndpoint(address: v4Loopback, port: 38250), tcp, 0),
        (TCPEndpoint(address: v4Loopback, port: 38251), TCPEndpoint(address: v4Loopback, port: 33311), tcp, nil),
        (
            TCPEndpoint(address: [127, 0, 0, 2], port: 38250), TCPEndpoint(address: v4Loopback, port: 33311), tcp,
            nil
        ),
        (TCPEndpoint(address: v6Loopback, port: 46696), TCPEndpoint(address: v6Loopback, port: 46613), tcp6, 1000),
        (TCPEndpoint(address: v6Loopback, port: 46696), TCPEndpoint(address: v6Loopback, port: 46613), tcp, nil),
        (TCPEndpoint(address: v4Loopback, port: 38250), TCPEndpoint(address: v4Loopback, port: 33311), "", nil),
        (
            TCPEndpoint(address: v4Loopback, port: 38250), TCPEndpoint(address: v4Loopback, port: 33311),
            "header\n 13: 0100007F:956A 0100007F:821F 01 00000000:00000000 00:00000000 00000000 mallory", nil
        ),
    ]

    @Test("ProcNetTCP.owner finds the other end's owner, not the accepted socket's", arguments: ownerCases)
    func owner(peer: TCPEndpoint, local: TCPEndpoint, table: String, owner: UInt32?) {
        #expect(ProcNetTCP.owner(of: peer, connectedTo: local, in: table) == owner)
    }

    @Test(
        "ProcNetTCP.endpoint parses the kernel's ADDR:PORT",
        arguments: [
            ("0100007F:1F90", TCPEndpoint?.some(TCPEndpoint(address: [127, 0, 0, 1], port: 8080))),
            ("00000000000000000000000001000000:B615", TCPEndpoint(address: v6Loopback, port: 46613)),
            ("0100007F", nil), ("0100007F:1F90:1", nil), ("0100007G:1F90", nil), ("0100007F:11F90", nil),
        ])
    func endpoint(text: String, expected: TCPEndpoint?) {
        #expect(ProcNetTCP.endpoint(text[...]) == expected)
    }

    #if os(Linux)
        /// Runs `latchkey-store-crasher connect` and returns the line it prints.
        private static func connect(port: Int, target: String, uid: UInt32?) async -> String? {
            guard let crasher = StoreCrasher.require() else { return nil }
            return await DedicatedThread.run { () -> String? in
                let arguments = ["connect", String(port), target] + (uid.map { [String($0)] } ?? [])
                guard let child = try? ChildProcess(crasher, arguments) else { return nil }
                defer { _ = try? child.waitForExit() }
                return child.readLine(timeout: 30)
            }
        }

        @Test("another user's process is closed on unread, even with the right state; the user's sign-in completes")
        func otherUserRefused() async throws {
            guard geteuid() == 0 else { return }  // becoming another user needs root (as CI runs)
            let harness = try AcmeHarness()
            defer { harness.server.stop() }
            let outcomes = Locked<[String?]>([])
            let transport = harness.transport
            let session = try await harness.client.signInWithLoopback(
                open: { url throws(AuthError) in
                    let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                    let redirect = URL(string: items.first { $0.name == "redirect_uri" }?.value ?? "")!
                    let state = items.first { $0.name == "state" }?.value ?? ""
                    Task {
                        // User 65534 read the URL somewhere: its callback carries the real state.
                        let theirs = await Self.connect(
                            port: redirect.port!, target: "/callback?code=good-code&state=\(state)", uid: 65534)
                        outcomes.withLock { $0.append(theirs) }
                        let real = URL(string: redirect.absoluteString + "?code=good-code&state=\(state)")!
                        _ = try? await transport.send(TransportRequest(method: "GET", url: real))
                    }
                }, timeout: .seconds(60))
            #expect(outcomes.withLock { $0 } == ["closed"])
            #expect(session.accessToken == "at-1")
        }

        @Test("a process of the same user is served (the control for the refusal above)")
        func sameUserServed() async throws {
            let server = try LoopbackRedirectServer(expectedState: "s")
            let line = await Self.connect(port: server.port, target: "/callback?code=1&state=s", uid: nil)
            #expect(line == "status 200")
            #expect(try await server.waitForCallback().query == "code=1&state=s")
        }
    #endif
}
