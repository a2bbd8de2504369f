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
                    case .changes(let revision, let models, let removed, let head):
                        apply(revision: revision, models: models, removed: removed, head: head)
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

    /// One watched revision on top of the served state.
    private func apply(revision: Int, models: [StoredModel], removed: [String], head: StoreHead?) {
        adopt { served in
            var state = served
            for model in models { state.models[model.name] = model }
            for name in removed { state.models[name] = nil }
            if let head {
                state.head = head
                state.headRevision = revision
            }
            state.revision = max(revision, served.revision)
            return state
        }
    }
}
