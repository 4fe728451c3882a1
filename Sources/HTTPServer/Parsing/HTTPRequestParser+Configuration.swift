extension HTTPRequestParser {
    /// Limits applied while parsing (RFC 9112 §2.3, §3, §5, §6; RFC 6585 §5).
    public struct Configuration: Sendable, Hashable {
        /// Maximum request-line length in bytes, terminator excluded; longer → 414. Default: 8,192.
        public var maxRequestLineBytes: Int
        /// Maximum bytes of field lines (terminators included) in the header section, and separately
        /// in a chunked trailer section; more → 431. Default: 65,536.
        public var maxHeaderBytes: Int
        /// Maximum number of field lines in the header section (and in a trailer section);
        /// more → 431. Default: 100.
        public var maxFieldCount: Int
        /// Maximum body bytes (after de-chunking); more → 413. Default: 8,388,608 (8 MiB).
        public var maxBodyBytes: Int
        /// Maximum bytes of one chunk-size line, extensions included; longer → 400. Default: 4,096.
        public var maxChunkLineBytes: Int
        /// The field names with `_` let through (``UnderscoreFieldNames``); any other name with `_` → 400
        /// `invalid-field-name`. `nil` lets none through. Default: `nil`.
        public var underscoreNames: UnderscoreFieldNames?

        public init(
            maxRequestLineBytes: Int = 8_192, maxHeaderBytes: Int = 65_536, maxFieldCount: Int = 100,
            maxBodyBytes: Int = 8_388_608, maxChunkLineBytes: Int = 4_096, underscoreNames: UnderscoreFieldNames? = nil
        ) {
            self.underscoreNames = underscoreNames
            self.maxRequestLineBytes = maxRequestLineBytes
            self.maxHeaderBytes = maxHeaderBytes
            self.maxFieldCount = maxFieldCount
            self.maxBodyBytes = maxBodyBytes
            self.maxChunkLineBytes = maxChunkLineBytes
        }
    }
}
