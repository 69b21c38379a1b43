extension AuthClientOptions {
    /// The transport a client uses unless it is given one: `CurlHTTPTransport` on Linux (libcurl, opened at run
    /// time; ``URLSessionHTTPTransport`` when libcurl cannot be opened), ``URLSessionHTTPTransport`` elsewhere.
    ///
    /// Both send `Accept-Encoding: identity`, refuse a compressed response at its head, never follow redirects and
    /// cap the response body; on Linux only the libcurl transport keeps a hostile response's memory within a few
    /// KiB of the cap (see `CurlHTTPTransport`).
    /// - Parameter maximumResponseBytes: The largest response body accepted (default 1 MiB).
    /// - Returns: A new transport.
    public static func defaultTransport(
        maximumResponseBytes: Int = URLSessionHTTPTransport.defaultMaximumResponseBytes
    ) -> any HTTPTransport {
        #if os(Linux)
            defaultTransport(curlLibrary: CurlLibrary.defaultName, maximumResponseBytes: maximumResponseBytes)
        #else
            URLSessionHTTPTransport(maximumResponseBytes: maximumResponseBytes)
        #endif
    }

    #if os(Linux)
        /// The default transport over the libcurl opened under `curlLibrary` (tests name a missing one).
        static func defaultTransport(curlLibrary: String, maximumResponseBytes: Int) -> any HTTPTransport {
            CurlHTTPTransport(library: curlLibrary, maximumResponseBytes: maximumResponseBytes)
                ?? URLSessionHTTPTransport(maximumResponseBytes: maximumResponseBytes)
        }
    #endif
}
