/// The pages the loopback redirect server shows in the browser.
public enum LoopbackPages {
    /// The default page after a successful callback.
    public static let success = page(
        title: "Signed in", message: "You are signed in. You can close this window and return to the app.")

    /// The default page after a failed callback.
    public static let failure = page(
        title: "Sign-in failed",
        message: "The sign-in did not complete. You can close this window and return to the app.")

    private static func page(title: String, message: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(title)</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>body{font-family:system-ui,sans-serif;margin:4rem auto;max-width:32rem;padding:0 1rem;color:#222}</style>
        </head><body><h1>\(title)</h1><p>\(message)</p></body></html>
        """
    }
}
