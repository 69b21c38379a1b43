import LatchkeyTokens

#if os(Linux)
    import CLatchkeyCurl
    import Foundation

    /// Configures an easy handle for one ``CurlTransfer`` and performs it, on the worker thread that owns the
    /// handle.
    enum CurlRequestRunner {
        /// Performs the transfer and returns its result.
        static func perform(
            _ transfer: CurlTransfer, handle: UnsafeMutableRawPointer?, library: CurlLibrary
        ) -> Result<TransportResponse, AuthError> {
            guard let handle else {
                return .failure(AuthError(.networkError, "\(transfer.label) failed: libcurl could not create a handle"))
            }
            if transfer.isCancelled { return transfer.result(code: CurlCode.abortedByCallback) }
            return withUnsafePointer(to: library.api) { api in
                // Every option back to its default; the connections and TLS sessions the handle holds stay.
                api.pointee.easy_reset(handle)
                var fields: OpaquePointer?
                defer { api.pointee.slist_free_all(fields) }
                for line in headerLines(transfer.request) {
                    guard let appended = api.pointee.slist_append(fields, line) else {
                        return .failure(AuthError(.networkError, "\(transfer.label) failed: out of memory"))
                    }
                    fields = appended
                }
                if let failed = configure(handle, api: api, transfer: transfer, fields: fields) {
                    return .failure(
                        AuthError(.networkError, "\(transfer.label) failed: libcurl refused option \(failed)"))
                }
                return transfer.result(code: api.pointee.easy_perform(handle))
            }
        }

        /// Sets every option; returns the number of the first one libcurl refused, or `nil`.
        private static func configure(
            _ handle: UnsafeMutableRawPointer, api: UnsafePointer<latchkey_curl_api>, transfer: CurlTransfer,
            fields: OpaquePointer?
        ) -> Int32? {
            var failed: Int32?
            func check(_ option: Int32, _ code: Int32) {
                if code != CurlCode.ok, failed == nil { failed = option }
            }
            func set(_ option: Int32, _ value: Int) {
                check(option, latchkey_curl_setopt_long(api, handle, option, value))
            }
            func set(_ option: Int32, _ value: String) {
                check(option, value.withCString { latchkey_curl_setopt_pointer(api, handle, option, $0) })
            }
            let request = transfer.request
            let context = Unmanaged.passUnretained(transfer).toOpaque()
            set(CurlOption.url, request.url.absoluteString)
            // http and https only (CURLOPT_PROTOCOLS_STR needs libcurl 7.85; the bit mask works everywhere).
            if value(CurlOption.protocolsString, "http,https", api: api, handle: handle) == CurlCode.unknownOption {
                set(CurlOption.protocols, CurlProtocol.http | CurlProtocol.https)
            }
            set(CurlOption.noSignal, 1)
            set(CurlOption.followLocation, 0)
            set(CurlOption.sslVerifyPeer, 1)
            set(CurlOption.sslVerifyHost, 2)
            // Never decode a body: it arrives as it is on the wire, so the cap counts what arrives (chunked
            // transfer coding is a framing, still undone).
            set(CurlOption.httpContentDecoding, 0)
            set(CurlOption.httpTransferDecoding, 1)
            let milliseconds = Int((transfer.timeout * 1000).rounded(.up))
            set(CurlOption.timeoutMilliseconds, max(milliseconds, 1))
            set(CurlOption.connectTimeoutMilliseconds, max(milliseconds, 1))
            check(CurlOption.httpHeader, latchkey_curl_setopt_list(api, handle, CurlOption.httpHeader, fields))
            check(
                CurlOption.headerFunction,
                latchkey_curl_setopt_data_callback(api, handle, CurlOption.headerFunction) {
                    bytes, size, count, context in
                    let length = size * count
                    guard let bytes, let context else { return 0 }
                    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                    return transfer.header(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
                })
            check(CurlOption.headerData, latchkey_curl_setopt_pointer(api, handle, CurlOption.headerData, context))
            check(
                CurlOption.writeFunction,
                latchkey_curl_setopt_data_callback(api, handle, CurlOption.writeFunction) {
                    bytes, size, count, context in
                    let length = size * count
                    guard let bytes, let context else { return 0 }
                    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                    return transfer.write(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
                })
            check(CurlOption.writeData, latchkey_curl_setopt_pointer(api, handle, CurlOption.writeData, context))
            // Cancellation: libcurl calls this at least once a second, and after every chunk.
            set(CurlOption.noProgress, 0)
            check(
                CurlOption.xferInfoFunction,
                latchkey_curl_setopt_xferinfo_callback(api, handle, CurlOption.xferInfoFunction) {
                    context, _, _, _, _ in
                    guard let context else { return 1 }
                    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().shouldAbort() ? 1 : 0
                })
            check(CurlOption.xferInfoData, latchkey_curl_setopt_pointer(api, handle, CurlOption.xferInfoData, context))
            setMethodAndBody(request, set: set, check: check, api: api, handle: handle)
            return failed
        }

        /// The method and the body: GET and HEAD as libcurl's own, POST as a POST, any other method named.
        private static func setMethodAndBody(
            _ request: TransportRequest, set: (Int32, Int) -> Void, check: (Int32, Int32) -> Void,
            api: UnsafePointer<latchkey_curl_api>, handle: UnsafeMutableRawPointer
        ) {
            let method = request.method
            let body = request.body
            switch method {
            case "GET" where body == nil:
                set(CurlOption.httpGet, 1)
                return
            case "HEAD" where body == nil:
                set(CurlOption.noBody, 1)
                return
            case "POST":
                set(CurlOption.post, 1)
            default:
                check(CurlOption.customRequest, value(CurlOption.customRequest, method, api: api, handle: handle))
                guard body != nil else { return }
            }
            let bytes = body ?? Data()
            check(
                CurlOption.postFieldSizeLarge,
                latchkey_curl_setopt_offset(api, handle, CurlOption.postFieldSizeLarge, Int64(bytes.count)))
            // Copied by libcurl: the body need not outlive this call.
            let code = bytes.withUnsafeBytes { buffer in
                guard let start = buffer.baseAddress else {
                    return value(CurlOption.copyPostFields, "", api: api, handle: handle)
                }
                return latchkey_curl_setopt_pointer(api, handle, CurlOption.copyPostFields, start)
            }
            check(CurlOption.copyPostFields, code)
        }

        private static func value(
            _ option: Int32, _ text: String, api: UnsafePointer<latchkey_curl_api>, handle: UnsafeMutableRawPointer
        ) -> Int32 {
            text.withCString { latchkey_curl_setopt_pointer(api, handle, option, $0) }
        }

        /// The request's header lines as libcurl takes them: a repeated name joined into its first field (as
        /// URLSession does), `Accept-Encoding: identity` instead of any the request set, no `Expect:
        /// 100-continue` and no `Content-Length` of the caller's (libcurl writes its own).
        static func headerLines(_ request: TransportRequest) -> [String] {
            var names: [String] = []
            var values: [String: String] = [:]
            var spelling: [String: String] = [:]
            for field in request.headerFields {
                let key = field.name.lowercased()
                guard key != "accept-encoding", key != "expect", key != "content-length" else { continue }
                if let existing = values[key] {
                    values[key] = existing + "," + field.value
                } else {
                    names.append(key)
                    spelling[key] = field.name
                    values[key] = field.value
                }
            }
            var lines = names.map { key -> String in
                let name = spelling[key] ?? key
                let value = values[key] ?? ""
                // `Name;` is how libcurl sends a field with an empty value (`Name:` would remove the field).
                return value.isEmpty ? "\(name);" : "\(name): \(value)"
            }
            lines.append("Accept-Encoding: \(ContentCodingRule.acceptEncoding)")
            lines.append("Expect:")
            return lines
        }
    }
#endif
