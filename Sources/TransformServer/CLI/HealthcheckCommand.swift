// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

/// `TransformServer healthcheck [URL] [--config DIR] [--port N]`: GET /health over a plain socket; exit 0 only on a
/// 200 (for container health checks without curl). Without a URL it probes `http://127.0.0.1:<listenPort>/health`,
/// the port read as `serve` reads it (flags > `TRANSFORM_LISTEN_PORT` > `server.json` > 8080), so an image's
/// HEALTHCHECK follows whatever port the server was configured with.
enum HealthcheckCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var settings = arguments[...]
        var url: String
        if let first = settings.first, !first.hasPrefix("--") {
            url = first
            settings = settings.dropFirst()
        } else {
            url = "http://127.0.0.1:8080/health"
        }
        switch ServerConfiguration.load(arguments: Array(settings)) {
        case .failure(let error):
            StandardIO.error("healthcheck: \(error.description)")
            return 2
        case .success(let (configuration, _)):
            if settings.count == arguments.count { url = "http://127.0.0.1:\(configuration.listenPort)/health" }
        }
        guard url.hasPrefix("http://") else {
            StandardIO.error("healthcheck: only http:// URLs are supported")
            return 2
        }
        let rest = url.dropFirst(7)
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count).isEmpty ? "/health" : String(rest.dropFirst(authority.count))
        var host = String(authority)
        var port = "80"
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") { port = String(after.dropFirst()) }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            port = String(host[host.index(after: colon)...])
            host = String(host[..<colon])
        }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, port, &hints, &info) == 0, let first = info else {
            StandardIO.error("healthcheck: cannot resolve \(host)")
            return 1
        }
        defer { freeaddrinfo(info) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, 0)
        guard fd >= 0, connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            StandardIO.error("healthcheck: cannot connect to \(host):\(port)")
            return 1
        }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = "GET \(path) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        let statusLine = n > 12 ? String(decoding: buffer[0..<12], as: UTF8.self) : ""
        return statusLine.hasPrefix("HTTP/1.1 200") || statusLine.hasPrefix("HTTP/1.0 200") ? 0 : 1
    }
}
