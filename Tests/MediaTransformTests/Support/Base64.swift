import Foundation

/// Base64 text (line breaks and spaces ignored) to bytes, for fixtures embedded in source files.
enum Base64 {
    static func decode(_ text: String) -> [UInt8] {
        let compact = text.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact) else { preconditionFailure("bad base64 fixture") }
        return [UInt8](data)
    }
}
