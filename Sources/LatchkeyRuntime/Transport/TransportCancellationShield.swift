/// Marks work whose requests the calling task's cancellation must not end.
///
/// A refresh is shared: every caller that asks while it is in flight waits for it, and a rotating provider
/// has already replaced the refresh token once the request reached it. When the refresh runs in its first
/// caller's task (see ``AuthClient``'s refresh flight), that caller's cancellation must reach none of its
/// requests. A transport that honours the shield says so with ``CancellationShieldHonouringTransport``
/// (``URLSessionHTTPTransport`` does); with any other, the refresh runs in a task of its own instead.
@_spi(Generated) public enum TransportCancellationShield {
    /// Whether the current task's requests ignore its cancellation (their deadlines still apply).
    @TaskLocal public static var isActive = false
}

/// A transport whose requests the calling task's cancellation does not end while
/// ``TransportCancellationShield/isActive`` is set (or ever, for a transport that never looks at it).
@_spi(Generated) public protocol CancellationShieldHonouringTransport: HTTPTransport {}
