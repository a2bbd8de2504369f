// SPDX-License-Identifier: Apache-2.0

import Dispatch
import MapperCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Writes through the shared store (docs/cluster.md, "Writes"): validate against the committed state, commit with a
/// compare-and-swap on the head record, retry on contention, answer after this replica serves the result.
extension SharedRegistry {
    /// A registry write as the API received it.
    enum Write {
        case put(name: String, body: [UInt8], ifMatch: [String]?)
        case bundle(body: [UInt8])
        case delete(name: String, ifMatch: [String]?)
    }

    /// How a write ended; `SchemasEndpoint` turns each case into its answer.
    enum WriteResult {
        /// Committed (or nothing to commit): each written model as committed (this replica serves it, or a newer
        /// version already), with whether it is new.
        case written([(name: String, entry: ModelEntry, created: Bool)])
        case deleted
        case invalid(SchemaSetError)
        /// A delete the rest of the set still needs.
        case stillUsed(name: String, SchemaSetError)
        case preconditionFailed(String)
        case unknownModel(String)
        /// Not synced yet, or the store is unreachable or has no quorum: nothing changed.
        case unavailable(String)
        /// The commit was sent and its answer lost: it may or may not have been applied.
        case unknownOutcome(String)
        /// The store refused the transaction for its size or operation count: nothing changed.
        case tooLarge(String)
    }

    func write(_ write: Write) -> WriteResult {
        writes.withLock { counter in
            counter += 1
            return commitLoop(write, writeID: replicaID + "/" + String(counter))
        }
    }

    private func commitLoop(_ write: Write, writeID: String) -> WriteResult {
        let (everSynced, served) = self.served.withLock { ($0.everSynced, $0.state) }
        guard everSynced else { return .unavailable("the registry has not been read from etcd yet") }
        var view = served
        // Three request time limits: an attempt that hangs while etcd elects a leader, and then the retry.
        let deadline = DispatchTime.now().uptimeNanoseconds + 3 * UInt64(timeoutMs) * 1_000_000
        var backoffMs = 20
        // An attempt was sent and its answer lost: from then on, giving up means "outcome unknown".
        var ambiguous = false
        // Bounded: each conflict means another write committed, and each retry on a leaderless store waits.
        for _ in 0..<10_000 {
            let plan: Plan
            switch prepare(write, on: view) {
            case .success(let prepared): plan = prepared
            case .failure(let answer): return answer.result
            }
            if plan.changes.isEmpty {
                if view.revision > served.revision { adopt(view) }
                return plan.result
            }
            let head = StoreHead(writer: writeID, committedAtMs: Self.wallClockMs())
            var committed = plan.changes
            for index in committed.indices { committed[index].committedAtMs = head.committedAtMs }
            do throws(EtcdError) {
                switch try store.commit(committed, head: head, expectingHeadRevision: view.headRevision) {
                case .committed(let revision):
                    var next = view
                    for model in committed { next.models[model.name] = model }
                    next.head = head
                    next.headRevision = revision
                    next.revision = revision
                    adopt(next)
                    return plan.result
                case .conflict(let fresh):
                    // An earlier attempt whose answer was lost may have committed after all.
                    if fresh.head?.writer == writeID {
                        adopt(fresh)
                        return plan.result
                    }
                    metrics.withLock { $0.writeConflicts += 1 }
                    view = fresh
                }
            } catch {
                if error.isTooLarge { return .tooLarge(error.description) }
                if case .unavailable(let reason) = error, !ambiguous {
                    return .unavailable("etcd is unreachable: \(reason)")
                }
                if case .unknownOutcome = error { ambiguous = true }
                // No leader, a leader change, a timed-out proposal, or an answer lost on the way: retry on a fresh
                // read. Retrying is safe because every attempt compares the same head revision, so at most one of
                // them commits, and a commit of this write is recognised by the head's writer.
                guard DispatchTime.now().uptimeNanoseconds < deadline else {
                    if ambiguous {
                        return .unknownOutcome("The write was sent to etcd but its outcome is unknown (\(error)); "
                            + "read the model and retry with If-Match.")
                    }
                    return .unavailable("etcd did not accept the write in time: \(error.description)")
                }
                usleep(UInt32(backoffMs) * 1000)
                backoffMs = min(backoffMs * 2, 1000)
                if let fresh = try? store.readAll() {
                    if fresh.head?.writer == writeID {
                        adopt(fresh)
                        return plan.result
                    }
                    view = fresh
                }
            }
        }
        return .unavailable("the write met too many concurrent writes")
    }

    /// What a write commits, and how it answers once committed.
    struct Plan {
        var changes: [StoredModel] = []
        var written: [(name: String, entry: ModelEntry, created: Bool)] = []
        var isDelete = false

        /// The answer once committed: the versions and ETags of this commit, even when the replica has already
        /// moved on to a newer state written by someone else.
        var result: WriteResult { isDelete ? .deleted : .written(written) }
    }

    struct Refusal: Error {
        var result: WriteResult
    }

    /// Validates `write` on top of `view` (the schema files plus that store state), judges `If-Match` against it,
    /// and lists the records to commit: a document that changed gets the next version of its name; an unchanged
    /// one commits nothing.
    private func prepare(_ write: Write, on view: StoreState) -> Result<Plan, Refusal> {
        let files = served.withLock { $0.files }
        let scratch = SchemaRegistry(limits: registry.limits)
        let base: RegistrySnapshot
        do throws(SchemaSetError) {
            base = try scratch.load(files, overlay: Self.overlay(view))
        } catch {
            return .failure(Refusal(result: .invalid(error)))
        }
        let after: RegistrySnapshot
        var plan = Plan()
        var targets: [String] = []
        var written: [String] = []
        do throws(SchemaSetError) {
            switch write {
            case .put(let name, let body, let ifMatch):
                if let failure = Self.check(ifMatch, name: name, base) { return .failure(failure) }
                let file = SchemaFile(name: "(request)", bytes: body, source: .registry, impliedName: name)
                after = try scratch.apply(upserts: [file], deletes: [])
                targets = [name]
                written = [name]
            case .bundle(let body):
                let (snapshot, names) = try scratch.applyBundle(body)
                after = snapshot
                targets = names + base.modelNames.filter { !snapshot.contains($0) }
                written = names
            case .delete(let name, let ifMatch):
                guard base.contains(name) else { return .failure(Refusal(result: .unknownModel(name))) }
                if let failure = Self.check(ifMatch, name: name, base) { return .failure(failure) }
                do throws(SchemaSetError) {
                    after = try scratch.apply(upserts: [], deletes: [name])
                } catch {
                    return .failure(Refusal(result: .stillUsed(name: name, error)))
                }
                targets = [name]
                plan.isDelete = true
            }
        } catch {
            return .failure(Refusal(result: .invalid(error)))
        }
        var versions: [String: Int] = [:]
        var seen = Set<String>()
        for name in targets where seen.insert(name).inserted {
            let stored = view.models[name]
            let current = base.entries[name]
            if let entry = after.entries[name] {
                if let current, current.document == entry.document, current.source == .registry { continue }
                let version = current?.document == entry.document ? current!.version
                    : max(stored?.version ?? 0, current?.version ?? 0) + 1
                versions[name] = version
                plan.changes.append(StoredModel(name: name, version: version, document: entry.document, committedAtMs: 0))
            } else if current != nil {
                plan.changes.append(StoredModel(name: name, version: max(stored?.version ?? 0, current?.version ?? 0),
                                                document: nil, committedAtMs: 0))
            }
        }
        for name in written {
            guard var entry = after.entries[name] else { continue }
            if let version = versions[name] { entry.version = version }
            plan.written.append((name, entry, !base.contains(name)))
        }
        return .success(plan)
    }

    /// RFC 9110 §13.1.1 against the committed state: `*` means "exists".
    private static func check(_ ifMatch: [String]?, name: String, _ snapshot: RegistrySnapshot) -> Refusal? {
        guard let tags = ifMatch else { return nil }
        let matches = snapshot.entries[name].map { tags.contains("*") || tags.contains($0.etag) } ?? false
        return matches ? nil : Refusal(result: .preconditionFailed("If-Match does not match the current version of \(name)."))
    }
}
