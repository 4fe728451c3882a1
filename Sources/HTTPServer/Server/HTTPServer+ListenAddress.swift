extension HTTPServer.Configuration {
    /// Parses a `--listen` value: `"127.0.0.1:8080"`, `"0.0.0.0:0"`, `"[::1]:8080"` or a bare port `"8080"`
    /// (which binds 127.0.0.1).
    /// - Returns: the configuration with ``host`` and ``port`` replaced.
    /// - Throws: ``HTTPServerError`` `invalidAddress` with message `"invalid listen address <text>: expected HOST:PORT"`.
    public func listening(on text: String) throws(HTTPServerError) -> HTTPServer.Configuration {
        let invalid = HTTPServerError(code: .invalidAddress, message: "invalid listen address \(text): expected HOST:PORT")
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { throw invalid }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
            let port = Int(portText), port <= 65_535
        else { throw invalid }
        var copy = self
        copy.host = host
        copy.port = port
        return copy
    }
}
