// SPDX-License-Identifier: Apache-2.0

/// What `--help` prints for each command, and what `--version` prints (README, Command line). Kept in one place so
/// that every command answers `--help` the same way: synopsis, options, exit statuses.
enum CommandHelp {
    /// The release this binary is (docs/openapi.yaml's `info.version` says the same; a test checks it).
    static let version = "1.0.0"

    /// `--version`: the release and the compiler that built it.
    static var versionLine: String { "TransformServer \(version) (Swift \(swiftVersion))\n" }

    /// The help of `command`, or nil when there is no such command.
    static func text(for command: String) -> String? {
        switch command {
        case "serve": serve
        case "convert": convert
        case "check": check
        case "import": importSchema
        case "healthcheck": healthcheck
        case "help", "-h", "--help": TransformServer.usage
        default: nil
        }
    }

    static let serve = """
        usage: TransformServer [serve] [--config DIR] [--schemas DIR] [--host H] [--port N]

        Serves the HTTP API (docs/api.md) until SIGTERM or SIGINT, which drain and exit 0; SIGHUP reloads the schema
        files. Prints `listening on http://HOST:PORT` once it accepts connections.

        options:
          --config DIR    a folder holding an optional server.json and a schemas/ folder (default ./config, else the
                          copy of config/ compiled into the binary)
          --schemas DIR   the schema folder, instead of <config>/schemas
          --host H        the address to listen on (default 0.0.0.0)
          --port N        the port (default 8080; 0 picks a free one)
          -h, --help      this help
        Every setting also comes from TRANSFORM_* variables and server.json (docs/operations.md).

        exit status: 0 drained after SIGTERM/SIGINT; 1 a broken schema set (every problem listed) or the port
        cannot be bound; 2 a usage error, a bad setting, or a schema folder that is missing or unreadable.

        """

    static let convert = """
        usage: TransformServer convert <Model> [--normalize] [--from model] [--strict]
                                       [--array|--dictionary|--ndjson|--merge] [--config DIR] [--schemas DIR]

        Converts standard input to standard output with the engine and bytes of the HTTP API, followed by a newline.

        options:
          --normalize     write the wire form (mapped keys) instead of the model form
          --from model    read model-form input (property names), with or without --normalize
          --strict        turn every warning into an error
          --array         the input is a JSON array of objects
          --dictionary    the input is a JSON object whose values are objects
          --ndjson        one object per line, converted as it arrives
          --merge         the input is {"target": model form, "patch": wire form}: the patch merged into the
                          target, as POST /merge/{model} (docs/api.md)
          --config DIR    the configuration folder (limits from its server.json; schemas from its schemas/)
          --schemas DIR   the schema folder, instead of <config>/schemas
          -h, --help      this help

        exit status: 0 converted (lax warnings counted on standard error); 1 invalid JSON, an invalid model or an
        NDJSON error line (the report on standard error); 2 a usage error, a bad setting, an unknown model, or a
        schema folder that is missing, unreadable or broken.

        """

    static let check = """
        usage: TransformServer check [DIR]

        Validates the schema files of DIR (default ./config/schemas, else the embedded copy) and prints every
        problem as `file: /json/pointer: message`.

        options:
          -h, --help      this help

        exit status: 0 no problems; 1 problems (listed on standard output); 2 a usage error, or DIR is missing,
        unreadable, or a configuration folder rather than its schemas/.

        """

    static let importSchema = """
        usage: TransformServer import jsonschema FILE [--name M] [--strict]

        Writes the model documents of the JSON Schema document FILE to standard output as one bundle
        {"models": [...]} (docs/lifecycle.md, Import). Our own export (GET /schemas/{Model}/jsonschema) imports
        exactly; keywords without a translation are listed on standard error with their JSON Pointers.

        options:
          --name M        the name of the root model (default its title, else Model)
          --strict        untranslated keywords are errors: nothing is written, exit 1
          -h, --help      this help

        exit status: 0 written (warnings on standard error); 1 FILE unreadable, not a JSON Schema object, or
        (with --strict) a keyword without a translation; 2 a usage error.

        """

    static let healthcheck = """
        usage: TransformServer healthcheck [URL] [--config DIR] [--port N]

        Requests URL and succeeds only on a 200: a container health check that needs no curl. Without a URL it
        requests http://127.0.0.1:8080/health, or the port a setting names, read as serve reads it (--port, then
        TRANSFORM_LISTEN_PORT, then <config>/server.json).

        options:
          --config DIR    the configuration directory whose server.json names the port (default ./config)
          --port N        the port to probe
          -h, --help      this help

        exit status: 0 the server answered 200; 1 any other answer, or no answer; 2 a URL that is not http://, or a
        bad setting.

        """

    /// The compiler that built this binary, as precisely as `#if compiler` can tell.
    static let swiftVersion: String = {
        #if compiler(>=7.0)
            return "7.0 or later"
        #elseif compiler(>=6.5)
            return "6.5"
        #elseif compiler(>=6.4.1)
            return "6.4.1"
        #elseif compiler(>=6.4)
            return "6.4"
        #elseif compiler(>=6.3.3)
            return "6.3.3"
        #elseif compiler(>=6.3.2)
            return "6.3.2"
        #elseif compiler(>=6.3.1)
            return "6.3.1"
        #elseif compiler(>=6.3)
            return "6.3"
        #elseif compiler(>=6.2)
            return "6.2"
        #elseif compiler(>=6.1)
            return "6.1"
        #else
            return "6.0"
        #endif
    }()
}
