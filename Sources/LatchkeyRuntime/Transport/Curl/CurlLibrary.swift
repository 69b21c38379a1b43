#if os(Linux)
    import CLatchkeyCurl
    import LatchkeyPlatform

    /// libcurl, opened at run time (`dlopen`), and the option and result numbers ``CurlHTTPTransport`` uses.
    ///
    /// The numbers are libcurl's documented ABI (`curl/curl.h`), stable across its releases: an option's number
    /// is its type's base (long 0, pointer 10000, function 20000, `curl_off_t` 30000) plus its index.
    struct CurlLibrary: @unchecked Sendable {
        // @unchecked: `api` is a C struct of function pointers, written once by `latchkey_curl_load` before the
        // value is shared and only read afterwards; libcurl's easy functions are safe to call from any thread as
        // long as one handle is used by one thread at a time (which `CurlWorker` guarantees).
        let api: latchkey_curl_api

        /// The library FoundationNetworking itself links (its soname).
        static let defaultName = "libcurl.so.4"

        private static let loaded = Locked<[String: CurlLibrary?]>([:])

        /// The library opened under `name`, or `nil` when it cannot be opened or lacks an entry point (each
        /// name is tried once per process).
        static func load(_ name: String = defaultName) -> CurlLibrary? {
            loaded.withLock { cache in
                if let known = cache[name] { return known }
                var api = latchkey_curl_api()
                let library = latchkey_curl_load(name, &api) == 0 ? CurlLibrary(api: api) : nil
                cache[name] = library
                return library
            }
        }
    }

    /// `CURLoption` numbers.
    enum CurlOption {
        static let writeData: Int32 = 10_001
        static let url: Int32 = 10_002
        static let writeFunction: Int32 = 20_011
        static let httpHeader: Int32 = 10_023
        static let headerData: Int32 = 10_029
        static let customRequest: Int32 = 10_036
        static let noProgress: Int32 = 43
        static let noBody: Int32 = 44
        static let post: Int32 = 47
        static let followLocation: Int32 = 52
        static let sslVerifyPeer: Int32 = 64
        static let xferInfoData: Int32 = 10_057
        static let headerFunction: Int32 = 20_079
        static let httpGet: Int32 = 80
        static let sslVerifyHost: Int32 = 81
        static let noSignal: Int32 = 99
        static let connectTimeoutMilliseconds: Int32 = 156
        static let timeoutMilliseconds: Int32 = 155
        static let httpTransferDecoding: Int32 = 157
        static let httpContentDecoding: Int32 = 158
        static let copyPostFields: Int32 = 10_165
        static let postFieldSizeLarge: Int32 = 30_120
        static let protocols: Int32 = 181
        static let xferInfoFunction: Int32 = 20_219
        static let protocolsString: Int32 = 10_318
    }

    /// `CURLPROTO_*` bits, for libcurl releases older than 7.85 (no `CURLOPT_PROTOCOLS_STR`).
    enum CurlProtocol {
        static let http = 1 << 0
        static let https = 1 << 1
    }

    /// `CURLcode` values the transport tells apart.
    enum CurlCode {
        static let ok: Int32 = 0
        static let unsupportedProtocol: Int32 = 1
        static let urlMalformed: Int32 = 3
        static let couldNotResolveProxy: Int32 = 5
        static let couldNotResolveHost: Int32 = 6
        static let couldNotConnect: Int32 = 7
        static let weirdServerReply: Int32 = 8
        static let partialFile: Int32 = 18
        static let writeError: Int32 = 23
        static let operationTimedOut: Int32 = 28
        static let abortedByCallback: Int32 = 42
        static let unknownOption: Int32 = 48
        static let gotNothing: Int32 = 52
        static let sendError: Int32 = 55
        static let receiveError: Int32 = 56
        static let peerFailedVerification: Int32 = 60
        /// TLS failures: SSL connect (35), engine (53, 54), certificate (58), cipher (59), peer verification (60),
        /// CA file (77), shutdown (80), CRL (82), issuer (83), pinned key (90), invalid status (91).
        static let tlsFailures: Set<Int32> = [35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91]
    }
#endif
