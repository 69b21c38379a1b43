// latchkey-store-crasher: the child process of Latchkey's reliability tests (Tests/LatchkeyRuntimeTests/Reliability).
//
//   latchkey-store-crasher write-loop <directory> <key> <record-a> <record-b> [--unsafe-in-place]
//       Writes the two record files' bytes under <key> of a FileSessionStore, alternately, forever. After a
//       few writes it prints `ready <microseconds per write>`. The parent kills it with SIGKILL at a random
//       moment and checks that the store holds exactly one of the two records. `--unsafe-in-place` writes
//       the file in place instead (truncate, then 4 KiB chunks): the control that shows the check can fail.
//
//   latchkey-store-crasher refresh <token-url> <directory> <key> [--no-lock] [--wait-for-go]
//       Restores the session stored under <key>, prints `ready`, waits for a line on stdin when asked, then
//       calls validAccessToken() once against a refresh endpoint at <token-url> and prints one JSON line:
//       {"result":"ok","accessToken":…,"refreshToken":…,"adopted":…,"state":…} or
//       {"result":"error","code":…,"kind":…,"state":…}. `--no-lock` uses the store without its refresh
//       lock (the control that shows what the lock prevents).
//
//   latchkey-store-crasher hold-lock <directory> <key>
//       Takes the store's refresh lock for <key>, prints `locked`, and sleeps until killed.
//
//   latchkey-store-crasher connect <port> <target> [<uid>]
//       Becomes <uid> (setgid, then setuid; needs root) when given, connects to 127.0.0.1:<port>, sends
//       `GET <target>` and prints `status <code>` with the response's status, or `closed` when the server
//       closed the connection without answering. The loopback tests play another local user with it.
//
// Every mode exits as soon as its stdin reaches end of file (the parent closed it, or died), so a crashed
// test run never leaves a writer, a lock holder or a waiting refresh behind.
import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a line to stdout at once (no buffering: the parent may kill this process right after).
func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        offset += written
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("latchkey-store-crasher: \(message)\n".utf8))
    exit(2)
}

func readFile(_ path: String) -> Data {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return data
}

/// Exits when stdin reaches end of file: the parent test process is gone (or done with this child).
func exitWhenParentGoes() {
    let watchdog = Thread {
        var byte: UInt8 = 0
        while true {
            let count = read(0, &byte, 1)
            if count == 0 || (count < 0 && errno != EINTR) { _exit(0) }
        }
    }
    watchdog.start()
}

// MARK: - write-loop

/// Writes a record in place, non-atomically: truncate, then small chunks, no fsync.
func writeInPlace(_ data: Data, path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { fail("open \(path): errno \(errno)") }
    defer { _ = close(descriptor) }
    let bytes = Array(data)
    var offset = 0
    while offset < bytes.count {
        let end = min(offset + 4096, bytes.count)
        let written = bytes[offset..<end].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            fail("write: errno \(errno)")
        }
        offset += written
    }
}

func writeLoop(_ arguments: [String]) async -> Never {
    guard arguments.count >= 4 else { fail("write-loop <directory> <key> <record-a> <record-b> [--unsafe-in-place]") }
    let store = FileSessionStore(directory: URL(fileURLWithPath: arguments[0], isDirectory: true))
    let key = arguments[1]
    let records = [readFile(arguments[2]), readFile(arguments[3])]
    let unsafe = arguments.dropFirst(4).contains("--unsafe-in-place")
    var count = 0
    func writeNext() async {
        let record = records[count % 2]
        count += 1
        if unsafe {
            try? FileManager.default.createDirectory(
                at: store.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            writeInPlace(record, path: store.fileURL(forKey: key).path)
        } else {
            do {
                try await store.save(record, key: key)
            } catch {
                fail("save: \(error)")
            }
        }
    }
    let warmUp = 6
    let start = MonotonicInstant.now
    for _ in 0..<warmUp { await writeNext() }
    let elapsed = MonotonicInstant.now - start
    let microseconds = elapsed.nanoseconds / 1_000
    emit("ready \(max(1, microseconds / Int64(warmUp)))")
    while true { await writeNext() }
}

// MARK: - refresh

/// The file store without its refresh lock (the protocol's default no-op lock).
struct UnlockedStore: SessionStore {
    let inner: FileSessionStore

    func load(key: String) async throws(AuthError) -> Data? { try await inner.load(key: key) }
    func save(_ data: Data, key: String) async throws(AuthError) { try await inner.save(data, key: key) }
    func remove(key: String) async throws(AuthError) { try await inner.remove(key: key) }
}

/// A provider with only a refresh flow: `POST {tokenURL}` with an RFC 6749 form; reuse is `invalid_grant`.
func refreshOnlyProvider() -> ProviderSpec {
    ProviderSpec(
        name: "crasher", displayName: "Store crasher",
        inputs: [InputSpec(name: "tokenURL", kind: .url)],
        requests: [
            "refresh": RequestSpec(
                method: "POST", url: "{tokenURL}", encoding: .form,
                body: [
                    ParameterSpec("grant_type", .string("refresh_token")),
                    ParameterSpec("refresh_token", .string("{refresh_token}")),
                    ParameterSpec("client_id", .string("crasher-app")),
                ], response: .session)
        ],
        flows: FlowSet(refresh: RefreshFlowSpec(request: "refresh", reuseCodes: ["invalid_grant"])))
}

func json(_ object: [String: Any]) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
}

func refreshOnce(_ arguments: [String]) async -> Never {
    guard arguments.count >= 3 else { fail("refresh <token-url> <directory> <key> [--no-lock] [--wait-for-go]") }
    let flags = Set(arguments.dropFirst(3))
    let fileStore = FileSessionStore(directory: URL(fileURLWithPath: arguments[1], isDirectory: true))
    let store: any SessionStore = flags.contains("--no-lock") ? UnlockedStore(inner: fileStore) : fileStore
    let messages = Locked<[String]>([])
    let client: AuthClient
    do {
        client = try AuthClient(
            provider: refreshOnlyProvider(),
            configuration: ProviderConfiguration(values: ["tokenURL": arguments[0]]),
            options: AuthClientOptions(
                store: store, storeKey: arguments[2],
                logger: { record in messages.withLock { $0.append(record.message) } }, environment: { _ in nil }))
    } catch {
        fail("configuration: \(error)")
    }
    await client.restore()
    emit("ready")
    if flags.contains("--wait-for-go"), readLine() == nil { exit(0) }
    exitWhenParentGoes()
    do {
        let token = try await client.validAccessToken()
        let adopted = messages.withLock { $0.contains { $0.contains("adopting") } }
        emit(
            json([
                "result": "ok", "accessToken": token, "refreshToken": await client.cachedSession?.refreshToken ?? "",
                "adopted": adopted, "state": client.state.description,
            ]))
    } catch {
        emit(
            json([
                "result": "error", "code": error.code.rawValue, "kind": error.kind.rawValue,
                "state": client.state.description,
            ]))
    }
    exit(0)
}

// MARK: - hold-lock

func holdLock(_ arguments: [String]) async -> Never {
    guard arguments.count >= 2 else { fail("hold-lock <directory> <key>") }
    let store = FileSessionStore(directory: URL(fileURLWithPath: arguments[0], isDirectory: true))
    do {
        try await store.withExclusiveRefresh(key: arguments[1]) { () async throws(AuthError) in
            emit("locked")
            while true { try? await LatchkeyDuration.sleep(.seconds(3600)) }
        }
    } catch {
        fail("lock: \(error)")
    }
    exit(0)
}

/// `connect`: one request to the loopback server, as another user.
func connectOnce(_ arguments: [String]) -> Never {
    guard arguments.count >= 2, let port = UInt16(arguments[0]) else { fail("connect <port> <target> [<uid>]") }
    if arguments.count > 2 {
        guard let uid = UInt32(arguments[2]), setgid(uid) == 0, setuid(uid) == 0 else {
            fail("cannot become user \(arguments[2]): errno \(errno)")
        }
    }
    #if canImport(Glibc) || canImport(Musl)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard descriptor >= 0, connected == 0 else { fail("cannot connect: errno \(errno)") }
    let request = Array("GET \(arguments[1]) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        response += buffer[..<count]
    }
    let text = String(decoding: response, as: UTF8.self)
    let status = text.split(separator: " ").dropFirst().first.map(String.init)
    emit(text.hasPrefix("HTTP/1.1 ") ? "status \(status ?? "?")" : "closed")
    exit(0)
}

// MARK: - main

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first != "refresh" { exitWhenParentGoes() }
switch arguments.first {
case "write-loop": await writeLoop(Array(arguments.dropFirst()))
case "refresh": await refreshOnce(Array(arguments.dropFirst()))
case "hold-lock": await holdLock(Array(arguments.dropFirst()))
case "connect": connectOnce(Array(arguments.dropFirst()))
default: fail("usage: write-loop | refresh | hold-lock | connect (see the comment at the top of main.swift)")
}
