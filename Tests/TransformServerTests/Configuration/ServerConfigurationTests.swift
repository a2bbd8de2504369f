// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import TransformServer

@Suite struct ServerConfigurationTests {
    /// The settings table of docs/operations.md: key, environment variable, default (as `server.json` writes it), and a
    /// valid value that differs from the default (as text, the way an environment variable holds it).
    struct Row: CustomTestStringConvertible, Sendable {
        var key: String
        var environment: String
        var defaultValue: String
        var sample: String
        var testDescription: String { key }
    }

    static let table: [Row] = [
        Row(key: "listenHost", environment: "TRANSFORM_LISTEN_HOST", defaultValue: #""0.0.0.0""#, sample: "::1"),
        Row(key: "listenPort", environment: "TRANSFORM_LISTEN_PORT", defaultValue: "8080", sample: "9090"),
        Row(key: "schemaDir", environment: "TRANSFORM_SCHEMA_DIR", defaultValue: "none", sample: "/srv/models"),
        Row(key: "adminToken", environment: "TRANSFORM_ADMIN_TOKEN", defaultValue: "none", sample: "s3cret"),
        Row(
            key: "maxRequestTargetBytes", environment: "TRANSFORM_MAX_REQUEST_TARGET_BYTES", defaultValue: "8192",
            sample: "4096"),
        Row(key: "maxHeaderBytes", environment: "TRANSFORM_MAX_HEADER_BYTES", defaultValue: "16384", sample: "2048"),
        Row(key: "maxHeaderFields", environment: "TRANSFORM_MAX_HEADER_FIELDS", defaultValue: "100", sample: "50"),
        Row(key: "maxBodyBytes", environment: "TRANSFORM_MAX_BODY_BYTES", defaultValue: "8388608", sample: "1234"),
        Row(
            key: "maxNdjsonLineBytes", environment: "TRANSFORM_MAX_NDJSON_LINE_BYTES", defaultValue: "1048576",
            sample: "4096"),
        Row(key: "maxNestingDepth", environment: "TRANSFORM_MAX_NESTING_DEPTH", defaultValue: "512", sample: "1024"),
        Row(key: "headerTimeoutMs", environment: "TRANSFORM_HEADER_TIMEOUT_MS", defaultValue: "10000", sample: "1"),
        Row(key: "bodyTimeoutMs", environment: "TRANSFORM_BODY_TIMEOUT_MS", defaultValue: "10000", sample: "2"),
        Row(
            key: "keepAliveTimeoutMs", environment: "TRANSFORM_KEEP_ALIVE_TIMEOUT_MS", defaultValue: "75000",
            sample: "3"),
        Row(key: "writeTimeoutMs", environment: "TRANSFORM_WRITE_TIMEOUT_MS", defaultValue: "30000", sample: "4"),
        Row(key: "drainGraceMs", environment: "TRANSFORM_DRAIN_GRACE_MS", defaultValue: "20000", sample: "0"),
        Row(key: "maxConnections", environment: "TRANSFORM_MAX_CONNECTIONS", defaultValue: "16384", sample: "10"),
        Row(
            key: "maxRequestsPerConnection", environment: "TRANSFORM_MAX_REQUESTS_PER_CONNECTION",
            defaultValue: "10000", sample: "1"),
        Row(key: "maxReportEntries", environment: "TRANSFORM_MAX_REPORT_ENTRIES", defaultValue: "1000", sample: "5"),
        Row(
            key: "maxSchemaDocumentBytes", environment: "TRANSFORM_MAX_SCHEMA_DOCUMENT_BYTES",
            defaultValue: "1048576", sample: "2147483647"),
        Row(
            key: "maxPropertiesPerModel", environment: "TRANSFORM_MAX_PROPERTIES_PER_MODEL", defaultValue: "1000",
            sample: "7"),
        Row(key: "maxModels", environment: "TRANSFORM_MAX_MODELS", defaultValue: "10000", sample: "8"),
        Row(key: "gzipMinBytes", environment: "TRANSFORM_GZIP_MIN_BYTES", defaultValue: "1024", sample: "0"),
        Row(key: "accessLog", environment: "TRANSFORM_ACCESS_LOG", defaultValue: "true", sample: "false"),
        // Ours, after the settings of docs/operations.md.
        Row(key: "batchWorkers", environment: "TRANSFORM_BATCH_WORKERS", defaultValue: "0", sample: "3"),
        Row(key: "lingeringCloseMs", environment: "TRANSFORM_LINGERING_CLOSE_MS", defaultValue: "2000", sample: "0"),
        Row(
            key: "maxLingeringRefusals", environment: "TRANSFORM_MAX_LINGERING_REFUSALS", defaultValue: "64",
            sample: "0"),
        Row(
            key: "maxInFlightBodyBytes", environment: "TRANSFORM_MAX_IN_FLIGHT_BODY_BYTES", defaultValue: "268435456",
            sample: "1000000"),
        Row(key: "maxRuleSteps", environment: "TRANSFORM_MAX_RULE_STEPS", defaultValue: "10000", sample: "100"),
        // The etcd registry store (docs/cluster.md).
        Row(key: "registryStore", environment: "TRANSFORM_REGISTRY_STORE", defaultValue: #""local""#, sample: "etcd"),
        Row(
            key: "etcdEndpoints", environment: "TRANSFORM_ETCD_ENDPOINTS", defaultValue: "none",
            sample: "http://10.0.0.1:2379,https://etcd-1.example:2379/"),
        Row(
            key: "etcdPrefix", environment: "TRANSFORM_ETCD_PREFIX", defaultValue: #""/transformserver/""#,
            sample: "/staging/"),
        Row(key: "etcdUsername", environment: "TRANSFORM_ETCD_USERNAME", defaultValue: "none", sample: "registry"),
        Row(key: "etcdPassword", environment: "TRANSFORM_ETCD_PASSWORD", defaultValue: "none", sample: "pa55word"),
        Row(key: "etcdCaFile", environment: "TRANSFORM_ETCD_CA_FILE", defaultValue: "none", sample: "/etc/etcd/ca.pem"),
        Row(
            key: "etcdCertFile", environment: "TRANSFORM_ETCD_CERT_FILE", defaultValue: "none",
            sample: "/etc/etcd/client.pem"),
        Row(
            key: "etcdKeyFile", environment: "TRANSFORM_ETCD_KEY_FILE", defaultValue: "none",
            sample: "/etc/etcd/client-key.pem"),
        Row(key: "etcdTimeoutMs", environment: "TRANSFORM_ETCD_TIMEOUT_MS", defaultValue: "5000", sample: "250"),
        Row(
            key: "maxVersionsPerModel", environment: "TRANSFORM_MAX_VERSIONS_PER_MODEL", defaultValue: "100",
            sample: "7"),
        Row(
            key: "defaultCompatibility", environment: "TRANSFORM_DEFAULT_COMPATIBILITY", defaultValue: "\"none\"",
            sample: "full_transitive"),
        Row(
            key: "compatibilityView", environment: "TRANSFORM_COMPATIBILITY_VIEW", defaultValue: "\"both\"",
            sample: "output"),
        Row(
            key: "schemaReloadIntervalMs", environment: "TRANSFORM_SCHEMA_RELOAD_INTERVAL_MS", defaultValue: "2000",
            sample: "0"),
        Row(
            key: "maxConnectionAgeMs", environment: "TRANSFORM_MAX_CONNECTION_AGE_MS", defaultValue: "0",
            sample: "2147483647"),
    ]

    /// The settings whose `server.json` value is a JSON string.
    static let textKeys: Set<String> = [
        "listenHost", "schemaDir", "adminToken", "registryStore", "etcdEndpoints", "etcdPrefix", "etcdUsername",
        "etcdPassword", "etcdCaFile", "etcdCertFile", "etcdKeyFile", "defaultCompatibility", "compatibilityView",
    ]

    /// What `renderedValue` shows after `row.sample` was applied.
    static func rendered(_ row: Row) -> String {
        switch row.key {
        case "adminToken", "etcdPassword": "(redacted)"
        case _ where textKeys.contains(row.key): ConfigurationFile.quoted(row.sample)
        default: row.sample
        }
    }

    static func rendered(_ configuration: ServerConfiguration) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: ServerConfiguration.settings.map { ($0.key, $0.renderedValue(in: configuration)) })
    }

    // MARK: - The table

    @Test func theSettingsTableListsEveryKeyOfAPIMdInOrderThenOurs() {
        #expect(ServerConfiguration.settings.map(\.key) == Self.table.map(\.key))
    }

    @Test(arguments: table) func everySettingHasItsDocumentedDefault(_ row: Row) throws {
        let setting = try #require(ServerConfiguration.setting(forKey: row.key))
        #expect(setting.renderedValue(in: ServerConfiguration()) == row.defaultValue)
    }

    @Test(arguments: table) func everyEnvironmentNameIsTransformPlusUpperSnakeKey(_ row: Row) throws {
        let setting = try #require(ServerConfiguration.setting(forKey: row.key))
        #expect(setting.environmentName == row.environment)
        #expect(ServerConfiguration.setting(forEnvironmentName: row.environment)?.key == row.key)
    }

    @Test(arguments: table) func everyEnvironmentVariableSetsOnlyItsOwnSetting(_ row: Row) throws {
        let (configuration, warnings) = try ServerConfiguration.make(environment: [row.environment: row.sample]).get()
        #expect(warnings.isEmpty)
        var expected = Self.rendered(ServerConfiguration())
        expected[row.key] = Self.rendered(row)
        #expect(Self.rendered(configuration) == expected)
    }

    @Test(arguments: table) func everyFileKeySetsOnlyItsOwnSetting(_ row: Row) throws {
        let isText = Self.textKeys.contains(row.key)
        let json = isText ? ConfigurationFile.quoted(row.sample) : row.sample
        let files = ServerConfiguration.configFolder(serverJSON: "{\"\(row.key)\": \(json)}")
        let (configuration, _) = try ServerConfiguration.make(files: files).get()
        var expected = Self.rendered(ServerConfiguration.defaults(in: "config"))
        expected[row.key] = Self.rendered(row)
        #expect(Self.rendered(configuration) == expected)
    }

    // MARK: - Configuration directory

    @Test func withoutArgumentsOrConfigFolderUsesTheEmbeddedDefaults() throws {
        for arguments in [[], ["serve"]] {
            let (configuration, warnings) = try ServerConfiguration.make(arguments: arguments).get()
            #expect(configuration == ServerConfiguration())
            #expect(configuration.usesEmbeddedConfig)
            #expect(configuration.configDirectory == nil)
            #expect(configuration.schemaSource == .embedded)
            #expect(warnings.isEmpty)
        }
    }

    @Test func aConfigFolderInTheWorkingDirectoryIsTheDefault() throws {
        let (configuration, _) = try ServerConfiguration.make(files: .init(directories: ["config"])).get()
        #expect(configuration == ServerConfiguration.defaults(in: "config"))
        #expect(configuration.schemaSource == .directory("config/schemas"))
    }

    @Test func configFlagReplacesTheWorkingDirectoryFolder() throws {
        var files = ServerConfiguration.configFolder(serverJSON: #"{"listenPort": 1111}"#)
        files.directories.insert("/etc/transform/")
        files.files["/etc/transform/server.json"] = #"{"listenPort": 2222}"#
        let (configuration, _) = try ServerConfiguration.make(
            arguments: ["serve", "--config", "/etc/transform/"],
            files: files
        ).get()
        #expect(configuration.listenPort == 2222)
        #expect(configuration.configDirectory == "/etc/transform/")
        #expect(configuration.schemaDir == "/etc/transform/schemas")
        #expect(!configuration.usesEmbeddedConfig)
    }

    @Test func configFlagNamingNoDirectoryIsAnError() {
        let error = ServerConfiguration.make(arguments: ["serve", "--config", "/nowhere"]).failure
        #expect(error == .unreadableFile(path: "/nowhere", reason: "the configuration directory does not exist"))
    }

    @Test func schemasFlagReplacesTheConfigSchemaFolder() throws {
        let files = ServerConfiguration.configFolder(serverJSON: #"{"schemaDir": "other"}"#)
        let (configuration, _) = try ServerConfiguration.make(
            arguments: ["serve", "--schemas", "/srv/models"],
            files: files
        ).get()
        #expect(configuration.schemaDir == "/srv/models")
        #expect(configuration.configDirectory == "config")
    }

    @Test func schemasFlagWithoutAConfigFolderKeepsTheEmbeddedSettings() throws {
        let (configuration, _) = try ServerConfiguration.make(arguments: ["serve", "--schemas", "models"]).get()
        #expect(configuration.usesEmbeddedConfig)
        #expect(configuration.schemaSource == .directory("models"))
    }

    @Test func aRelativeSchemaDirInTheFileIsRelativeToTheConfigFolder() throws {
        let relative = ServerConfiguration.configFolder(serverJSON: #"{"schemaDir": "models/v2"}"#)
        #expect(try ServerConfiguration.make(files: relative).get().0.schemaDir == "config/models/v2")
        let absolute = ServerConfiguration.configFolder(serverJSON: #"{"schemaDir": "/srv/models"}"#)
        #expect(try ServerConfiguration.make(files: absolute).get().0.schemaDir == "/srv/models")
        let fromEnvironment = ServerConfiguration.make(environment: ["TRANSFORM_SCHEMA_DIR": "models"], files: relative)
        #expect(try fromEnvironment.get().0.schemaDir == "models")
    }

    @Test func theRepositoryServerJSONHoldsExactlyTheDefaults() throws {
        let directory = ChildProcess.packageRoot.appendingPathComponent("config").path
        let result = ServerConfiguration.load(
            arguments: ["serve", "--config", directory], environment: [:],
            fileExists: { FileManager.default.fileExists(atPath: $0) },
            readFile: { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) })
        let (configuration, warnings) = try result.get()
        #expect(configuration == ServerConfiguration.defaults(in: directory))
        #expect(warnings.isEmpty)
        let text = try String(contentsOfFile: directory + "/server.json", encoding: .utf8)
        let keys = try ConfigurationFile(parsing: Array(text.utf8), path: "server.json").entries.map(\.key)
        // Every setting with a default; the ones unset by default (secrets, etcd endpoints and files) are absent.
        let unset: Set<String> = [
            "adminToken", "etcdEndpoints", "etcdUsername", "etcdPassword", "etcdCaFile",
            "etcdCertFile", "etcdKeyFile",
        ]
        #expect(keys == Self.table.map(\.key).filter { !unset.contains($0) })
    }

    // MARK: - Sources and precedence

    @Test func flagsAloneSetHostPortAndSchemas() throws {
        let arguments = ["serve", "--host", "127.0.0.1", "--port=0", "--schemas", "/srv/models"]
        let (configuration, _) = try ServerConfiguration.make(arguments: arguments).get()
        var expected = ServerConfiguration()
        expected.listenHost = "127.0.0.1"
        expected.listenPort = 0
        expected.schemaDir = "/srv/models"
        #expect(configuration == expected)
    }

    @Test func flagsBeatEnvironmentWhichBeatsTheFileWhichBeatsDefaults() throws {
        let files = ServerConfiguration.configFolder(
            serverJSON: #"{"listenPort": 1001, "listenHost": "10.0.0.1", "maxBodyBytes": 1002, "maxModels": 1003}"#)
        let environment = [
            "TRANSFORM_LISTEN_PORT": "2001", "TRANSFORM_LISTEN_HOST": "10.0.0.2",
            "TRANSFORM_MAX_BODY_BYTES": "2002",
        ]
        let (configuration, _) = try ServerConfiguration.make(
            arguments: ["serve", "--port", "3001"],
            environment: environment, files: files
        ).get()
        #expect(configuration.listenPort == 3001)  // flag > environment > file
        #expect(configuration.listenHost == "10.0.0.2")  // environment > file
        #expect(configuration.maxBodyBytes == 2002)  // environment > file
        #expect(configuration.maxModels == 1003)  // file > default
        #expect(configuration.maxHeaderFields == 100)  // default
    }

    @Test func unknownTransformVariablesAreOneWarningEachNotAnError() throws {
        let environment = [
            "TRANSFORM_SERVICE_HOST": "10.0.0.9", "TRANSFORM_SERVICE_PORT": "80",
            "TRANSFORM_listenPort": "1", "transform_listen_port": "1", "PATH": "/bin",
        ]
        let (configuration, warnings) = try ServerConfiguration.make(environment: environment).get()
        #expect(configuration == ServerConfiguration())
        #expect(
            warnings == [
                "warning: ignoring the environment variable TRANSFORM_SERVICE_HOST, which names no setting",
                "warning: ignoring the environment variable TRANSFORM_SERVICE_PORT, which names no setting",
                "warning: ignoring the environment variable TRANSFORM_listenPort, which names no setting",
            ])
    }

    // MARK: - Errors

    @Test func anUnknownFileKeyIsAnError() {
        let files = ServerConfiguration.configFolder(serverJSON: #"{"listenPort": 1, "listenPrt": 2}"#)
        let error = ServerConfiguration.make(files: files).failure
        #expect(error == .unknownKey("listenPrt", file: "config/server.json"))
        #expect(error?.description.contains("\"listenPrt\"") == true)
    }

    /// A bad value from one source; the file holds `json`, the environment and flags hold `text`.
    struct BadValue: CustomTestStringConvertible, Sendable {
        var key: String
        var json: String?
        var text: String?
        var flag: String?
        var testDescription: String { "\(key) \(json ?? text ?? "")" }
    }

    static let badValues: [BadValue] = [
        BadValue(key: "listenPort", json: "70000", text: "70000", flag: "--port"),
        BadValue(key: "listenPort", json: #""abc""#, text: "abc", flag: "--port"),
        BadValue(key: "listenPort", json: "-1", text: "-1", flag: "--port"),
        BadValue(key: "listenPort", json: #""8080""#, text: " 8080", flag: "--port"),
        BadValue(key: "listenPort", json: "80.5", text: "+80", flag: "--port"),
        BadValue(key: "listenPort", json: "8e3", text: "8e3", flag: "--port"),
        BadValue(key: "maxBodyBytes", json: "-5", text: "-5"),
        BadValue(key: "maxBodyBytes", json: "0", text: "0"),
        BadValue(key: "maxBodyBytes", json: "99999999999999999999999", text: "99999999999999999999999"),
        BadValue(key: "maxBodyBytes", json: "2147483648", text: "2147483648"),
        BadValue(key: "maxNestingDepth", json: "2000", text: "2000"),
        BadValue(key: "maxNestingDepth", json: "0", text: "0"),
        BadValue(key: "batchWorkers", json: "-1", text: "-1"),
        BadValue(key: "batchWorkers", json: "257", text: "257"),
        BadValue(key: "lingeringCloseMs", json: "-1", text: "-1"),
        BadValue(key: "lingeringCloseMs", json: "2147483648", text: "2147483648"),
        BadValue(key: "maxLingeringRefusals", json: "-1", text: "-1"),
        BadValue(key: "maxInFlightBodyBytes", json: "0", text: "0"),
        BadValue(key: "maxRuleSteps", json: "99", text: "99"),
        BadValue(key: "maxRuleSteps", json: "10000001", text: "10000001"),
        BadValue(key: "maxVersionsPerModel", json: "0", text: "0"),
        BadValue(key: "maxVersionsPerModel", json: "10001", text: "10001"),
        BadValue(key: "defaultCompatibility", json: "\"sideways\"", text: "sideways"),
        BadValue(key: "compatibilityView", json: "\"all\"", text: "all"),
        BadValue(key: "schemaReloadIntervalMs", json: "99", text: "1"),
        BadValue(key: "schemaReloadIntervalMs", json: "-1", text: "2147483648"),
        BadValue(key: "maxConnectionAgeMs", json: "-1", text: "2147483648"),
        BadValue(key: "accessLog", json: #""yes""#, text: "yes"),
        BadValue(key: "accessLog", json: "1", text: "TRUE"),
        BadValue(key: "accessLog", json: "null", text: ""),
        BadValue(key: "listenHost", json: #""""#, text: "", flag: nil),
        BadValue(key: "listenHost", json: #""a b""#, text: "a b", flag: "--host"),
        BadValue(key: "listenHost", json: "[]", text: "host\n"),
        BadValue(key: "schemaDir", json: "{}", text: ""),
        BadValue(key: "adminToken", json: "null", text: "s3cret\n"),
        BadValue(key: "adminToken", json: "42", text: ""),
        BadValue(key: "registryStore", json: #""Etcd""#, text: "consul"),
        BadValue(key: "registryStore", json: "true", text: ""),
        BadValue(key: "etcdEndpoints", json: #""127.0.0.1:2379""#, text: "etcd:2379"),
        BadValue(key: "etcdEndpoints", json: #""http://a:2379,""#, text: "http://a:2379, http://b:2379"),
        BadValue(key: "etcdEndpoints", json: #""http://a:99999""#, text: "ftp://a:2379"),
        BadValue(key: "etcdEndpoints", json: #""https://:2379""#, text: "http://a"),
        BadValue(key: "etcdPrefix", json: #""""#, text: "a b"),
        BadValue(key: "etcdUsername", json: "1", text: "me\t"),
        BadValue(key: "etcdPassword", json: "null", text: "pass word"),
        BadValue(key: "etcdCaFile", json: "[]", text: ""),
        BadValue(key: "etcdTimeoutMs", json: "0", text: "-1"),
    ]

    @Test(arguments: badValues) func aBadValueInTheFileIsAnErrorNamingTheKey(_ bad: BadValue) throws {
        let json = try #require(bad.json)
        let files = ServerConfiguration.configFolder(serverJSON: "{\"\(bad.key)\": \(json)}")
        let error = try #require(ServerConfiguration.make(files: files).failure)
        guard case .badValue(let key, _, _, let origin) = error else {
            Issue.record("expected badValue, got \(error)")
            return
        }
        #expect(key == bad.key)
        #expect(origin == .file("config/server.json"))
        #expect(error.description.contains("The setting \(bad.key) "))
    }

    @Test(arguments: badValues) func aBadValueInTheEnvironmentIsAnErrorNamingTheKey(_ bad: BadValue) throws {
        let text = try #require(bad.text)
        let name = try #require(ServerConfiguration.setting(forKey: bad.key)).environmentName
        let error = try #require(ServerConfiguration.make(environment: [name: text]).failure)
        guard case .badValue(let key, _, _, let origin) = error else {
            Issue.record("expected badValue, got \(error)")
            return
        }
        #expect(key == bad.key)
        #expect(origin == .environment(name))
        #expect(error.description.contains(name))
    }

    @Test(arguments: badValues.filter { $0.flag != nil }) func aBadValueInAFlagIsAnErrorNamingTheKey(_ bad: BadValue)
        throws
    {
        let flag = try #require(bad.flag)
        let text = try #require(bad.text)
        let error = try #require(ServerConfiguration.make(arguments: ["serve", flag, text]).failure)
        #expect(
            error
                == .badValue(
                    key: bad.key, value: ConfigurationFile.quoted(text),
                    reason: try #require(ServerConfiguration.setting(forKey: bad.key)).expectation,
                    origin: .flag(flag)))
    }

    @Test func aWrongJSONTypeSaysWhichTypeWasFound() {
        let files = ServerConfiguration.configFolder(serverJSON: #"{"listenPort": "8080"}"#)
        #expect(
            ServerConfiguration.make(files: files).failure
                == .badValue(
                    key: "listenPort", value: #""8080""#,
                    reason: "must be a whole number from 0 to 65535, not a string",
                    origin: .file("config/server.json")))
    }

    @Test func aBadValueMessageIsOneSentenceWithValueSourceAndRule() {
        let error = ServerConfiguration.make(environment: ["TRANSFORM_LISTEN_PORT": "70000"]).failure
        #expect(
            error?.description == """
                The setting listenPort got "70000" from the environment variable TRANSFORM_LISTEN_PORT, \
                but it must be a whole number from 0 to 65535.
                """)
    }

    @Test func theAdminTokenNeverAppearsInMessagesOrTheDescription() throws {
        let bad = ServerConfiguration.make(environment: ["TRANSFORM_ADMIN_TOKEN": "s3cret token"]).failure
        #expect(bad?.description.contains("s3cret") == false)
        let (configuration, _) = try ServerConfiguration.make(environment: ["TRANSFORM_ADMIN_TOKEN": "s3cret"]).get()
        #expect(configuration.adminToken == "s3cret")
        #expect(!configuration.description.contains("s3cret"))
        #expect(configuration.description.contains("adminToken=(redacted)"))
    }

    @Test func theEtcdPasswordNeverAppearsInMessagesOrTheDescription() throws {
        let bad = ServerConfiguration.make(environment: ["TRANSFORM_ETCD_PASSWORD": "hunter2 x"]).failure
        #expect(bad?.description.contains("hunter2") == false)
        let (configuration, _) = try ServerConfiguration.make(environment: ["TRANSFORM_ETCD_PASSWORD": "hunter2"]).get()
        #expect(configuration.etcdPassword == "hunter2")
        #expect(!configuration.description.contains("hunter2"))
        #expect(configuration.description.contains("etcdPassword=(redacted)"))
    }

    @Test func etcdSettingsThatNeedEachOtherAreCheckedTogether() throws {
        func problem(_ environment: [String: String]) throws -> ConfigurationError? {
            let (configuration, _) = try ServerConfiguration.make(environment: environment).get()
            do throws(ConfigurationError) {
                try configuration.checkCombinations()
                return nil
            } catch {
                return error
            }
        }
        #expect(
            try problem(["TRANSFORM_REGISTRY_STORE": "etcd"])
                == .missingSetting(key: "etcdEndpoints", reason: "when registryStore is \"etcd\""))
        #expect(try problem(["TRANSFORM_REGISTRY_STORE": "etcd", "TRANSFORM_ETCD_ENDPOINTS": "http://a:2379"]) == nil)
        #expect(
            try problem(["TRANSFORM_ETCD_USERNAME": "me"])?.description
                == "The setting etcdPassword is required when etcdUsername is set.")
        #expect(
            try problem(["TRANSFORM_ETCD_PASSWORD": "pw"])
                == .missingSetting(
                    key: "etcdUsername",
                    reason: "when etcdPassword is set"))
        #expect(
            try problem(["TRANSFORM_ETCD_CERT_FILE": "/c.pem"])
                == .missingSetting(
                    key: "etcdKeyFile",
                    reason: "when etcdCertFile is set"))
        #expect(
            try problem(["TRANSFORM_ETCD_KEY_FILE": "/k.pem"])
                == .missingSetting(
                    key: "etcdCertFile",
                    reason: "when etcdKeyFile is set"))
        #expect(try problem([:]) == nil)
    }

    @Test func serveExitsWithStatusTwoWhenEtcdHasNoEndpoints() throws {
        let output = try ChildProcess.run(["serve", "--port", "0"], environment: ["TRANSFORM_REGISTRY_STORE": "etcd"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("The setting etcdEndpoints is required when registryStore is \"etcd\"."))
    }

    @Test func anUnreadableServerJSONIsAnError() {
        var files = FakeFileSystem(directories: ["config"])
        files.unreadable.insert("config/server.json")
        #expect(
            ServerConfiguration.make(files: files).failure
                == .unreadableFile(path: "config/server.json", reason: "permission denied"))
    }

    @Test func aMalformedServerJSONIsAnErrorWithItsPosition() {
        let files = ServerConfiguration.configFolder(serverJSON: "{\n  \"listenPort\": 8080,\n}")
        #expect(
            ServerConfiguration.make(files: files).failure
                == .malformedFile(
                    path: "config/server.json", line: 3, column: 1, reason: "expected a key in double quotes"))
    }

    // MARK: - Command line

    struct BadArguments: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var error: ConfigurationError
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badArguments: [BadArguments] = [
        BadArguments(arguments: ["serve", "--verbose"], error: .unknownFlag("--verbose")),
        BadArguments(arguments: ["serve", "--verbose=1"], error: .unknownFlag("--verbose")),
        BadArguments(arguments: ["serve", "-p", "80"], error: .unexpectedArgument("-p")),
        BadArguments(arguments: ["serve", "--port"], error: .missingValue(flag: "--port")),
        BadArguments(arguments: ["serve", "--port", "--host", "x"], error: .missingValue(flag: "--port")),
        BadArguments(arguments: ["serve", "--host="], error: .missingValue(flag: "--host")),
        BadArguments(arguments: ["serve", "--config", ""], error: .missingValue(flag: "--config")),
        BadArguments(arguments: ["serve", "--port", "1", "--port=2"], error: .repeatedFlag("--port")),
        BadArguments(arguments: ["serve", "extra"], error: .unexpectedArgument("extra")),
        BadArguments(arguments: ["--port", "1", "serve"], error: .unexpectedArgument("serve")),
        BadArguments(arguments: ["convert"], error: .unexpectedArgument("convert")),
    ]

    @Test(arguments: badArguments) func aBadCommandLineIsAnError(_ bad: BadArguments) {
        #expect(ServerConfiguration.make(arguments: bad.arguments).failure == bad.error)
    }

    @Test func flagsWorkWithoutTheServeWord() throws {
        let (configuration, _) = try ServerConfiguration.make(arguments: ["--port", "81"]).get()
        #expect(configuration.listenPort == 81)
    }

    @Test func everyConfigurationErrorExitsWithStatusTwo() {
        for bad in Self.badArguments { #expect(bad.error.exitStatus == 2) }
    }
}
