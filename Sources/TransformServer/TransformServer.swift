// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

/// The `TransformServer` executable: dispatches to a command (README.md, "Command line").
@main
enum TransformServer {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--version" || arguments.first == "version" {
            StandardIO.write(Array(CommandHelp.versionLine.utf8))
            exit(0)
        }
        let command =
            arguments.first.map {
                $0.hasPrefix("-") && !["-h", "--help"].contains($0) ? "serve" : arguments.removeFirst()
            } ?? "serve"
        // `--help` anywhere after a command answers that command's help, before its arguments are checked.
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" }), let help = CommandHelp.text(for: command) {
            StandardIO.write(Array(help.utf8))
            exit(0)
        }
        let status: Int32
        switch command {
        case "convert": status = ConvertCommand.run(arguments)
        case "check": status = CheckCommand.run(arguments)
        case "import": status = ImportCommand.run(arguments)
        case "healthcheck": status = HealthcheckCommand.run(arguments)
        case "serve": ServeCommand.run(arguments)
        case "-h", "--help", "help":
            StandardIO.write(Array(usage.utf8))
            status = 0
        default:
            StandardIO.error("TransformServer: unknown command '\(command)'.\n" + usage)
            status = 2
        }
        exit(status)
    }

    static let usage = """
        usage: TransformServer [serve] [--config DIR] [--schemas DIR] [--host H] [--port N]
               TransformServer convert <Model> [--normalize] [--from model] [--strict]
                                       [--array|--dictionary|--ndjson|--merge] [--config DIR] [--schemas DIR]
               TransformServer check [DIR]
               TransformServer import jsonschema FILE [--name M] [--strict]
               TransformServer healthcheck [URL] [--config DIR] [--port N]
               TransformServer --version

        `TransformServer COMMAND --help` describes a command: its options and exit statuses.

        """
}
