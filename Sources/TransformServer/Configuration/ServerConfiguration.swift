// SPDX-License-Identifier: Apache-2.0

import MapperCore

/// Every setting of the server (docs/operations.md, "Settings"), holding its documented default until a source
/// overrides it.
///
/// Sources, highest first: flags (`--host`, `--port`, `--schemas`) > environment (`TRANSFORM_` + the key in
/// UPPER_SNAKE) > `<config>/server.json` > these defaults. `load(arguments:environment:fileExists:readFile:)`
/// resolves them; `ServerConfiguration.settings` is the one table of keys, kinds and bounds.
/// Durations are whole milliseconds; every bounded count is at most `Int32.max`, so deadline arithmetic in
/// nanoseconds cannot overflow.
struct ServerConfiguration: Sendable, Equatable {
    /// The address to bind; `0.0.0.0` is every IPv4 interface, `::` every IPv6 one.
    var listenHost = "0.0.0.0"
    /// The TCP port to bind, 0…65535; 0 asks the kernel for a free port.
    var listenPort = 8080
    /// The schema directory; nil means the example schemas compiled into the binary.
    var schemaDir: String?
    /// The bearer token that registry writes must present; nil means writes are refused with 403.
    var adminToken: String?
    /// Longest request target in bytes (414 beyond).
    var maxRequestTargetBytes = 8_192
    /// Largest header section in bytes, request line included (431 beyond).
    var maxHeaderBytes = 16_384
    /// Most header fields in one request (431 beyond).
    var maxHeaderFields = 100
    /// Largest request body in bytes, also after inflating gzip (413 beyond; NDJSON bodies excepted).
    var maxBodyBytes = 8_388_608
    /// Longest NDJSON line in bytes (a `line_too_long` record beyond).
    var maxNdjsonLineBytes = 1_048_576
    /// Deepest JSON nesting accepted, 1…1024 (the top-level container is depth 1; `nesting_too_deep` beyond).
    var maxNestingDepth = 512
    /// Time from a request's first byte until its header section is complete (408 beyond).
    var headerTimeoutMs = 10_000
    /// Longest wait for the next body bytes once the body has started (408 beyond).
    var bodyTimeoutMs = 10_000
    /// How long an idle keep-alive connection stays open between requests.
    var keepAliveTimeoutMs = 75_000
    /// Longest wait for the client to accept more response bytes before the connection is closed.
    var writeTimeoutMs = 30_000
    /// How long a drain waits for running requests before it closes the remaining connections; 0 closes at once.
    var drainGraceMs = 20_000
    /// Most open client connections (503 beyond).
    var maxConnections = 16_384
    /// Most requests served on one connection; the last response carries `Connection: close`.
    var maxRequestsPerConnection = 10_000
    /// Most entries listed in a validation report (the counts still include all).
    var maxReportEntries = 1_000
    /// Largest schema document of one model in bytes.
    var maxSchemaDocumentBytes = 1_048_576
    /// Most properties in one model.
    var maxPropertiesPerModel = 1_000
    /// Most models in the registry.
    var maxModels = 10_000
    /// Most versions kept per model (docs/lifecycle.md).
    var maxVersionsPerModel = 100
    /// The compatibility level of models without their own (docs/lifecycle.md).
    var defaultCompatibility = "none"
    /// The side a compatibility check reads, for models without their own: `input`, `output` or `both`.
    var compatibilityView = "both"
    /// Smallest response body in bytes that is gzip-compressed when the client accepts gzip; 0 compresses all.
    var gzipMinBytes = 1_024
    /// Whether one access-log line is written per request.
    var accessLog = true
    /// Most threads one array or dictionary batch is converted on at once (`ConversionOptions.batchWorkers`); 0
    /// means as many as the cores the server may use (`CoreCount`), 1 converts every batch on one thread.
    var batchWorkers = 0
    /// How long a connection that closes after its last response keeps reading and discarding input (its sending
    /// side already shut), so that input it never read cannot make the kernel reset the connection and destroy the
    /// response; 0 closes at once.
    var lingeringCloseMs = 2_000
    /// Most connections beyond `maxConnections` closing lingering at once after their 503; past it one is closed
    /// right after its 503 (0: always).
    var maxLingeringRefusals = 64
    /// Most bytes of announced request bodies (over 64 KiB each) held at once across all connections, from their
    /// head until their answer; a body that does not fit is refused with 503 at once.
    var maxInFlightBodyBytes = 268_435_456
    /// The step budget of the rule expressions evaluated for one object (docs/rules.md, "Cost model").
    var maxRuleSteps = 10_000
    /// How often the schema directory is checked for changes, which reload it as SIGHUP does; 0 turns polling off.
    var schemaReloadIntervalMs = 2_000
    /// After this age a connection's next response carries `Connection: close` (clients reconnect and spread over
    /// replicas); 0 never closes a connection for its age.
    var maxConnectionAgeMs = 0
    /// `batchWorkers` with 0 resolved to the usable cores (which reads the CPU quota file: call it once).
    var resolvedBatchWorkers: Int { batchWorkers == 0 ? CoreCount.usable() : batchWorkers }
    /// Where registry writes are kept: `local` (the `.registry.json` overlay) or `etcd` (docs/cluster.md).
    var registryStore = "local"
    /// The etcd gateway URLs (`http://host:port`, `https://host:port`); required with `etcd`.
    var etcdEndpoints: [String] = []
    /// Every etcd key this service writes starts with it.
    var etcdPrefix = "/transformserver/"
    /// etcd authentication; the password is never logged.
    var etcdUsername: String?
    var etcdPassword: String?
    /// TLS trust and client certificate for `https` endpoints.
    var etcdCaFile: String?
    var etcdCertFile: String?
    var etcdKeyFile: String?
    /// Time limit of each request to etcd.
    var etcdTimeoutMs = 5_000
    /// The configuration directory in use (holding `server.json` and `schemas/`); nil when embedded.
    var configDirectory: String?
    /// True when neither `--config` nor `./config` exists, so the compiled-in example configuration is used.
    var usesEmbeddedConfig = true

    /// The documented defaults, with no configuration directory (the embedded configuration).
    init() {}
}

extension ServerConfiguration {
    /// Where the schemas come from.
    var schemaSource: SchemaSource {
        schemaDir.map(SchemaSource.directory) ?? .embedded
    }

    /// The registry's limits.
    var schemaLimits: SchemaLimits {
        var limits = SchemaLimits()
        limits.maxDocumentBytes = maxSchemaDocumentBytes
        limits.maxPropertiesPerModel = maxPropertiesPerModel
        limits.maxModels = maxModels
        limits.maxVersionsPerModel = maxVersionsPerModel
        return limits
    }

    /// The compatibility defaults of the registry (values checked when the settings are read).
    var compatibilityDefaults: CompatibilityConfig {
        CompatibilityConfig(
            level: CompatibilityLevel(rawValue: defaultCompatibility),
            view: CompatibilityView(rawValue: compatibilityView))
    }
}

extension ServerConfiguration: CustomStringConvertible {
    /// One `key=value` pair per setting in table order, the admin token redacted (docs/operations.md, "Settings": never
    /// logged).
    var description: String {
        ServerConfiguration.settings.map { "\($0.key)=\($0.renderedValue(in: self))" }.joined(separator: " ")
    }
}

extension ServerConfiguration {
    /// Settings that only make sense together (docs/cluster.md): `etcd` needs endpoints, a user name needs its
    /// password and the reverse, a client certificate needs its key and the reverse.
    func checkCombinations() throws(ConfigurationError) {
        if registryStore == "etcd", etcdEndpoints.isEmpty {
            throw .missingSetting(key: "etcdEndpoints", reason: "when registryStore is \"etcd\"")
        }
        if etcdUsername != nil, etcdPassword == nil {
            throw .missingSetting(key: "etcdPassword", reason: "when etcdUsername is set")
        }
        if etcdPassword != nil, etcdUsername == nil {
            throw .missingSetting(key: "etcdUsername", reason: "when etcdPassword is set")
        }
        if etcdCertFile != nil, etcdKeyFile == nil {
            throw .missingSetting(key: "etcdKeyFile", reason: "when etcdCertFile is set")
        }
        if etcdKeyFile != nil, etcdCertFile == nil {
            throw .missingSetting(key: "etcdCertFile", reason: "when etcdKeyFile is set")
        }
    }
}
