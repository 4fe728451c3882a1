extension Array where Element == UInt8 {
    /// Appends `text`'s UTF-8 bytes with one copy of its contiguous storage (`append(contentsOf: text.utf8)`
    /// may walk the view byte by byte).
    @inline(__always)
    mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
