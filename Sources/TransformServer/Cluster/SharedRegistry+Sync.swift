// SPDX-License-Identifier: Apache-2.0

import Dispatch
import MapperCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The sync loop: read the whole overlay, then watch it from that revision; on any break, reconnect (any endpoint)
/// and resume from the last revision served; when that revision was compacted away, read everything again. The
/// loop never ends and never exits the process: while the store is down the replica serves what it has.
extension SharedRegistry {
    /// Starts the loop on its own thread (it blocks in the watch).
    func startSync() {
        DispatchQueue(label: "registry-sync").async { [self] in syncForever() }
    }

    private func syncForever() {
        var needsFullRead = true
        var backoffMs = 50
        while true {
            if needsFullRead {
                do throws(EtcdError) {
                    adopt(try store.readAll(), fullRead: true)
                    needsFullRead = false
                } catch {
                    Log.event(.registryReadFailed, ["error": error.description])
                    backoffMs = pause(backoffMs)
                    continue
                }
            }
            let from = served.withLock { $0.state.revision }
            do throws(EtcdError) {
                try store.watch(after: from) { [self] batch in
                    switch batch {
                    case .started:
                        served.withLock { $0.downSince = nil }
                        backoffMs = 50
                        return true
                    case .compacted:
                        Log.event(.registryWatchCompacted, ["revision": String(from)])
                        needsFullRead = true
                        return false
                    case .changes(let revision, let delta):
                        // A batch older than what is served is this replica's own commit (it replaced the head),
                        // or a key put around the service (no head) while this replica committed on a view
                        // without it: then read everything again to take that one in (docs/cluster.md, "Layout").
                        var missed = false
                        adopt { served in
                            guard served.revision < revision else {
                                missed = delta.head == nil && !delta.isEmpty
                                return served
                            }
                            var state = served
                            state.apply(delta, at: revision)
                            return state
                        }
                        if missed, let fresh = try? store.readAll() { adopt(fresh, fullRead: true, replacing: true) }
                        return true
                    }
                }
            } catch {
                if error.isCompacted { needsFullRead = true }
                Log.event(.registryWatchFailed, ["error": error.description])
            }
            let now = DispatchTime.now().uptimeNanoseconds
            served.withLock { if $0.downSince == nil { $0.downSince = now } }
            metrics.withLock { $0.watchRestarts += 1 }
            backoffMs = pause(backoffMs)
        }
    }

    /// Sleeps `milliseconds` and returns the next backoff: doubled, capped at 1 s (docs/cluster.md).
    private func pause(_ milliseconds: Int) -> Int {
        usleep(UInt32(milliseconds) * 1000)
        return min(milliseconds * 2, 1000)
    }
}
