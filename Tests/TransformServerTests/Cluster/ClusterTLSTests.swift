// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// etcd over TLS with client certificates (`--client-cert-auth`): the replica trusts `etcdCaFile` and presents
/// `etcdCertFile`/`etcdKeyFile`. Certificates are made for the test with openssl.
@Suite(.serialized, .enabled(if: EtcdCluster.shouldRun && EtcdCluster.hasOpenSSL, "etcd-server or openssl is missing"))
struct ClusterTLSTests {
    typealias F = ClusterFixture

    /// A CA, a server certificate for 127.0.0.1 and a client certificate, as PEM files in `directory`.
    static func makeCertificates(in directory: URL) throws {
        let steps = [
            "req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=test-ca -keyout ca-key.pem -out ca.pem",
            "req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout server-key.pem -out server.csr",
            "x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 1 -extfile server.ext -out server.pem",
            "req -newkey rsa:2048 -nodes -subj /CN=transformserver -keyout client-key.pem -out client.csr",
            "x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 1 -extfile client.ext -out client.pem",
        ]
        try Data("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n".utf8)
            .write(to: directory.appendingPathComponent("server.ext"))
        try Data("extendedKeyUsage=clientAuth\n".utf8).write(to: directory.appendingPathComponent("client.ext"))
        for step in steps {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = step.split(separator: " ").map(String.init)
            process.currentDirectoryURL = directory
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw EtcdCluster.StartError(description: "openssl \(step) failed")
            }
        }
    }

    @Test func aReplicaWithTheClientCertificateServesAndOneWithoutNeverSyncs() throws {
        let certificates = try ChildProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: certificates) }
        try Self.makeCertificates(in: certificates)
        let path = { (name: String) in certificates.appendingPathComponent(name).path }
        let etcd = try EtcdCluster(
            size: 1,
            extraArguments: [
                "--cert-file", path("server.pem"), "--key-file", path("server-key.pem"),
                "--client-cert-auth", "--trusted-ca-file", path("ca.pem"),
            ], tls: true)
        let cluster = try ClusterFixture(replicas: 0, etcd: etcd)
        let trusted = try cluster.addReplica(settings: [
            "etcdCaFile": "\"\(path("ca.pem"))\"", "etcdCertFile": "\"\(path("client.pem"))\"",
            "etcdKeyFile": "\"\(path("client-key.pem"))\"",
        ])
        let anonymous = try cluster.addReplica(settings: ["etcdCaFile": "\"\(path("ca.pem"))\""])
        try F.waitUntilReady(trusted)
        #expect(try F.put(trusted, "OverTLS", F.document("tls")).status == 201)
        try F.eventually(20, "the watch over TLS runs") {
            try trusted.client().request("GET", "/health").text.contains(#""synced":true"#)
        }
        #expect(try anonymous.client().request("GET", "/ready").status == 503)
        #expect(try F.put(anonymous, "OverTLS", F.document("no")).status == 503)
    }
}
