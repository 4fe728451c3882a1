#if canImport(Glibc)
    import Glibc
#endif

/// Turns the host of `--listen` into the numeric address ``HTTPServer/HTTPServer`` binds
/// (it does not resolve names): numeric IPv4/IPv6 stay as they are; a host name such as
/// `localhost` is resolved with `getaddrinfo(3)`, IPv4 first.
enum ListenResolver {
    /// The numeric address for `host`.
    /// - Throws: ``CommandError`` `listen-failed` (exit 2): `cannot resolve listen host 'H': <gai_strerror text>`.
    static func numericHost(_ host: String) throws(CommandError) -> String {
        if isNumeric(host, family: AF_INET) || isNumeric(host, family: AF_INET6) { return host }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw CommandError(
                .listenFailed, "cannot resolve listen host '\(host)': \(String(cString: gai_strerror(status)))",
                exitCode: .unusableInput)
        }
        defer { freeaddrinfo(first) }
        var candidates: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = numeric(entry.pointee) { candidates.append(address) }
            cursor = entry.pointee.ai_next
        }
        if let ipv4 = candidates.first(where: { !$0.contains(":") }) { return ipv4 }
        guard let any = candidates.first else {
            throw CommandError(
                .listenFailed, "cannot resolve listen host '\(host)': no address", exitCode: .unusableInput)
        }
        return any
    }

    private static func isNumeric(_ text: String, family: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return buffer.withUnsafeMutableBytes { inet_pton(family, text, $0.baseAddress) } == 1
    }

    private static func numeric(_ info: addrinfo) -> String? {
        guard let address = info.ai_addr else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = getnameinfo(address, info.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
        guard status == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
