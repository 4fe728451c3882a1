extension HTTPRequestParser {
    enum ChunkStep {
        case proceed
        case needMoreData
        case failure(HTTPParseError)
    }

    /// One step of the chunked transfer coding (RFC 9112 §7.1):
    /// `chunk-size [ chunk-ext ] CRLF chunk-data CRLF ... last-chunk trailer-section CRLF`.
    /// Chunk extensions are ignored; the de-chunked body counts against `maxBodyBytes`.
    mutating func nextChunkStep() -> ChunkStep {
        switch state {
        case .chunkSize:
            guard let line = takeLine() else {
                if buffer.count - readIndex > configuration.maxChunkLineBytes + 1 {
                    return .failure(chunkLineTooLong())
                }
                return .needMoreData
            }
            if line.count > configuration.maxChunkLineBytes { return .failure(chunkLineTooLong()) }
            if lineEndedWithBareLF { return .failure(bareLineFeed()) }
            var size = 0
            var index = line.startIndex
            while index < line.endIndex, let digit = ASCII.hexValue(line[index]) {
                if size > (Int.max - digit) / 16 { return .failure(bodyTooLarge()) }
                size = size * 16 + digit
                index += 1
            }
            guard index > line.startIndex else { return .failure(invalidChunk("invalid chunk size")) }
            // RFC 9112 §7.1.1 allows BWS before a chunk extension; refused, as fronts disagree on it.
            if index < line.endIndex && ASCII.isWhitespace(line[index]) {
                return .failure(invalidChunk("whitespace after the chunk size"))
            }
            if index < line.endIndex {
                guard line[index] == ASCII.semicolon,
                    line[index...].allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == ASCII.tab })
                else { return .failure(invalidChunk("invalid chunk size")) }
            }
            if size > configuration.maxBodyBytes - pending.body.count { return .failure(bodyTooLarge()) }
            if size == 0 {
                sectionBytes = 0
                sectionFields = 0
                state = .trailerFields
            } else {
                state = .chunkData(remaining: size)
            }
            return .proceed
        case .chunkData(let remaining):
            let taken = takeBody(upTo: remaining)
            if taken == remaining {
                state = .chunkEnd
                return .proceed
            }
            state = .chunkData(remaining: remaining - taken)
            return .needMoreData
        case .chunkEnd:
            guard let line = takeLine() else {
                if buffer.count - readIndex > 1 { return .failure(invalidChunk("missing CRLF after chunk data")) }
                return .needMoreData
            }
            guard line.isEmpty else { return .failure(invalidChunk("missing CRLF after chunk data")) }
            if lineEndedWithBareLF { return .failure(bareLineFeed()) }
            state = .chunkSize
            return .proceed
        default:
            return .proceed
        }
    }

    func invalidChunk(_ message: String) -> HTTPParseError {
        .badRequest(.invalidChunk, message)
    }

    func chunkLineTooLong() -> HTTPParseError {
        invalidChunk("chunk size line longer than \(configuration.maxChunkLineBytes) bytes")
    }
}
