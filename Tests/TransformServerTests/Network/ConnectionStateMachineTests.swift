// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import TransformServer

/// The connection logic driven without sockets: bytes and a manual clock in, actions out.
@Suite struct ConnectionStateMachineTests {
    static let second: UInt64 = 1_000_000_000

    static func make(now: UInt64 = 0, _ configure: (inout ConnectionStateMachine.Limits) -> Void = { _ in })
        -> ConnectionStateMachine
    {
        var limits = ConnectionStateMachine.Limits()
        configure(&limits)
        return ConnectionStateMachine(limits: limits, now: now)
    }

    func feed(_ machine: inout ConnectionStateMachine, _ text: String, now: UInt64 = 0) -> [ConnectionStateMachine
        .Action]
    {
        Array(text.utf8).withUnsafeBytes { machine.received($0, now: now) }
    }

    func decidedHead(_ actions: [ConnectionStateMachine.Action]) -> HTTPRequestHead? {
        guard case .decide(let head)? = actions.first else { return nil }
        return head
    }

    @Test func asksForADecisionThenHandsOverTheWholeRequest() {
        var machine = Self.make()
        let actions = feed(&machine, "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n{\"uid\"")
        let head = try! #require(decidedHead(actions))
        #expect(head.method == .post)
        #expect(machine.decided(.read(limit: BodyLimit(bytes: 100)), now: 0).isEmpty)
        let rest = feed(&machine, ":1}")
        #expect(rest == [.handle(head, body: ArraySlice(#"{"uid":1}"#.utf8), isLast: false)])
        #expect(machine.isHandling)
    }

    @Test func keepsPipelinedRequestsUntilTheResponseIsWritten() {
        var machine = Self.make()
        let first = feed(&machine, "GET /health HTTP/1.1\r\nHost: a\r\n\r\nGET /ready HTTP/1.1\r\nHost: a\r\n\r\n")
        let one = try! #require(decidedHead(first))
        #expect(one.target == "/health")
        #expect(first.count == 1, "the second request waits")
        #expect(machine.decided(.read(limit: BodyLimit(bytes: 0)), now: 0) == [.handle(one, body: [], isLast: false)])
        let next = machine.responded(closed: false, now: 0)
        #expect(decidedHead(next)?.target == "/ready")
    }

    @Test func rejectsAnAnnouncedBodyOverTheLimitWithoutWaitingForIt() {
        var machine = Self.make()
        let actions = feed(&machine, "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n")
        let response = machine.decided(.read(limit: BodyLimit(bytes: 10)), now: 0)
        guard case .fail(let answer, _, let close)? = response.first else {
            Issue.record("expected a 413, got \(response)")
            return
        }
        #expect(decidedHead(actions) != nil)
        #expect(answer.status == .contentTooLarge)
        #expect(close)
        #expect(machine.isClosed)
    }

    @Test func sendsContinueOnlyWhenTheBodyWillBeRead() {
        var accepting = Self.make()
        _ = feed(
            &accepting, "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        #expect(accepting.decided(.read(limit: BodyLimit(bytes: 10)), now: 0) == [.sendContinue])
        var refusing = Self.make()
        _ = feed(
            &refusing, "POST /convert/Nope HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        let notFound = RequestError.notFound
        guard case .fail(let response, _, let close)? = refusing.decided(.reject(notFound), now: 0).first else {
            Issue.record("expected the final status instead of 100")
            return
        }
        #expect(response.status == .notFound)
        #expect(close)
    }

    @Test func discardsTheBodyOfARejectedRequestAndKeepsTheConnection() {
        var machine = Self.make()
        _ = feed(&machine, "POST /convert/Nope HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nab")
        #expect(machine.decided(.reject(RequestError.notFound), now: 0).isEmpty)
        let actions = feed(&machine, "cd")
        guard case .fail(let response, _, let close)? = actions.first else {
            Issue.record("expected the 404 once the body is read, got \(actions)")
            return
        }
        #expect(response.status == .notFound)
        #expect(!close)
    }

    /// A `Content-Length` past `Int.max` (it fits the parser's 64 bits) is counted, never converted to `Int`.
    @Test(arguments: ["9223372036854775808", "18446744073709551615"])
    func aContentLengthPastIntMaxIsDiscardedOrStreamedWithoutATrap(length: String) {
        var refused = Self.make()
        _ = feed(&refused, "POST /nothing HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\nab")
        _ = refused.decided(.reject(RequestError.notFound), now: 0)
        _ = feed(&refused, "cd")
        #expect(!refused.isHandling)
        var streamed = Self.make()
        _ = feed(&streamed, "POST /convert/User/array HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\n{}")
        #expect(streamed.decided(.stream, now: 0) == [.bodyChunk(Array("{}".utf8))])
        #expect(feed(&streamed, "\n") == [.bodyChunk([0x0A])])
    }

    /// The body limit is a framing check: a refused request's body over it is a 413 at once, not read.
    @Test func aRefusedBodyOverTheLimitIsNotReadButAnsweredAtOnce() {
        var announced = Self.make { $0.maxBodyBytes = 100 }
        _ = feed(&announced, "POST /convert/Nope HTTP/1.1\r\nHost: a\r\nContent-Length: 101\r\n\r\n")
        let answer = announced.decided(.reject(RequestError.notFound), now: 0)
        guard case .fail(let response, _, true)? = answer.first else {
            Issue.record("expected the 413 at once, closing; got \(answer)")
            return
        }
        #expect(response.status == .contentTooLarge)
        var chunked = Self.make { $0.maxBodyBytes = 100 }
        _ = feed(&chunked, "POST /convert/Nope HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(chunked.decided(.reject(RequestError.notFound), now: 0).isEmpty)
        #expect(feed(&chunked, "32\r\n\(String(repeating: "x", count: 50))\r\n").isEmpty)
        let past = feed(&chunked, "33\r\n")
        guard case .fail(let refusal, _, true)? = past.first else {
            Issue.record("expected the 413 once the chunks pass the limit; got \(past)")
            return
        }
        #expect(refusal.status == .contentTooLarge)
    }

    /// A chunked body read to be handed over reports its decoded size as it grows (a refused one, being dropped,
    /// and a Content-Length one, counted from its head, report nothing), and can be refused mid-way, closing.
    @Test func aChunkedBodyReportsItsSizeAsItGrowsAndCanBeRefused() {
        var machine = Self.make()
        let head = try! #require(
            decidedHead(feed(&machine, "POST /convert/User HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")))
        #expect(machine.decided(.read(limit: BodyLimit(bytes: 1000)), now: 0).isEmpty)
        #expect(feed(&machine, "5\r\n{\"uid\r\n3\r\n\":1").isEmpty)
        #expect(machine.chunkedBodyBytes == 8)
        let refusal = RequestError.unavailable("too many large request bodies are in flight; retry later")
        #expect(machine.refuseBody(refusal) == [.fail(refusal, head: head, close: true)])
        #expect(machine.isClosed)
        #expect(machine.chunkedBodyBytes == 0)
        var refused = Self.make()
        _ = feed(&refused, "POST /convert/Nope HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
        _ = refused.decided(.reject(RequestError.notFound), now: 0)
        _ = feed(&refused, "5\r\nxxxxx\r\n")
        #expect(refused.chunkedBodyBytes == 0)
        var announced = Self.make()
        _ = feed(&announced, "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n")
        _ = announced.decided(.read(limit: BodyLimit(bytes: 100)), now: 0)
        _ = feed(&announced, "{\"uid\"")
        #expect(announced.chunkedBodyBytes == 0)
    }

    @Test func malformedHeadsCloseWith400() {
        var machine = Self.make()
        let actions = feed(&machine, "GET /x HTTP/1.1\r\nHost : a\r\n\r\n")
        guard case .fail(let response, _, true)? = actions.first else {
            Issue.record("expected a closing 400, got \(actions)")
            return
        }
        #expect(response.status == .badRequest)
        #expect(machine.isClosed)
    }

    @Test func headerTimeoutCountsFromTheFirstByte() {
        var machine = Self.make { $0.headerTimeout = 5 * Self.second }
        _ = feed(&machine, "GET /health HTTP/1.1\r\n", now: 10 * Self.second)
        #expect(machine.tick(now: 14 * Self.second).isEmpty)
        guard case .fail(let response, _, true)? = machine.tick(now: 15 * Self.second).first else {
            Issue.record("expected a 408")
            return
        }
        #expect(response.status == .requestTimeout)
    }

    @Test func idleConnectionsCloseSilentlyAfterTheKeepAliveTimeout() {
        var machine = Self.make { $0.keepAliveTimeout = 3 * Self.second }
        #expect(machine.tick(now: 2 * Self.second).isEmpty)
        #expect(machine.tick(now: 3 * Self.second) == [.close])
    }

    @Test func bodyTimeoutCountsFromTheLastByte() {
        var machine = Self.make { $0.bodyTimeout = 2 * Self.second }
        _ = feed(&machine, "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n")
        _ = machine.decided(.read(limit: BodyLimit(bytes: 10)), now: 0)
        _ = feed(&machine, "ab", now: 1 * Self.second)
        #expect(machine.tick(now: 2 * Self.second).isEmpty)
        guard case .fail(let response, _, true)? = machine.tick(now: 3 * Self.second).first else {
            Issue.record("expected a 408")
            return
        }
        #expect(response.status == .requestTimeout)
    }

    @Test func theLastAllowedRequestIsMarked() {
        var machine = Self.make { $0.maxRequestsPerConnection = 1 }
        let actions = feed(&machine, "GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
        let head = try! #require(decidedHead(actions))
        #expect(machine.decided(.read(limit: BodyLimit(bytes: 0)), now: 0) == [.handle(head, body: [], isLast: true)])
    }

    @Test func aRequestStartingAtTheMaximumAgeIsTheLastAndOneStartedBeforeIsNot() {
        var machine = Self.make(now: 10 * Self.second) { $0.maxConnectionAge = 5 * Self.second }
        let get = "GET /health HTTP/1.1\r\nHost: a\r\n\r\n"
        let young = try! #require(decidedHead(feed(&machine, get, now: 15 * Self.second - 1)))
        #expect(
            machine.decided(.read(limit: BodyLimit(bytes: 0)), now: 15 * Self.second - 1) == [
                .handle(young, body: [], isLast: false)
            ])
        #expect(machine.responded(closed: false, now: 15 * Self.second - 1).isEmpty)
        let old = try! #require(decidedHead(feed(&machine, get, now: 15 * Self.second)))
        #expect(
            machine.decided(.read(limit: BodyLimit(bytes: 0)), now: 15 * Self.second) == [
                .handle(old, body: [], isLast: true)
            ])
    }

    @Test func aRequestWhoseFirstByteCameBeforeTheMaximumAgeIsNotTheLast() {
        var machine = Self.make { $0.maxConnectionAge = 5 * Self.second }
        #expect(feed(&machine, "GET /health HTTP/1.1\r\n", now: 4 * Self.second).isEmpty)
        let head = try! #require(decidedHead(feed(&machine, "Host: a\r\n\r\n", now: 6 * Self.second)))
        #expect(
            machine.decided(.read(limit: BodyLimit(bytes: 0)), now: 6 * Self.second) == [
                .handle(head, body: [], isLast: false)
            ])
    }

    @Test func aDiscardedRequestPastTheMaximumAgeClosesTheConnection() {
        var machine = Self.make { $0.maxConnectionAge = Self.second }
        _ = feed(&machine, "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}", now: 2 * Self.second)
        let reject = RequestError.notFound
        guard case .fail(_, _, let close)? = machine.decided(.reject(reject), now: 2 * Self.second).first else {
            Issue.record("expected a response")
            return
        }
        #expect(close)
    }

    @Test func noMaximumAgeKeepsOldConnectionsOpen() {
        var machine = Self.make()
        let head = try! #require(
            decidedHead(
                feed(
                    &machine, "GET /health HTTP/1.1\r\nHost: a\r\n\r\n",
                    now: 1_000_000 * Self.second)))
        #expect(
            machine.decided(.read(limit: BodyLimit(bytes: 0)), now: 1_000_000 * Self.second) == [
                .handle(head, body: [], isLast: false)
            ])
    }

    @Test func drainingClosesIdleConnectionsAndRefusesNewRequests() {
        var idle = Self.make()
        #expect(idle.drain(now: 0) == [.close])
        var busy = Self.make()
        _ = feed(&busy, "GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(busy.drain(now: 0).isEmpty, "a request whose head arrived is still answered")
    }

    @Test func chunkedBodiesAreDecodedAcrossReads() {
        var machine = Self.make()
        let actions = feed(
            &machine, "POST /convert/User HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab")
        let head = try! #require(decidedHead(actions))
        #expect(machine.decided(.read(limit: BodyLimit(bytes: 100)), now: 0).isEmpty)
        #expect(feed(&machine, "c\r\n0\r\n\r\n") == [.handle(head, body: ArraySlice("abc".utf8), isLast: false)])
    }

    @Test func aPostWithoutFramingIs411() {
        var machine = Self.make()
        guard
            case .fail(let response, _, true)? = feed(&machine, "POST /convert/User HTTP/1.1\r\nHost: a\r\n\r\n").first
        else {
            Issue.record("expected a 411")
            return
        }
        #expect(response.status == .lengthRequired)
    }
}

extension ConnectionStateMachineTests {
    @Test func aStrayCRLFAfterARequestKeepsTheConnectionIdle() {
        var machine = Self.make {
            $0.headerTimeout = 1 * Self.second; $0.keepAliveTimeout = 5 * Self.second
        }
        #expect(feed(&machine, "\r\n").isEmpty)
        #expect(machine.tick(now: 2 * Self.second).isEmpty, "no 408 for a stray CRLF")
        #expect(machine.tick(now: 5 * Self.second) == [.close])
    }
}

extension ConnectionStateMachineTests {
    @Test func aBodyAndThePipelinedRequestAfterItArriveInOneRead() {
        var machine = Self.make()
        let actions = feed(
            &machine,
            "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}GET /health HTTP/1.1\r\nHost: a\r\n\r\n"
        )
        let head = try! #require(decidedHead(actions))
        #expect(
            machine.decided(.read(limit: BodyLimit(bytes: 100)), now: 0) == [
                .handle(head, body: ArraySlice("{}".utf8), isLast: false)
            ])
        #expect(decidedHead(machine.responded(closed: false, now: 0))?.target == "/health")
    }

    @Test func aBodyInManyReadsIsHandedOverWhole() {
        var machine = Self.make()
        let head = try! #require(
            decidedHead(feed(&machine, "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n")))
        #expect(machine.decided(.read(limit: BodyLimit(bytes: 100)), now: 0).isEmpty)
        #expect(feed(&machine, "[1,").isEmpty)
        #expect(feed(&machine, "2,3,").isEmpty)
        #expect(feed(&machine, "4,5]GET") == [.handle(head, body: ArraySlice("[1,2,3,4,5]".utf8), isLast: false)])
        #expect(
            feed(&machine, " /ready HTTP/1.1\r\nHost: a\r\n\r\n").isEmpty, "the next request waits for the response")
        #expect(decidedHead(machine.responded(closed: false, now: 0))?.target == "/ready")
    }

    @Test func anAnnouncedBodyCostsMemoryOnlyAsItArrives() {
        var machine = Self.make()
        let head = "POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 100000000\r\n\r\n"
        #expect(decidedHead(feed(&machine, head)) != nil)
        #expect(machine.decided(.read(limit: BodyLimit(bytes: 200_000_000)), now: 0).isEmpty)
        #expect(machine.inputCapacity < 4096, "nothing reserved for the 100 MB announced")
        #expect(feed(&machine, String(repeating: "x", count: 10_000)).isEmpty)
        #expect(machine.inputCapacity < 64 << 10, "what arrived, and room to grow")
    }
}

extension ConnectionStateMachineTests {
    /// The event loop wakes a connection only at its `deadline`, so each state must name the moment its timeout
    /// falls: the keep-alive timeout while idle, the header timeout from the first byte, the body timeout from the
    /// last, and none while a request is decided or handled.
    @Test func eachStateNamesTheMomentItsTimeoutFalls() {
        var machine = Self.make(now: 1 * Self.second) {
            $0.keepAliveTimeout = 75 * Self.second
            $0.headerTimeout = 10 * Self.second
            $0.bodyTimeout = 4 * Self.second
        }
        #expect(machine.deadline == 76 * Self.second, "idle: the keep-alive timeout")
        _ = feed(&machine, "POST /convert/User HTTP/1.1\r\n", now: 2 * Self.second)
        #expect(machine.deadline == 12 * Self.second, "the first byte starts the header timeout, earlier than idle's")
        let actions = feed(&machine, "Host: a\r\nContent-Length: 5\r\n\r\n", now: 3 * Self.second)
        let head = try! #require(decidedHead(actions))
        #expect(machine.deadline == .max, "no timeout while the server decides")
        _ = machine.decided(.read(limit: BodyLimit(bytes: 10)), now: 5 * Self.second)
        #expect(machine.deadline == 9 * Self.second, "the body timeout")
        _ = feed(&machine, "ab", now: 7 * Self.second)
        #expect(machine.deadline == 11 * Self.second, "counted from the last byte")
        #expect(
            feed(&machine, "cde", now: 8 * Self.second) == [
                .handle(head, body: ArraySlice("abcde".utf8), isLast: false)
            ])
        #expect(machine.deadline == .max, "no timeout while the request is handled")
        _ = machine.responded(closed: false, now: 20 * Self.second)
        #expect(machine.deadline == 95 * Self.second, "idle again")
        #expect(machine.tick(now: 95 * Self.second - 1).isEmpty, "tick acts at the deadline, not before")
        #expect(machine.tick(now: 95 * Self.second) == [.close])
        #expect(machine.deadline == .max, "closed")
    }

    @Test func aTimeoutPastTheEndOfTimeNeverFalls() {
        var machine = Self.make(now: 5 * Self.second) { $0.keepAliveTimeout = .max }
        #expect(machine.deadline == .max)
        #expect(machine.tick(now: .max - 1).isEmpty)
    }
}
