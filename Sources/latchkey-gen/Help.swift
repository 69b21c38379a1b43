/// The text of `latchkey-gen --help` and of each command's help.
enum Help {
    static let commands = ["generate", "check", "validate", "new", "help"]

    static let overview = """
        OVERVIEW: Generate typed Swift auth clients from Latchkey provider descriptors.

        USAGE: latchkey-gen <command> [options]

        COMMANDS:
          generate [--output DIR] [FILE...]   Write one client per descriptor (default: Descriptors/*.json into Generated/).
          check                               Fail with a unified diff when Generated/ differs from what the descriptors generate.
          validate FILE...                    Report every problem in the descriptors, as FILE:LINE:COL: error: MESSAGE.
          new NAME                            Write Descriptors/NAME.json, a descriptor that validates and builds as it is.
          help [COMMAND]                      Show this help, or a command's.

        Diagnostics go to standard error as FILE:LINE:COL: error: MESSAGE (with the JSON pointer and a fix).
        Exit status: 0 success, 1 invalid input or drift, 2 usage error.
        Run 'latchkey-gen help <command>' for a command's options.
        """

    static func forCommand(_ name: String) -> String? {
        switch name {
        case "generate":
            """
            USAGE: latchkey-gen generate [--output DIR] [--templates DIR] [--descriptors DIR] [--prune] [FILE...]

            Validates the descriptors and writes one Swift client per descriptor into the output directory,
            named after the descriptor file (supabase.json → supabase.swift). A file is rewritten only when its
            bytes change. With no FILE, every *.json in the descriptors directory (not *.schema.json nor latchkey-providers.json) is used.

            OPTIONS:
              --output DIR        Where to write the clients (default: Generated).
              --templates DIR     The templates (default: Templates if it exists, else the built-in copy);
                                  a partial (_Name.swift.template) DIR lacks is the built-in one.
              --descriptors DIR   Where descriptors are when no FILE is given (default: Descriptors).
              --prune             Remove generated files whose descriptor no longer exists.
              --index             Write only the provider index (_index.swift) of the given descriptors.
                                  Without FILE arguments the index is written along with the clients.
              --select FILE       With --catalog DIR: write the clients of the catalog providers FILE selects
                                  (latchkey-providers.json: {"providers": ["supabase"]}) into _selected.swift,
                                  and the index of those and of the FILE... descriptors (whose clients are not
                                  written). An unknown provider or a bad selection fails at its line and column.
              --catalog DIR       The catalog's descriptors (the Latchkey package's Descriptors/).
              --vendor-sdk MODULE Write only MODULE.swift: the vendor-SDK surface of the one FILE whose
                                  "vendorSDK" declares that module (the build plugin of a vendor-SDK target);
                                  when none does, an empty module and a warning.
                                  Without FILE arguments, each declared surface is written to DIR/vendor/.
            """
        case "check":
            """
            USAGE: latchkey-gen check [--descriptors DIR] [--templates DIR] [--generated DIR]

            Regenerates every client (and every vendor-SDK surface, in vendor/) in memory and compares it byte for
            byte with the committed copy.
            On drift it prints a unified diff naming the descriptor, and exits 1. Fix it with
            'swift package --allow-writing-to-package-directory regenerate' and commit the result.
            """
        case "validate":
            """
            USAGE: latchkey-gen validate [--quiet] FILE...

            Parses and checks descriptors without generating anything. Every problem of every file is
            reported on standard error as FILE:LINE:COL: error: MESSAGE (at /json/pointer); fix. Each valid file
            gets one line on standard output saying what was checked:
            FILE: valid (N flows, N actions, N inputs, N error rows); --quiet leaves these lines out (the
            build plugin uses it). Exit 1 when any file has an error.
            """
        case "new":
            """
            USAGE: latchkey-gen new NAME [--oauth2] [--display-name TEXT] [--output DIR]
                                    [--from-discovery FILE] [--force]

            Writes DIR/NAME.json (default DIR: Descriptors), which validates and builds as it is: an OpenID
            Connect descriptor with discovery, browser sign-in with PKCE, refresh and user info, or with
            --oauth2 a plain OAuth 2.0 one (fixed example URLs to replace, no discovery, no ID token). NAME is
            lower-case words joined by hyphens ("acme", "my-idp"); a NAME that differs only in case ("Strava")
            names the file in lower case and is kept as the display name. "$schema" is written only when
            DIR holds descriptor.schema.json (the package's Descriptors folder does).

            OPTIONS:
              --oauth2                Plain OAuth 2.0 instead of OpenID Connect.
              --display-name TEXT     The name shown to people (default: NAME as typed).
              --output DIR            Where to write the descriptor (default: Descriptors).
              --from-discovery FILE   A saved OpenID discovery document: its issuer, standard scopes,
                                      revocation (sign-out), device authorization, end session, ID-token
                                      validation (jwks_uri and a verifiable algorithm) and PKCE support
                                      (code_challenge_methods_supported) shape the descriptor.
              --force                 Overwrite an existing file.
            """
        case "help": "USAGE: latchkey-gen help [COMMAND]"
        default: nil
        }
    }
}
