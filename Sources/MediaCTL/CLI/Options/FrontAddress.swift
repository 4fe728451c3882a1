import Glibc

/// The address of `mediactl serve --front ADDR`: a front proxy (nginx, a load balancer) whose connections carry
/// many clients, exempt from the per-address connection cap (docs/http-server.md, "Timeouts, cap and stop").
/// Numeric only, in the form the server writes peers: `127.0.0.1`, `[::1]` (IPv6 in brackets, written canonically).
struct FrontAddress: Sendable, Hashable {
    /// `127.0.0.1` or `[2001:db8::1]`.
    var text: String

    /// Parses `127.0.0.1`, `::1` or `[::1]`.
    /// - Returns: the address, or the reason: `"'X' is not a numeric IPv4 or IPv6 address"`.
    static func parse(_ text: String) -> Result<FrontAddress, ReasonError> {
        var bare = text
        if bare.hasPrefix("[") && bare.hasSuffix("]") && bare.count > 2 { bare = String(bare.dropFirst().dropLast()) }
        var v4 = in_addr()
        var v6 = in6_addr()
        var out = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        if !bare.contains(":"), inet_pton(AF_INET, bare, &v4) == 1 {
            inet_ntop(AF_INET, &v4, &out, socklen_t(out.count))
            return .success(FrontAddress(text: Self.string(out)))
        }
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            inet_ntop(AF_INET6, &v6, &out, socklen_t(out.count))
            return .success(FrontAddress(text: "[" + Self.string(out) + "]"))
        }
        return .failure(ReasonError("'\(text)' is not a numeric IPv4 or IPv6 address"))
    }

    private static func string(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
