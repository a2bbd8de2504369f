// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#endif

/// The `TransformServer` executable: dispatches to a command (API.md, Command line).
@main
enum TransformServer {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let command = arguments.isEmpty ? "serve" : arguments.removeFirst()
        let status: Int32
        switch command {
        case "convert": status = ConvertCommand.run(arguments)
        case "check": status = CheckCommand.run(arguments)
        case "serve":
            StandardIO.error("TransformServer: the HTTP server is not built yet; use 'convert' or 'check'.")
            status = 2
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
        usage: TransformServer convert <Model> [--normalize] [--from model] [--strict]
                                       [--array|--dictionary|--ndjson] [--config DIR] [--schemas DIR]
               TransformServer check [DIR]

        """
}
