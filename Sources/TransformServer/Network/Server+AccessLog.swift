// SPDX-License-Identifier: Apache-2.0

import MapperCore

extension Server {
    func requestCompleted(
        head: HTTPRequestHead?, route: Route?, status: HTTPStatus, bytes: Int, requestId: String,
        started: UInt64
    ) {
        let seconds = Double(MonotonicClock.now() &- started) / 1e9
        let method = head?.method.name ?? "-"
        // Requests answered before their handler ran (a failed check, a stream) still count under their route.
        let route =
            route
            ?? head.flatMap { head in
                Router.percentDecode(Router.split(target: head.target).path).flatMap(Router.match)
                    .map { Router.resolve($0, method: head.method) }
            }
        context.metrics.recordRequest(
            route: route?.template ?? MetricsRegistry.unmatchedRoute, method: method,
            status: status.code, seconds: seconds)
        guard let accessLog else { return }
        accessLog.record { buffer in
            Self.writeAccessLogLine(
                requestId: requestId, method: method, target: head?.target ?? "",
                route: route?.template ?? "", status: status.code, bytes: bytes,
                microseconds: Int((seconds * 1e6).rounded()), into: &buffer)
        }
    }

    /// Appends `{"requestId":…,"method":…,"target":…,"route":…,"status":…,"bytes":…,"durationMs":…}` and a newline
    /// to `line` (the access log's buffer: no line of its own is allocated); the duration in milliseconds with up to
    /// three decimals (microsecond resolution, no trailing zeros).
    static func writeAccessLogLine(
        requestId: String, method: String, target: String, route: String, status: Int,
        bytes: Int, microseconds: Int, into line: inout [UInt8]
    ) {
        func field(_ name: StaticString, _ value: String) {
            line.append(name)
            line.appendJSONString(value)
        }
        field("{\"requestId\":", requestId)
        field(",\"method\":", method)
        field(",\"target\":", target)
        field(",\"route\":", route)
        line.append(",\"status\":")
        line.append(decimal: status)
        line.append(",\"bytes\":")
        line.append(decimal: bytes)
        line.append(",\"durationMs\":")
        line.append(decimal: microseconds / 1000)
        let fraction = microseconds % 1000
        if fraction == 0 {
            line.append(".0")  // as Double's description wrote whole milliseconds
        } else {
            // Up to three digits, leading zeros kept and trailing zeros dropped.
            line.append(UInt8(ascii: "."))
            var (rest, place) = (fraction, 100)
            repeat {
                line.append(UInt8(ascii: "0") &+ UInt8(rest / place))
                (rest, place) = (rest % place, place / 10)
            } while rest > 0
        }
        line.append("}\n")
    }
}
