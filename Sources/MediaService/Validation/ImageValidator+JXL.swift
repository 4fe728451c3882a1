import MediaCore

extension ImageValidator {
    /// Checks a JPEG XL image (ISO/IEC 18181): a bare codestream (`FF 0A`), or a container whose boxes tile the
    /// body (ISO/IEC 18181-2) and hold the codestream in a `jxlc` box or in `jxlp` parts. The dimensions come from
    /// the codestream's `SizeHeader` (ISO/IEC 18181-1 §D.2); the entropy-coded frames are not walked (that would be
    /// decoding), so a bare codestream is checked as far as its header.
    func validateJXL(_ reader: ByteReader) throws(ImageValidationError) -> (width: Int, height: Int) {
        var codestream = 0..<reader.count
        if !reader.matches(ImageSniffer.jxlCodestreamSignature, at: 0) {
            let boxes = try Self.boxes(reader, in: 0..<reader.count, format: "JXL")
            guard let box = boxes.first(where: { $0.type == "jxlc" || $0.type == "jxlp" }) else {
                throw Self.corrupt("JXL", "no jxlc or jxlp box holds a codestream")
            }
            // A `jxlp` part starts with a 4-byte index.
            codestream = (box.type == "jxlp" ? box.payload.lowerBound + 4 : box.payload.lowerBound)..<box.payload.upperBound
            guard codestream.count >= 2, reader.matches(ImageSniffer.jxlCodestreamSignature, at: codestream.lowerBound) else {
                throw Self.corrupt("JXL", "the codestream does not start with FF 0A")
            }
        }
        // The SizeHeader takes at most 1 + 2 + 30 + 3 + 2 + 30 bits after the signature: read no more than that.
        var bits = JXLBitReader(reader.bytes[codestream].dropFirst(2).prefix(JXLBitReader.sizeHeaderBytes))
        guard let size = bits.sizeHeader() else { throw Self.truncated("JXL", "the SizeHeader is cut short") }
        try checkDimensions(size.width, size.height, "JXL SizeHeader")
        return size
    }
}

/// Reads a JPEG XL codestream's fields: bits least significant first within each byte (ISO/IEC 18181-1 §B.2.1).
struct JXLBitReader {
    private let bytes: [UInt8]
    private var position = 0

    /// The most bytes a `SizeHeader` takes: 68 bits.
    static let sizeHeaderBytes = 9

    init(_ bytes: some Collection<UInt8>) { self.bytes = Array(bytes) }

    /// `count` bits as an unsigned integer, or `nil` past the end.
    mutating func read(_ count: Int) -> Int? {
        var value = 0
        for index in 0..<count {
            let byte = position / 8
            guard byte < bytes.count else { return nil }
            value |= Int((bytes[byte] >> UInt8(position % 8)) & 1) << index
            position += 1
        }
        return value
    }

    /// `U32(Bits(9) + 1, Bits(13) + 1, Bits(18) + 1, Bits(30) + 1)`: a dimension that is not a multiple of 8.
    mutating func dimension() -> Int? {
        guard let selector = read(2), let value = read([9, 13, 18, 30][selector]) else { return nil }
        return value + 1
    }

    /// The `SizeHeader` (§D.2): `small` (height and width as multiples of 8 up to 256), the height, then `ratio`
    /// (0: the width follows; 1–7: a fixed aspect ratio of the height).
    mutating func sizeHeader() -> (width: Int, height: Int)? {
        guard let small = read(1) else { return nil }
        let height: Int
        if small == 1 {
            guard let eighths = read(5) else { return nil }
            height = (eighths + 1) * 8
        } else {
            guard let value = dimension() else { return nil }
            height = value
        }
        guard let ratio = read(3) else { return nil }
        if ratio == 0 {
            if small == 1 {
                guard let eighths = read(5) else { return nil }
                return ((eighths + 1) * 8, height)
            }
            guard let width = dimension() else { return nil }
            return (width, height)
        }
        let (numerator, denominator) = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)][ratio - 1]
        return (height * numerator / denominator, height)
    }
}
