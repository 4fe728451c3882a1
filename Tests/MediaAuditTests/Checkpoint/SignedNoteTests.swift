import Foundation
import MediaAudit
import MediaCrypto
import Testing

/// C2SP signed notes with Ed25519, against the reference vector of Go's `golang.org/x/mod/sumdb/note` (its
/// documentation and tests: the key `PeterNeumann`), and checkpoints in the tlog-checkpoint format.
@Suite struct SignedNoteTests {
    static let verifierKey = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
    /// `PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz`: 0x01, then the seed.
    static let seed = Array(Data(base64Encoded: "AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz")!.dropFirst())
    static let text = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
    static let signature = "\u{2014} PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"

    static func signer() throws -> NoteSigner {
        try NoteSigner(name: "PeterNeumann", key: Ed25519SigningKey(seed: seed))
    }

    @Test func signsAsTheReferenceDoes() throws {
        let signer = try Self.signer()
        #expect(signer.verifierKey == Self.verifierKey)
        #expect(NoteVerifier(signer) == (try NoteVerifier(verifierKey: Self.verifierKey)))
        #expect(try signer.signatureLine(for: Self.text) == Self.signature)
        #expect(try signer.sign(Self.text) == Self.text + "\n" + Self.signature)
    }

    @Test func opensOnlyWhatItsKeySigned() throws {
        let verifier = try NoteVerifier(verifierKey: Self.verifierKey)
        let note = Self.text + "\n" + Self.signature
        #expect(try verifier.open(note) == Self.text)
        let other = try NoteSigner(name: "Other", key: Ed25519SigningKey.generate().key)
        // Another key's signature beside it is ignored.
        #expect(try verifier.open(note + other.signatureLine(for: Self.text)) == Self.text)
        #expect(throws: AuditError(.invalidNote, "the signature of PeterNeumann does not verify")) {
            try verifier.open(Self.text.replacingOccurrences(of: "problem,", with: "problem;") + "\n" + Self.signature)
        }
        #expect(throws: AuditError(.invalidNote, "the note has no signature of PeterNeumann")) {
            try verifier.open(other.sign(Self.text))
        }
        #expect(throws: AuditError(.invalidNote, "the note has no blank line before its signatures")) {
            try verifier.open(Self.text + Self.signature)
        }
    }

    @Test func refusesMalformedVerifierKeys() {
        let cases: [(String, String)] = [
            ("PeterNeumann+c74f20a3", "a verifier key is <name>+<key ID>+<key>, three parts apart by '+'"),
            ("+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", "the verifier key's name is not a key name"),
            ("PeterNeumann+c74f20+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", "the verifier key's ID is not 8 hex digits"),
            ("PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq", "the verifier key is not base64 of 0x01 and a 32-byte Ed25519 key"),
            ("PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", "the verifier key's ID does not match its name and key"),
        ]
        for (key, detail) in cases {
            #expect(throws: AuditError(.invalidNote, detail)) { try NoteVerifier(verifierKey: key) }
        }
    }

    @Test func checkpointsRoundTripThroughASignedNote() throws {
        let leaves = (0..<5).map { MerkleTree.leafHash([UInt8($0)]) }
        let checkpoint = TreeCheckpoint(origin: "mediactl.test/audit", size: 5, root: MerkleTree.root(leaves[...]))
        #expect(checkpoint.text == "mediactl.test/audit\n5\n\(Data(checkpoint.root.bytes).base64EncodedString())\n")
        let signer = try NoteSigner(name: "mediactl.test/audit", key: Ed25519SigningKey.generate().key)
        let note = try signer.sign(checkpoint.text)
        let opened = try TreeCheckpoint(text: NoteVerifier(verifierKey: signer.verifierKey).open(note))
        #expect(opened == checkpoint)
        #expect(throws: AuditError(.invalidNote, "the checkpoint's size is not a decimal number without leading zeros")) {
            try TreeCheckpoint(text: "o\n05\n\(Data(checkpoint.root.bytes).base64EncodedString())\n")
        }
        #expect(throws: AuditError(.invalidNote, "the checkpoint's root is not the base64 of 32 bytes")) {
            try TreeCheckpoint(text: "o\n5\nAAAA\n")
        }
    }

    /// The key's base64 may hold '+': only the first two '+' separate the parts.
    @Test func aKeyWhoseBase64HoldsAPlusParses() throws {
        let signer = try (1...255).lazy.map { try NoteSigner(name: "log", key: Ed25519SigningKey(seed: Array(repeating: UInt8($0), count: 32))) }
            .first { $0.verifierKey.split(separator: "+").count > 3 }
        let key = try #require(signer)
        #expect(try NoteVerifier(verifierKey: key.verifierKey).publicKey == key.key.publicKey)
    }
}
