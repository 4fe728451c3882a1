#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `HOST:PORT` of `mediactl serve --listen`: an IPv4 address, a bracketed IPv6 address
/// (`[::1]:8080`) or a host name, and a port from 0 to 65535 (0: the system picks a free port).
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host without brackets: `"127.0.0.1"`, `"::1"`, `"localhost"`.
    public var host: String
    /// The TCP port; 0 lets the system choose.
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// The default: `127.0.0.1:8080`.
    public static let `default` = ListenAddress(host: "127.0.0.1", port: 8080)

    /// The default of `serve --admin-listen`: `127.0.0.1:9091`.
    public static let adminDefault = ListenAddress(host: "127.0.0.1", port: 9091)

    /// `HOST:PORT`, with brackets around an IPv6 host.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Parses `--admin-listen`: `off` (no admin listener, `nil`) or what ``parse(_:)`` accepts; a refusal's
    /// reason ends in ` (or off)`.
    static func parseOrOff(_ text: String) -> Result<ListenAddress?, ReasonError> {
        if text == "off" { return .success(nil) }
        return parse(text).map { Optional($0) }.mapError { ReasonError($0.reason + " (or off)") }
    }

    /// Parses `HOST:PORT`.
    /// - Returns: the address, or the reason it is invalid, such as `"expected HOST:PORT"`,
    ///   `"host is empty"`, `"port must be a number from 0 to 65535"`,
    ///   `"'256.1.1.1' is not a valid IPv4 address"`, `"'::zz' is not a valid IPv6 address"`,
    ///   `"'a_b' is not a valid host name"`.
    static func parse(_ text: String) -> Result<ListenAddress, ReasonError> {
        guard let colon = text.lastIndex(of: ":") else { return .failure("expected HOST:PORT") }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        let isBracketed = host.hasPrefix("[")
        if isBracketed {
            guard host.hasSuffix("]"), host.count >= 2 else { return .failure("expected HOST:PORT") }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return .failure("an IPv6 host must be in brackets, such as [::1]:8080")
        }
        if host.isEmpty { return .failure("host is empty") }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = UInt16(portText)
        else { return .failure("port must be a number from 0 to 65535") }
        if isBracketed {
            guard Self.isAddress(host, family: AF_INET6) else {
                return .failure(ReasonError("'\(host)' is not a valid IPv6 address"))
            }
        } else if host.allSatisfy({ $0 == "." || ($0.isASCII && $0.isNumber) }) {
            guard Self.isAddress(host, family: AF_INET) else {
                return .failure(ReasonError("'\(host)' is not a valid IPv4 address"))
            }
        } else if !Self.isHostName(host) {
            return .failure(ReasonError("'\(host)' is not a valid host name"))
        }
        return .success(ListenAddress(host: host, port: port))
    }

    private static func isAddress(_ text: String, family: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return buffer.withUnsafeMutableBytes { inet_pton(family, text, $0.baseAddress) } == 1
    }

    /// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, each 1 to 63
    /// characters, 253 in all.
    private static func isHostName(_ text: String) -> Bool {
        guard text.utf8.count <= 253 else { return false }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
