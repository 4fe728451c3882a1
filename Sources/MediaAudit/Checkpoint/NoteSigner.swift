import Foundation
import MediaCore
import MediaCrypto

/// Signs C2SP signed notes (https://c2sp.org/signed-note) with an Ed25519 key: the audit log's checkpoints
/// (``TreeCheckpoint``). A signature line is `— <name> <base64(key ID || signature)>`; the key ID is the first four
/// bytes of `SHA-256(name || "\n" || 0x01 || public key)`, and the verifier key, which `mediactl audit public-key`
/// prints, is `<name>+<key ID, 8 hex digits>+<base64(0x01 || public key)>`: the encoding Go's `sumdb/note`, the
/// C2SP tools and transparency-log witnesses read.
public struct NoteSigner: Sendable {
    /// The signature algorithm's byte for Ed25519.
    static let ed25519: UInt8 = 0x01

    /// The key's name: the log's origin line (no spaces, no `+`).
    public let name: String
    /// The signing key.
    public let key: Ed25519SigningKey
    /// The key ID: the first four bytes of `SHA-256(name || "\n" || 0x01 || public key)`.
    public let keyID: [UInt8]

    /// - Throws: ``AuditError`` `invalid-note` when `name` is empty or holds a space, a `+` or a control character.
    public init(name: String, key: Ed25519SigningKey) throws(AuditError) {
        guard NoteSigner.isValidName(name) else {
            throw AuditError(.invalidNote, "a note key name is non-empty, without spaces, '+' or control characters: '\(name)'")
        }
        self.name = name
        self.key = key
        keyID = Self.keyID(name: name, publicKey: key.publicKey)
    }

    /// Whether `name` may name a note key.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains { $0 == "+" || $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// The 4-byte key ID of `name` and the Ed25519 `publicKey`.
    static func keyID(name: String, publicKey: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(name)
        hash.update([0x0A, ed25519])
        hash.update(publicKey)
        return Array(hash.finalize().bytes.prefix(4))
    }

    /// The verifier key: `<name>+<key ID hex>+<base64(0x01 || public key)>`.
    public var verifierKey: String {
        name + "+" + Hex.encode(keyID) + "+" + Data([Self.ed25519] + key.publicKey).base64EncodedString()
    }

    /// The signature line of `text` (`— <name> <base64>\n`).
    /// - Throws: ``AuditError`` `invalid-note` when `text` is not a note's text (empty, or not ending in a newline).
    public func signatureLine(for text: String) throws(AuditError) -> String {
        guard text.hasSuffix("\n") else { throw AuditError(.invalidNote, "a note's text ends with a newline") }
        let signature: [UInt8]
        do { signature = try key.sign(Array(text.utf8)) } catch {
            throw AuditError(.invalidNote, "cannot sign the note: \(error.context)")
        }
        return "\u{2014} " + name + " " + Data(keyID + signature).base64EncodedString() + "\n"
    }

    /// The signed note: `text`, a blank line, the signature line.
    public func sign(_ text: String) throws(AuditError) -> String {
        text + "\n" + (try signatureLine(for: text))
    }
}
