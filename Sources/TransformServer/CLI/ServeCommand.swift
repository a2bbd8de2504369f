// SPDX-License-Identifier: Apache-2.0

import Dispatch
import MapperCore

#if canImport(Glibc)
    import Glibc
#endif

/// `TransformServer [serve …]`: runs the service until SIGTERM/SIGINT (drain, exit 0); SIGHUP reloads schemas.
enum ServeCommand {
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []
    /// Polls the schema directory for changes (`schemaReloadIntervalMs`); nil when polling is off.
    nonisolated(unsafe) private static var reloadTimer: (any DispatchSourceTimer)?

    static func run(_ arguments: [String]) -> Never {
        let loaded = ServerConfiguration.load(arguments: arguments)
        let configuration: ServerConfiguration
        switch loaded {
        case .failure(let error):
            failStartup(error.description, status: 2)
        case .success(let (value, warnings)):
            // docs/operations.md, "Logs": every line is a JSON object, this warning too.
            for warning in warnings { Log.event(.configurationWarning, [("message", warning)]) }
            configuration = value
        }
        do throws(ConfigurationError) {
            try configuration.checkCombinations()
        } catch {
            StandardIO.error("TransformServer: \(error.description)")
            exit(2)
        }
        raiseOpenFilesLimit()
        let openFiles = ProcessMetrics.softOpenFilesLimit()
        guard openFiles >= minimumOpenFiles else {
            // Below this, start-up itself runs out (the loops' epoll sets, libdispatch's descriptors) and would trap.
            failStartup(
                "the open-files limit is \(openFiles); serving needs at least \(minimumOpenFiles) (ulimit -n)",
                status: 1)
        }
        signal(SIGPIPE, SIG_IGN)
        // The signal sources below read SIGTERM, SIGINT and SIGHUP from a signalfd (libdispatch on Linux), which
        // takes a signal only while no thread could take it: a thread with it unblocked receives it instead and,
        // its disposition being SIG_IGN, drops it — a lost SIGTERM. So block them here, before any thread exists:
        // every thread inherits the mask, whatever mask the parent handed down.
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&handled, number) }
        pthread_sigmask(SIG_BLOCK, &handled, nil)
        makeMainQueueHandleNow()  // after the mask: waking a queue may start libdispatch's threads
        let server: Server
        do throws(ServerBuilder.BuildError) {
            server = try ServerBuilder.build(configuration)
        } catch {
            failStartup(error.description, status: error.exitStatus)
        }
        let port: Int
        do throws(SocketError) {
            port = try server.start()
        } catch {
            failStartup(error.description, status: 1)
        }
        // The sources run on their own queue and the listening line waits until all three are registered:
        // libdispatch registers a source later, on its manager thread, and `dispatchMain()` leaves the main thread
        // waiting with every signal unblocked — a SIGTERM sent in between found SIG_IGN and was lost (a loaded
        // machine: the server never drained). Once registered, libdispatch's own handler forwards it to the source.
        let signalQueue = DispatchQueue(label: "transform.signals")
        let registered = DispatchGroup()
        for number in [SIGTERM, SIGINT, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.setEventHandler {
                if number == SIGHUP {
                    ServerBuilder.reload(server)
                    return
                }
                let grace = DispatchTimeInterval.milliseconds(configuration.drainGraceMs)
                server.drain(grace: grace) { forced in
                    Log.event(.stopped, ["forcedClosed": String(forced)])
                    exit(0)
                }
            }
            source.resume()
            signalSources.append(source)
        }
        if registered.wait(timeout: .now() + .seconds(30)) == .timedOut {
            Log.event(.signalsNotRegistered, ["waitedMs": "30000"])  // still served; a signal may then be lost
        }
        reloadTimer = SchemaReloader.startPolling(server.context)
        // Printed once the signals are handled: a supervisor (or test) that reads this line and sends SIGTERM at
        // once gets a drain, not the default action that killed the process.
        let host = configuration.listenHost.contains(":") ? "[\(configuration.listenHost)]" : configuration.listenHost
        StandardIO.write(Array("listening on http://\(host):\(port)\n".utf8))
        dispatchMain()
    }

    /// Logs why the server cannot start — one `startup_failed` event per line of `reason` (a broken schema set lists
    /// every problem) — and exits with `status`. docs/operations.md, "Logs": every line is a JSON object.
    private static func failStartup(_ reason: String, status: Int32) -> Never {
        for line in reason.split(separator: "\n") { Log.event(.startupFailed, [("reason", String(line))]) }
        exit(status)
    }

    /// Descriptors the server needs before its first connection, with room for a few connections.
    static let minimumOpenFiles = 16

    /// libdispatch on Linux gives the main queue an eventfd the first time the queue is woken while the main thread
    /// owns it, or else in `dispatchMain()` as the main thread leaves — and traps (SIGILL, no message) when that
    /// `eventfd` fails. Left to `dispatchMain()`, it came after the listener had started: on a loaded machine the
    /// main thread could wait long enough for clients to take every descriptor (`ulimit -n 64`, 90 clients), and
    /// the process died. An empty block queued now wakes the queue and makes the eventfd while descriptors are free.
    static func makeMainQueueHandleNow() {
        DispatchQueue.main.async {}
    }

    /// docs/operations.md, "Limits": the soft open-files limit is raised to the hard one at start-up.
    static func raiseOpenFilesLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
