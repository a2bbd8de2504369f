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
        /// `PUT /schemas/{M}/config`: nil members stay as they are.
        case configure(name: String, level: CompatibilityLevel?, view: CompatibilityView?)
    }

    /// How a write ended; `SchemasEndpoint` turns each case into its answer.
    enum WriteResult {
        /// Committed (or nothing to commit): each written model as committed (this replica serves it, or a newer
        /// version already), with whether it is new.
        case written([(name: String, entry: ModelEntry, created: Bool)])
        case deleted
        /// The configuration as committed, with the defaults filled in.
        case configured(CompatibilityLevel, CompatibilityView)
        case invalid(SchemaSetError)
        /// Valid, but a change breaks a model's compatibility level against the history in the store.
        case incompatible(CompatibilityReport)
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
            var change = plan.changes
            change.head = head
            let createdAt = HealthEndpoint.timestamp(milliseconds: head.committedAtMs)
            for index in change.models.indices { change.models[index].committedAtMs = head.committedAtMs }
            for index in change.versions.indices { change.versions[index].version.createdAt = createdAt }
            do throws(EtcdError) {
                switch try store.commit(change, expectingHeadRevision: view.headRevision) {
                case .committed(let revision):
                    // On top of what is served now when the watch brought it past `view` meanwhile (a key put around
                    // the service, which does not move the head, would be lost otherwise).
                    adopt { served in
                        var next = served.revision > view.revision ? served : view
                        next.apply(change, at: revision)
                        return next
                    }
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
                        return .unknownOutcome(
                            "The write was sent to etcd but its outcome is unknown (\(error)); "
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
        var changes = StoreDelta()
        var written: [(name: String, entry: ModelEntry, created: Bool)] = []
        var isDelete = false
        var configured: (CompatibilityLevel, CompatibilityView)?

        /// The answer once committed: the versions and ETags of this commit, even when the replica has already
        /// moved on to a newer state written by someone else.
        var result: WriteResult {
            if let (level, view) = configured { return .configured(level, view) }
            return isDelete ? .deleted : .written(written)
        }
    }

    struct Refusal: Error {
        var result: WriteResult
    }

    /// Validates `write` on top of `view` (the schema files plus that store state, histories and configurations
    /// included), judges `If-Match` against it, checks compatibility against the history the store keeps, and lists
    /// what to commit: a document that changed gets the next version of its name and its own history key, the
    /// oldest history keys beyond `maxVersionsPerModel` are deleted; an unchanged one commits nothing.
    private func prepare(_ write: Write, on view: StoreState) -> Result<Plan, Refusal> {
        if case .configure(let name, let level, let compatibilityView) = write {
            return .success(configurePlan(name, level: level, view: compatibilityView, on: view))
        }
        let files = served.withLock { $0.files }
        let keep = registry.limits.maxVersionsPerModel
        let scratch = SchemaRegistry(limits: registry.limits, compatibilityDefaults: registry.compatibilityDefaults)
        let base: RegistrySnapshot
        do throws(SchemaSetError) {
            base = try scratch.load(files, overlay: Self.overlay(view, keep: keep))
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
                after = try scratch.apply(upserts: [file], deletes: [], checkingCompatibility: true)
                targets = [name]
                written = [name]
            case .bundle(let body):
                let (snapshot, names) = try scratch.applyBundle(body, checkingCompatibility: true)
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
            case .configure:
                preconditionFailure("handled above")
            }
        } catch {
            if let report = error.compatibility { return .failure(Refusal(result: .incompatible(report))) }
            return .failure(Refusal(result: .invalid(error)))
        }
        var versions: [String: Int] = [:]
        var seen = Set<String>()
        for name in targets where seen.insert(name).inserted {
            let current = base.entries[name]
            let last = max(view.lastVersion(of: name), current?.version ?? 0)
            if let entry = after.entries[name] {
                if let current, current.document == entry.document, current.source == .registry { continue }
                let version = current?.document == entry.document ? current!.version : last + 1
                if version != current?.version { keepCurrent(name, current, base, view, into: &plan.changes) }
                versions[name] = version
                plan.changes.versions.append(
                    (name, StoredVersion(version: version, createdAt: "", document: entry.document)))
                plan.changes.models.append(StoredModel(name: name, version: version, committedAtMs: 0))
            } else if current != nil {
                keepCurrent(name, current, base, view, into: &plan.changes)
                plan.changes.models.append(StoredModel(name: name, version: last, deleted: true, committedAtMs: 0))
            }
            trim(name, view, keep: keep, into: &plan.changes)
        }
        for name in written {
            guard var entry = after.entries[name] else { continue }
            if let version = versions[name] { entry.version = version }
            plan.written.append((name, entry, !base.contains(name)))
        }
        return .success(plan)
    }

    /// The version a write supersedes stays in the history: a file model's, or one written inline before
    /// histories existed, gets its own history key (the store's versions have one already).
    private func keepCurrent(
        _ name: String, _ current: ModelEntry?, _ base: RegistrySnapshot, _ view: StoreState,
        into change: inout StoreDelta
    ) {
        guard let current, view.versions[name]?[current.version] == nil,
            let kept = base.lifecycles[name]?.version(current.version)
        else { return }
        change.versions.append(
            (name, StoredVersion(version: kept.version, createdAt: kept.createdAt, document: kept.document)))
    }

    /// How many history keys of one name a write deletes at most (etcd's `--max-txn-ops` is 128 by default); after
    /// a large cut of `maxVersionsPerModel` the following writes delete the rest, and every replica lists only the
    /// newest `maxVersionsPerModel` meanwhile.
    static let maxTrimsPerWrite = 64

    /// Deletes the oldest history keys of `name` beyond `keep` (counting the versions this write adds).
    private func trim(_ name: String, _ view: StoreState, keep: Int, into change: inout StoreDelta) {
        var numbers = Set(view.versions[name].map { Array($0.keys) } ?? [])
        for (written, version) in change.versions where written == name { numbers.insert(version.version) }
        guard numbers.count > keep else { return }
        for number in numbers.sorted().prefix(min(numbers.count - keep, Self.maxTrimsPerWrite)) {
            if change.versions.contains(where: { $0.name == name && $0.version.version == number }) {
                change.versions.removeAll { $0.name == name && $0.version.version == number }
            } else {
                change.removedVersions.append((name, number))
            }
        }
    }

    /// `PUT /schemas/{M}/config`: the merged configuration, committed only when it differs from the stored one.
    private func configurePlan(
        _ name: String, level: CompatibilityLevel?, view compatibilityView: CompatibilityView?,
        on view: StoreState
    ) -> Plan {
        let stored = view.configs[name] ?? CompatibilityConfig()
        var config = stored
        if let level { config.level = level }
        if let compatibilityView { config.view = compatibilityView }
        var plan = Plan()
        if config != stored { plan.changes.configs.append((name, config)) }
        let defaults = registry.compatibilityDefaults
        plan.configured = (config.level ?? defaults.level ?? .none, config.view ?? defaults.view ?? .both)
        return plan
    }

    /// RFC 9110 §13.1.1 against the committed state: `*` means "exists".
    private static func check(_ ifMatch: [String]?, name: String, _ snapshot: RegistrySnapshot) -> Refusal? {
        guard let tags = ifMatch else { return nil }
        let matches = snapshot.entries[name].map { tags.contains("*") || tags.contains($0.etag) } ?? false
        return matches
            ? nil : Refusal(result: .preconditionFailed("If-Match does not match the current version of \(name)."))
    }
}
