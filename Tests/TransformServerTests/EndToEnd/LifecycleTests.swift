// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct LifecycleTests {
    @Test func sigtermFinishesTheRequestInFlightThenExitsZero() throws {
        let server = try ServerProcess()
        let client = try server.client()
        let idle = try server.client()
        #expect(try idle.request("GET", "/health").status == 200)
        // A request whose head has arrived but whose body has not: it must still be read and answered.
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n")
        usleep(200_000)
        server.signal(SIGTERM)
        usleep(200_000)
        try client.send(#"{"uid":1}"#)
        let response = try client.read()
        #expect(response.text == #"{"uid":1}"#)
        #expect(response.header("Connection") == "close")
        #expect(idle.isClosedByPeer())
        #expect(server.waitForExit() == 0)
    }

    @Test func readyAnswers503WhileDraining() throws {
        let server = try ServerProcess(settings: ["drainGraceMs": "2000"])
        let client = try server.client()
        #expect(try client.request("GET", "/ready").status == 200)
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n")
        usleep(100_000)
        server.signal(SIGINT)
        let other = try? server.client()
        #expect(other == nil || other!.isClosedByPeer(), "the listener stops accepting")
        try client.send(#"{"uid":1}"#)
        #expect(try client.read().status == 200)
        #expect(server.waitForExit() == 0)
    }

    @Test func drainGraceClosesStragglersAndExitsZero() throws {
        let server = try ServerProcess(settings: ["drainGraceMs": "300", "bodyTimeoutMs": "60000"])
        let client = try server.client()
        try client.send("POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n{")
        usleep(100_000)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        #expect(client.isClosedByPeer())
    }

    @Test func sighupReloadsValidSchemasAndKeepsTheOldOnesOtherwise() throws {
        let server = try ServerProcess(schemas: ["p.json": #"{"name":"P","properties":{"x":"int8"}}"#])
        let client = try server.client()
        #expect(try client.request("POST", "/convert/P", body: #"{"x":"1"}"#).text == #"{"x":1}"#)
        let file = server.directory.appendingPathComponent("schemas/p.json")
        try Data(#"{"name":"P","properties":{"x":"string"}}"#.utf8).write(to: file)
        server.signal(SIGHUP)
        usleep(300_000)
        #expect(try client.request("POST", "/convert/P", body: #"{"x":1}"#).text == #"{"x":"1"}"#)
        try Data(#"{"name":"P","properties":{"x":"int99"}}"#.utf8).write(to: file)
        server.signal(SIGHUP)
        usleep(300_000)
        #expect(try client.request("POST", "/convert/P", body: #"{"x":1}"#).text == #"{"x":"1"}"#, "a broken set changes nothing")
    }

    @Test func healthReportsModelsAndPersistence() throws {
        let server = try ServerProcess()
        let health = try server.client().request("GET", "/health")
        #expect(health.status == 200)
        #expect(health.text.hasPrefix(#"{"status":"ok","models":"#))
        #expect(health.text.hasSuffix(#","schemaPersistence":"disk"}"#))
    }

    @Test func metricsExposeRequestCounters() throws {
        let server = try ServerProcess()
        let client = try server.client()
        _ = try client.request("POST", "/convert/User", body: #"{"uid":"1"}"#)
        _ = try client.request("POST", "/convert/NoSuchModel", body: "{}")
        let metrics = try client.request("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(metrics.text.contains(#"transform_http_requests_total{method="POST",route="/convert/{model}",status="200"} 1"#))
        #expect(metrics.text.contains(#"transform_conversions_total{model="User",outcome="ok"} 1"#))
        #expect(!metrics.text.contains("NoSuchModel"))
        #expect(metrics.text.contains("transform_warnings_total{code=\"coerced\"} 1"))
        #expect(metrics.text.contains("process_resident_memory_bytes"))
    }
}
