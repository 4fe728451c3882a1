import Foundation
import MediaCore
import MediaCrypto

/// Checks C2SP signed notes against one Ed25519 verifier key (`<name>+<key ID hex>+<base64(0x01 || public key)>`,
/// ``NoteSigner/verifierKey``): the note's text is given back only when a signature line of that key verifies.
public struct NoteVerifier: Sendable, Hashable {
    /// The key's name.
    public let name: String
    /// The 4-byte key ID.
    public let keyID: [UInt8]
    /// The 32-byte Ed25519 public key.
    public let publicKey: [UInt8]

    /// The verifier of `signer`'s key.
    public init(_ signer: NoteSigner) {
        (name, keyID, publicKey) = (signer.name, signer.keyID, signer.key.publicKey)
    }

    /// Parses a verifier key.
    /// - Throws: ``AuditError`` `invalid-note` naming the part that is wrong.
    public init(verifierKey: String) throws(AuditError) {
        // The name holds no '+' and the ID is 8 hex digits: the key's base64, which may hold '+', is all the rest.
        let parts = verifierKey.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw AuditError(.invalidNote, "a verifier key is <name>+<key ID>+<key>, three parts apart by '+'")
        }
        let name = String(parts[0])
        guard NoteSigner.isValidName(name) else { throw AuditError(.invalidNote, "the verifier key's name is not a key name") }
        guard parts[1].count == 8, let keyID = Hex.decode(parts[1]) else {
            throw AuditError(.invalidNote, "the verifier key's ID is not 8 hex digits")
        }
        guard let key = Data(base64Encoded: String(parts[2])), key.count == 33, key.first == NoteSigner.ed25519 else {
            throw AuditError(.invalidNote, "the verifier key is not base64 of 0x01 and a 32-byte Ed25519 key")
        }
        let publicKey = Array(key.dropFirst())
        guard NoteSigner.keyID(name: name, publicKey: publicKey) == keyID else {
            throw AuditError(.invalidNote, "the verifier key's ID does not match its name and key")
        }
        self.name = name
        self.keyID = keyID
        self.publicKey = publicKey
    }

    /// The text of `note` when one of its signature lines is this key's and verifies.
    /// - Throws: ``AuditError`` `invalid-note`: no blank line before the signatures, a malformed signature line, no
    ///   signature of this key, or one that does not verify.
    public func open(_ note: String) throws(AuditError) -> String {
        guard let split = note.range(of: "\n\n", options: .backwards) else {
            throw AuditError(.invalidNote, "the note has no blank line before its signatures")
        }
        let text = String(note[..<note.index(after: split.lowerBound)])
        let block = note[split.upperBound...]
        guard block.hasSuffix("\n"), !block.isEmpty else { throw AuditError(.invalidNote, "the note's signatures do not end with a newline") }
        var sawKey = false
        for line in block.dropLast().split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("\u{2014} ") else { throw AuditError(.invalidNote, "a signature line does not start with '— '") }
            let fields = line.dropFirst(2).split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 2, let blob = Data(base64Encoded: String(fields[1])), blob.count >= 5 else {
                throw AuditError(.invalidNote, "a signature line is not '— <name> <base64 signature>'")
            }
            guard fields[0] == name, Array(blob.prefix(4)) == keyID else { continue }
            sawKey = true
            if Ed25519SigningKey.verify(Array(blob.dropFirst(4)), of: Array(text.utf8), publicKey: publicKey) { return text }
        }
        throw AuditError(.invalidNote, sawKey ? "the signature of \(name) does not verify" : "the note has no signature of \(name)")
    }
}
