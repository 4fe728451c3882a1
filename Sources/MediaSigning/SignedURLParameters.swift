/// The four query parameters of a signed capability URL (docs/signed-urls.md) and the rules of their values.
public enum SignedURLParameters {
    /// `exp`: the expiry, Unix seconds, `0` or 1–19 digits without a leading zero.
    public static let expires = "exp"
    /// `sub`: the subject, 1–128 of `[A-Za-z0-9._-]`; the partition the URL opens.
    public static let subject = "sub"
    /// `kid`: the key id, 1–32 of `[A-Za-z0-9._-]`.
    public static let keyID = "kid"
    /// `sig`: the unpadded base64url HMAC-SHA256 of the signing string, 43 characters.
    public static let signature = "sig"
    /// The four names, in the order a signer appends them.
    public static let names = [expires, subject, keyID, signature]

    /// The first line of the signing string: `mediactl-url-v1`.
    public static let version = "mediactl-url-v1"
    /// Length of `sig`: 43 characters (32 bytes, unpadded base64url).
    public static let signatureLength = 43
    /// Longest subject: 128 characters.
    public static let maximumSubjectLength = 128
    /// Longest key id: 32 characters.
    public static let maximumKeyIDLength = 32

    /// Whether `text` is a valid subject: 1–128 of `[A-Za-z0-9._-]`.
    public static func isSubject(_ text: some StringProtocol) -> Bool {
        isToken(text, maximumLength: maximumSubjectLength)
    }

    /// Whether `text` is a valid key id: 1–32 of `[A-Za-z0-9._-]`.
    public static func isKeyID(_ text: some StringProtocol) -> Bool {
        isToken(text, maximumLength: maximumKeyIDLength)
    }

    /// The expiry in `text`, or `nil` unless it is `0` or 1–19 digits without a leading zero, at most `Int64.max`.
    public static func expiry(_ text: some StringProtocol) -> Int64? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 19, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              bytes.count == 1 || bytes[0] != 0x30 else { return nil }
        return Int64(String(decoding: bytes, as: UTF8.self))
    }

    static func isToken(_ text: some StringProtocol, maximumLength: Int) -> Bool {
        let count = text.utf8.count
        guard count >= 1, count <= maximumLength else { return false }
        return text.utf8.allSatisfy(isTokenByte)
    }

    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
