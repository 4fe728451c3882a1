import Foundation
import MediaSigning
import Testing

/// Keys files (docs/signed-urls.md, "Keys file") and the owner-only rule of ``SecretFile``.
@Suite struct SigningKeyringTests {
    static let secret = Base64URL.encode(Array(UInt8(0)...UInt8(31)))
    static let allowed = "lines 'KID SECRET': KID 1 to 32 of A-Z a-z 0-9 . _ -, SECRET the unpadded base64url of at least 32 random bytes; # comments"

    func parse(_ text: String) throws(SecretFileError) -> SigningKeyring {
        try SigningKeyring.parse(Array(text.utf8), file: "k.keys")
    }

    @Test func severalKeysCommentsAndBlankLines() throws {
        let keyring = try parse("# rotation\n\n2026-11 \(Self.secret)\r\n2026-12\t\(Base64URL.encode(Array(repeating: 7, count: 48)))  # new\n")
        #expect(keyring.keyIDs == ["2026-11", "2026-12"])
        #expect(keyring.key("2026-12")?.byteCount == 48)
        #expect(keyring.key("2026-13") == nil)
        #expect(keyring.description == "SigningKeyring(2026-11, 2026-12)")
        #expect(!String(describing: keyring).contains(Self.secret))
    }

    @Test func everyMalformedLineIsNamedWithoutItsSecret() {
        let cases: [(String, String)] = [
            ("", "has no key"),
            ("# only a comment\n", "has no key"),
            ("k1\n", "line 1 has 1 words"),
            ("k1 \(Self.secret) extra\n", "line 1 has 3 words"),
            ("\nk/1 \(Self.secret)\n", "line 2: the key id is not valid"),
            ("k1 \(Self.secret)\nk1 \(Self.secret)\n", "line 2: key id k1 is used twice"),
            ("k1 \(Self.secret)=\n", "line 1: the secret of k1 is not unpadded base64url"),
            ("k1 +\(Self.secret.dropFirst())\n", "line 1: the secret of k1 is not unpadded base64url"),
            ("k1 \(Base64URL.encode(Array(repeating: 1, count: 31)))\n", "line 1: the secret of k1 has 31 bytes"),
        ]
        for (text, problem) in cases {
            #expect(throws: SecretFileError(.malformed, file: "k.keys", problem: problem, allowed: Self.allowed)) {
                try parse(text)
            }
        }
    }

    @Test func aFileOthersCanReadIsRefusedNamingItsMode() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keyring-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/r.keys"
        try "k1 \(Self.secret)\n".write(toFile: path, atomically: true, encoding: .utf8)
        for (mode, shown) in [(0o644, "0644"), (0o640, "0640"), (0o604, "0604"), (0o620, "0620")] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            #expect(throws: SecretFileError(
                .insecureMode, file: path, problem: "has mode \(shown): readable or writable by group or others",
                allowed: "a regular file only its owner can read or write (chmod 600)")) {
                try SigningKeyring.load(path)
            }
        }
        for mode in [0o600, 0o400] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            #expect(try SigningKeyring.load(path).keyIDs == ["k1"])
        }
        #expect(throws: SecretFileError(.unreadable, file: folder + "/none.keys", problem: "does not exist",
                                        allowed: "a regular file only its owner can read or write (chmod 600)")) {
            try SigningKeyring.load(folder + "/none.keys")
        }
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.keys", withDestinationPath: path)
        #expect(throws: SecretFileError(.unreadable, file: folder + "/link.keys", problem: "is a symbolic link",
                                        allowed: "a regular file only its owner can read or write (chmod 600)")) {
            try SigningKeyring.load(folder + "/link.keys")
        }
        #expect(throws: SecretFileError(.unreadable, file: folder, problem: "is not a regular file",
                                        allowed: "a regular file only its owner can read or write (chmod 600)")) {
            try SigningKeyring.load(folder)
        }
    }
}
