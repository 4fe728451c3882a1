import MediaTestSupport
import Foundation
import Testing

@testable import MediaCTL

/// `mediactl sign` (docs/cli.md): the first test vector of docs/signed-urls.md, exactly, and every error path.
@Suite struct SignCommandTests {
    static let secret = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"

    func keys(_ folder: TemporaryDirectory, mode: Int = 0o600, text: String? = nil) throws -> String {
        let path = try folder.file("r.keys", contents: text ?? "# test\n2026-12 \(Self.secret)\nold \(Self.secret)\n")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    func run(_ options: SignCommand, now: Double = 1_798_761_300) -> (status: ExitCode, stdout: String, stderr: String) {
        let out = CapturedOutput(), err = CapturedOutput()
        let status = options.run(context: CommandContext(stdout: out, stderr: err, environment: [:]), clock: { now })
        return (status, out.text, err.text)
    }

    @Test func printsTheVectorsURL() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = try keys(folder)
        let plain = run(SignCommand(keysFile: path, keyID: "2026-12", subject: "user-1042", expiresIn: 300,
                                    target: "/receipts/r-7731.png"))
        #expect(plain.status == .success)
        #expect(plain.stderr == "")
        #expect(plain.stdout == "/receipts/r-7731.png?exp=1798761600&sub=user-1042&kid=2026-12&sig=kX9SCqpIIYNNUkJX8MFF1OQRyNAI2TCyywcNlQ-Q-t4\n")
        let query = run(SignCommand(keysFile: path, keyID: "2026-12", subject: "user-1042", expiresIn: 600,
                                    baseURL: "https://media.example.com", target: "/receipts/r-7731.png?w=144&fmt=webp&dpr=2"))
        #expect(query.stdout == "https://media.example.com/receipts/r-7731.png?w=144&fmt=webp&dpr=2&exp=1798761900&sub=user-1042&kid=2026-12&sig=OObFNsBpdpLczrrjyvN4uvPNoucA20FN49lusTd9lKk\n")
    }

    @Test func unusableInputExitsTwoWithoutASecret() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = try keys(folder)
        func options(kid: String = "2026-12", subject: String = "u", target: String = "/r/a.png") -> SignCommand {
            SignCommand(keysFile: path, keyID: kid, subject: subject, expiresIn: 60, target: target)
        }
        let cases: [(SignCommand, String)] = [
            (options(kid: "2027-01"), "mediactl: unknown key id 2027-01 in \(path); the file has: 2026-12, old\n"),
            (options(subject: "a b"), "mediactl: cannot sign: the subject is not 1 to 128 of A-Z a-z 0-9 . _ -\n"),
            (options(target: "/%72/a.png"), "mediactl: cannot sign: the path must start with / and be in canonical form (docs/signed-urls.md, \"Paths\")\n"),
            (options(target: "/r/a.png?sig=x"), "mediactl: cannot sign: the query already has a parameter named sig\n"),
            (SignCommand(keysFile: folder.path + "/none", keyID: "k", subject: "u", expiresIn: 60, target: "/a"),
             "mediactl: \(folder.path)/none: does not exist; allowed: a regular file only its owner can read or write (chmod 600)\n"),
        ]
        for (options, stderr) in cases {
            let result = run(options)
            #expect(result.status == .unusableInput)
            #expect(result.stdout == "")
            #expect(result.stderr == stderr)
        }
        _ = try keys(folder, mode: 0o644)
        let open = run(options())
        #expect(open.stderr == "mediactl: \(path): has mode 0644: readable or writable by group or others; allowed: a regular file only its owner can read or write (chmod 600)\n")
        _ = try keys(folder, text: "k1 \(Self.secret)\nk2 short\n")
        #expect(run(options()).stderr.hasPrefix("mediactl: \(path): line 2: the secret of k2 is not unpadded base64url; allowed: "))
        #expect(!run(options()).stderr.contains(Self.secret))
    }

    @Test func usageErrors() async {
        let base = ["sign", "--keys", "k", "--kid", "k1", "--subject", "u"]
        let cases: [([String], String)] = [
            (["sign", "--kid", "k1", "--subject", "u", "--expires-in", "60", "/a"], "sign requires --keys FILE"),
            (base + ["/a"], "sign requires --expires-in SECONDS"),
            (base + ["--expires-in", "0", "/a"], "invalid --expires-in '0': expected a whole number of seconds from 1 to 86400"),
            (base + ["--expires-in", "86401", "/a"], "invalid --expires-in '86401': expected a whole number of seconds from 1 to 86400"),
            (base + ["--expires-in", "60", "a"], "invalid PATH 'a': must start with '/'"),
            (base + ["--expires-in", "60", "--base-url", "ftp://x", "/a"], "invalid --base-url 'ftp://x': expected http://HOST[:PORT] or https://HOST[:PORT]"),
        ]
        for (arguments, message) in cases {
            let result = await CLIRun.run(arguments)
            #expect(result.status == 64)
            #expect(result.stderr == CLIRun.usageError(message, command: ["sign"]))
        }
    }
}
