import Dispatch
import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Section 6 (optional): a peer side by side. authlib's OAuth2 client (Python, from PyPI) and `OidcClient`
/// each refresh a session against the real OpenID provider in ci-oidc/ (django-oauth-toolkit).
///
/// Needs ci-oidc/.venv (the provider) and a Python with `authlib` and `requests`: `$LATCHKEY_BENCH_PYTHON`,
/// `.build/latchkey-bench-venv/bin/python` or ci-oidc/.venv/bin/python, the first that imports both.
/// When `setUp` is on (the default; `--no-peer-setup` turns it off), a missing piece is installed first:
/// `bash ci-oidc/setup.sh` for the provider, and `.build/latchkey-bench-venv` (`python3 -m venv` plus
/// `pip install authlib requests`) for the client. When that fails (no network), the section is skipped
/// with the reason.
/// A provider already running (ci-oidc/.server.pid) is reused and left running; otherwise the section
/// starts one on port 9400 with ci-oidc/start.sh and stops it with ci-oidc/stop.sh.
struct PeerBench {
    let packageRoot: String
    /// Whether to install what is missing (the provider's venv, a Python with authlib) before running.
    var setUp = true
    var samples = 20

    func run() async throws -> SectionResult {
        let ciOIDC = packageRoot + "/ci-oidc"
        let venvPython = ciOIDC + "/.venv/bin/python"
        if !FileManager.default.isExecutableFile(atPath: venvPython) {
            guard setUp else {
                return Self.skipped("ci-oidc/.venv is missing (run ci-oidc/setup.sh, or drop --no-peer-setup)")
            }
            Self.progress("ci-oidc/.venv is missing: running bash ci-oidc/setup.sh (Django provider, from PyPI)")
            let setup = try await Self.run("/bin/bash", [ciOIDC + "/setup.sh"])
            guard setup.status == 0, FileManager.default.isExecutableFile(atPath: venvPython) else {
                return Self.skipped("ci-oidc/setup.sh failed (status \(setup.status)): \(Self.tail(setup))")
            }
        }
        let benchVenv = packageRoot + "/.build/latchkey-bench-venv"
        var candidates = [benchVenv + "/bin/python", venvPython]
        if let chosen = ProcessInfo.processInfo.environment["LATCHKEY_BENCH_PYTHON"] {
            candidates.insert(chosen, at: 0)
        }
        var python = await Self.firstPythonWithAuthlib(candidates)
        if python == nil {
            guard setUp else {
                return Self.skipped(
                    "no Python with authlib (python3 -m venv .build/latchkey-bench-venv &&"
                        + " .build/latchkey-bench-venv/bin/pip install authlib requests, or drop --no-peer-setup)")
            }
            switch await Self.installAuthlib(venv: benchVenv) {
            case .failure(let error): return Self.skipped(error.description)
            case .success(let installed): python = installed
            }
        }
        guard let python else { return Self.skipped("no Python with authlib") }

        // The provider: reuse a running one, or start one (and stop it afterwards).
        var issuer: String?
        if let pid = Self.readText(ciOIDC + "/.server.pid"), let port = Self.readText(ciOIDC + "/.server.port"),
            let number = Int32(pid), kill(number, 0) == 0
        {
            let candidate = "http://127.0.0.1:\(port)/o"
            if await Self.discoveryAnswers(candidate) { issuer = candidate }
        }
        let startedHere = issuer == nil
        if startedHere {
            let started = try await Self.run("/bin/bash", [ciOIDC + "/start.sh", "9400"])
            guard started.status == 0 else {
                return Self.skipped("ci-oidc/start.sh failed: \(started.error.suffix(300))")
            }
            issuer = started.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        defer {
            if startedHere { _ = try? Self.runBlocking("/bin/bash", [ciOIDC + "/stop.sh"]) }
        }
        guard let issuer, let issuerURL = URL(string: issuer) else { return Self.skipped("no issuer") }

        // authlib: two browser sign-ins (one session for each side), then `samples` refreshes.
        let scriptURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-bench-peer-\(getpid()).py")
        try Data(Self.script.utf8).write(to: scriptURL)
        defer { try? FileManager.default.removeItem(at: scriptURL) }
        let peer = try await Self.run(python, [scriptURL.path, issuer, String(samples)])
        guard peer.status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(peer.output.utf8)) as? [String: Any],
            let authlibTimes = object["samples"] as? [Double], let handoff = object["handoff"] as? [String: Any],
            let accessToken = handoff["access_token"] as? String, let refreshToken = handoff["refresh_token"] as? String
        else {
            return Self.skipped("the authlib script failed: \(peer.error.suffix(400))")
        }
        let authlibVersion = object["authlib"] as? String ?? "?"

        // Latchkey: OidcClient with the handed-over session; one warm-up refresh (discovery), then `samples`.
        let now = Date()
        let session = Session(
            accessToken: accessToken, refreshToken: refreshToken, idToken: handoff["id_token"] as? String,
            tokenType: "Bearer", expiresAt: now.addingTimeInterval(3600), issuedAt: now,
            scope: handoff["scope"] as? String, provider: "oidc")
        let store = InMemorySessionStore()
        let oidc = try OidcClient(
            issuer: issuerURL, clientID: "latchkey-public", options: AuthClientOptions(store: store))
        try await StoredSession.seed(session, into: store, for: oidc.client)
        _ = try await oidc.currentSession(forceRefresh: true)
        var latchkeyTimes: [Double] = []
        var previous = try await oidc.validAccessToken()
        for _ in 0..<samples {
            let start = Clock.now()
            let refreshed = try await oidc.currentSession(forceRefresh: true)
            latchkeyTimes.append(Clock.seconds(start, Clock.now()))
            guard refreshed.accessToken != previous else { throw BenchError("the refresh did not rotate the token") }
            previous = refreshed.accessToken
        }

        var table = Table(
            "Peer: refresh against ci-oidc (django-oauth-toolkit, \(issuer)), authlib \(authlibVersion) vs OidcClient",
            [
                ("client", "client", false), ("p50", "p50Seconds", true), ("p90", "p90Seconds", true),
                ("min", "minSeconds", true), ("samples", "samples", true),
            ])
        table.add([
            .text("OidcClient.currentSession(forceRefresh: true)"), .seconds(Stats.median(latchkeyTimes)),
            .seconds(Stats.percentile(latchkeyTimes, 90)), .seconds(latchkeyTimes.min() ?? .nan), .int(samples),
        ])
        table.add([
            .text("authlib OAuth2Session.refresh_token (requests)"), .seconds(Stats.median(authlibTimes)),
            .seconds(Stats.percentile(authlibTimes, 90)), .seconds(authlibTimes.min() ?? .nan),
            .int(authlibTimes.count),
        ])
        let ratio = Stats.median(latchkeyTimes) / Stats.median(authlibTimes)
        table.notes = [
            "Each side refreshes its own token family (refresh-token rotation on), one warm-up refresh first"
                + " (Latchkey's includes discovery). Python: \(python).",
            "The provider is Django's development server: its own time dominates both columns."
                + " Latchkey p50 / authlib p50 = \(Format.ratio(ratio)).",
            startedHere
                ? "The provider was started for this run and stopped after it."
                : "A provider already running was reused.",
        ]
        return SectionResult(
            key: "peer", tables: [table],
            targets: [
                TargetResult(
                    name: "peer side by side (optional, informational)", outcome: .met,
                    detail:
                        "OidcClient \(Format.duration(Stats.median(latchkeyTimes))) vs authlib \(Format.duration(Stats.median(authlibTimes))) p50"
                )
            ])
    }

    /// The first candidate that runs and imports both `authlib` and `requests`.
    static func firstPythonWithAuthlib(_ candidates: [String]) async -> String? {
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            if (try? await run(candidate, ["-c", "import authlib, requests"]))?.status == 0 { return candidate }
        }
        return nil
    }

    /// Creates `venv` with `python3 -m venv` (unless it exists) and installs authlib and requests into it.
    static func installAuthlib(venv: String) async -> Result<String, BenchError> {
        let python = venv + "/bin/python"
        do {
            if !FileManager.default.isExecutableFile(atPath: python) {
                progress("no Python with authlib and requests: creating \(venv) (python3 -m venv)")
                let created = try await run("/usr/bin/env", ["python3", "-m", "venv", venv])
                guard created.status == 0, FileManager.default.isExecutableFile(atPath: python) else {
                    return .failure(BenchError("python3 -m venv \(venv) failed: \(tail(created))"))
                }
            }
            progress("installing authlib and requests into \(venv) (pip, from PyPI)")
            let installed = try await run(
                python,
                [
                    "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "-q", "--timeout", "20",
                    "authlib", "requests",
                ])
            guard installed.status == 0 else {
                return .failure(BenchError("pip install authlib requests failed (no network?): \(tail(installed))"))
            }
            guard await firstPythonWithAuthlib([python]) != nil else {
                return .failure(BenchError("\(python) still cannot import authlib and requests after pip install"))
            }
            return .success(python)
        } catch {
            return .failure(BenchError("cannot set up \(venv): \(error)"))
        }
    }

    /// A line about the set-up, printed before the section's table.
    static func progress(_ text: String) {
        FileHandle.standardOutput.write(Data("peer: \(text)\n".utf8))
    }

    /// The end of a failed command's output, on one line, for a skip reason.
    static func tail(_ output: ProcessOutput) -> String {
        let text = (output.error.isEmpty ? output.output : output.error).trimmingCharacters(in: .whitespacesAndNewlines)
        return String(text.suffix(300)).replacingOccurrences(of: "\n", with: " | ")
    }

    static func skipped(_ why: String) -> SectionResult {
        var table = Table("Peer: authlib (Python) vs OidcClient against ci-oidc/", [("status", "status", false)])
        table.add([.text("skipped: " + why)])
        return SectionResult(
            key: "peer", tables: [table],
            targets: [TargetResult(name: "peer side by side (optional)", outcome: .skipped, detail: why)])
    }

    static func readText(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func discoveryAnswers(_ issuer: String) async -> Bool {
        guard let url = URL(string: issuer + "/.well-known/openid-configuration") else { return false }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        guard let (data, response) = try? await session.data(from: url),
            (response as? HTTPURLResponse)?.statusCode == 200,
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return document["issuer"] as? String == issuer
    }

    struct ProcessOutput: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs a program off the cooperative pool and waits for it.
    static func run(_ program: String, _ arguments: [String]) async throws -> ProcessOutput {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runBlocking(program, arguments) })
            }
        }
    }

    /// Runs a program with posix_spawn and waits with waitpid (Foundation's Process can miss the exit of a
    /// script that leaves a background server behind, and then waits forever).
    static func runBlocking(_ program: String, _ arguments: [String]) throws -> ProcessOutput {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw BenchError("pipe() failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for descriptor in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw BenchError("cannot run \(program): error \(spawned)")
        }
        // Read both pipes to the end (stderr on another thread), then reap the child.
        let errorBox = DataBox()
        let group = DispatchGroup()
        let errorReader = errPipe[0]
        group.enter()
        DispatchQueue.global().async {
            errorBox.data = readAll(errorReader)
            group.leave()
        }
        let output = readAll(outPipe[0])
        group.wait()
        close(outPipe[0])
        close(errPipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exited = status & 0x7f == 0
        return ProcessOutput(
            status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
            output: String(decoding: output, as: UTF8.self),
            error: String(decoding: errorBox.data, as: UTF8.self))
    }

    private final class DataBox: @unchecked Sendable {
        var data = Data()
    }

    private static func readAll(_ descriptor: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        return data
    }

    /// The authlib side (written to a temporary file and run with the chosen Python).
    static let script = #"""
        import base64, hashlib, html.parser, json, secrets, sys, time
        from urllib.parse import parse_qs, urljoin, urlsplit
        import requests
        from authlib.integrations.requests_client import OAuth2Session

        ISSUER, SAMPLES = sys.argv[1].rstrip("/"), int(sys.argv[2])
        CLIENT, REDIRECT = "latchkey-public", "http://127.0.0.1:53682/callback"

        class Forms(html.parser.HTMLParser):
            def __init__(self):
                super().__init__(); self.forms = []
            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                if tag == "form":
                    self.forms.append({"action": a.get("action"), "fields": {}})
                elif tag == "input" and self.forms and a.get("name") and a.get("type") != "submit":
                    self.forms[-1]["fields"][a["name"]] = a.get("value") or ""

        def form(resp):
            p = Forms(); p.feed(resp.text); f = p.forms[0]
            return (urljoin(resp.url, f["action"]) if f["action"] else resp.url), f["fields"]

        def b64(data):
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        def sign_in():
            """The browser leg (login form, consent) with requests, then the code exchange: a token set."""
            s = requests.Session()
            get = lambda url, **kw: s.get(url, allow_redirects=False, timeout=15, **kw)
            post = lambda url, data: s.post(url, data=data, allow_redirects=False, timeout=15)
            verifier = b64(secrets.token_bytes(48))
            challenge = b64(hashlib.sha256(verifier.encode()).digest())
            params = {"response_type": "code", "client_id": CLIENT, "redirect_uri": REDIRECT, "scope": "openid profile email",
                      "state": secrets.token_urlsafe(16), "nonce": secrets.token_urlsafe(16), "code_challenge": challenge,
                      "code_challenge_method": "S256"}
            r = get(ISSUER + "/authorize/", params=params)
            if r.status_code == 302 and "/accounts/login/" in r.headers["Location"]:
                page = get(urljoin(r.url, r.headers["Location"]))
                target, fields = form(page)
                done = post(target, dict(fields, username="ada", password="latchkey-test-password"))
                r = get(urljoin(done.url, done.headers["Location"]))
            target, fields = form(r)
            done = post(target, dict(fields, allow="Authorize"))
            code = parse_qs(urlsplit(done.headers["Location"]).query)["code"][0]
            t = requests.post(ISSUER + "/token/", data={"grant_type": "authorization_code", "code": code,
                              "redirect_uri": REDIRECT, "client_id": CLIENT, "code_verifier": verifier}, timeout=15)
            t.raise_for_status()
            return t.json()

        mine, theirs = sign_in(), sign_in()
        token_url = ISSUER + "/token/"
        client = OAuth2Session(client_id=CLIENT, token=mine, token_endpoint=token_url,
                               token_endpoint_auth_method="none")
        client.refresh_token(token_url, refresh_token=client.token["refresh_token"])  # warm-up
        times = []
        for _ in range(SAMPLES):
            start = time.perf_counter()
            client.refresh_token(token_url, refresh_token=client.token["refresh_token"])
            times.append(time.perf_counter() - start)
        print(json.dumps({"authlib": __import__("authlib").__version__, "samples": times,
                          "handoff": {k: theirs.get(k) for k in ("access_token", "refresh_token", "id_token", "scope")}}))
        """#
}
