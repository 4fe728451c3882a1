extension AuditLog {
    struct Resumed {
        var lastSeq = 0
        var lastHash = AuditDigest.zero
        var tornTailBytes = 0
        var rotatedSegments = 0
        var nextSegmentIndex = 1
    }

    /// Finds the last valid record, truncating a torn last line of `audit.jsonl` (one with no trailing
    /// newline, or the final line when it does not parse).
    static func resume(directory: String) throws -> Resumed {
        var resumed = Resumed()
        let segments = AuditFiles.rotatedSegments(in: directory)
        resumed.rotatedSegments = segments.count
        resumed.nextSegmentIndex = (segments.last?.index ?? 0) + 1
        let activePath = directory + "/" + AuditFiles.activeName
        if var bytes = try AuditFiles.read(activePath), !bytes.isEmpty {
            let originalCount = bytes.count
            if bytes.last != 0x0a { bytes.removeSubrange(lineStart(before: bytes.count, in: bytes)...) }
            if !bytes.isEmpty, lastRecord(in: bytes) == nil {
                bytes.removeSubrange(lineStart(before: bytes.count - 1, in: bytes)...)
            }
            resumed.tornTailBytes = originalCount - bytes.count
            if resumed.tornTailBytes > 0 { try AuditFiles.truncate(activePath, to: bytes.count) }
            if !bytes.isEmpty {
                guard let record = lastRecord(in: bytes) else {
                    throw AuditError(.corruptLog, "the last complete line of \(activePath) is not a record")
                }
                resumed.lastSeq = record.seq
                resumed.lastHash = record.hash
                return resumed
            }
        }
        if let segment = segments.last, let bytes = try AuditFiles.read(segment.path), !bytes.isEmpty {
            guard bytes.last == 0x0a, let record = lastRecord(in: bytes) else {
                throw AuditError(.corruptLog, "the last line of \(segment.path) is not a complete record")
            }
            resumed.lastSeq = record.seq
            resumed.lastHash = record.hash
        }
        return resumed
    }

    /// Index of the first byte of the line containing `end - 1` (0 when there is no earlier newline).
    private static func lineStart(before end: Int, in bytes: [UInt8]) -> Int {
        var index = end
        while index > 0 && bytes[index - 1] != 0x0a { index -= 1 }
        return index
    }

    /// The record on the last line of newline-terminated `bytes`, or `nil` when it does not parse.
    private static func lastRecord(in bytes: [UInt8]) -> AuditRecord? {
        let start = lineStart(before: bytes.count - 1, in: bytes)
        let text = String(decoding: bytes[start..<(bytes.count - 1)], as: UTF8.self)
        return try? AuditRecord.parse(line: text)
    }
}
