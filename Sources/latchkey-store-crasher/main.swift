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

// MARK: - main

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first != "refresh" { exitWhenParentGoes() }
switch arguments.first {
case "write-loop": await writeLoop(Array(arguments.dropFirst()))
case "refresh": await refreshOnce(Array(arguments.dropFirst()))
case "hold-lock": await holdLock(Array(arguments.dropFirst()))
default: fail("usage: write-loop | refresh | hold-lock (see the comment at the top of main.swift)")
}
