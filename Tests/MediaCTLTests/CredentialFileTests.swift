import MediaTestSupport
import Testing

@testable import MediaCTL

@Suite struct CredentialFileTests {
    @Test(arguments: [
        ("t1", "t1"), ("t1\n", "t1"), ("t1\r\n", "t1"), ("  t1 \t\n", "t1"), ("Bearer t1\n", "t1"),
        ("bearer   t1", "t1"), ("BEARER\tmF_9.B5f-4.1JqM", "mF_9.B5f-4.1JqM"), ("abc+/~==", "abc+/~=="),
    ])
    func acceptedForms(_ contents: String, _ token: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.file("token", contents: contents)
        #expect(try CredentialFile.readToken(atPath: path) == token)
    }

    @Test(arguments: [
        ("", "is empty"), ("\n", "is empty"), (" \t \n", "is empty"), ("t1\nt2\n", "must hold one line"),
        ("t1\n\n", "must hold one line"), ("t1\rt2", "must hold one line"),
        ("Bearer", "does not hold a bearer token (RFC 6750 b64token)"),
        ("Bearer ", "does not hold a bearer token (RFC 6750 b64token)"),
        ("Basic dTE6cA==", "does not hold a bearer token (RFC 6750 b64token)"),
        ("t1 t2", "does not hold a bearer token (RFC 6750 b64token)"),
        ("=abc", "does not hold a bearer token (RFC 6750 b64token)"),
        ("ab=c", "does not hold a bearer token (RFC 6750 b64token)"),
        ("tök", "does not hold a bearer token (RFC 6750 b64token)"),
    ])
    func refusedContents(_ contents: String, _ problem: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.file("token", contents: contents)
        let error = #expect(throws: CommandError.self) { try CredentialFile.readToken(atPath: path) }
        #expect(error?.message == "credential file '\(path)' \(problem)")
        #expect(error?.code == .invalidFile)
        #expect(error?.exitCode == .unusableInput)
    }

    @Test func oversizedFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fits = try directory.file("fits", contents: String(repeating: "a", count: 8192))
        let over = try directory.file("over", contents: String(repeating: "a", count: 8193))
        #expect(try CredentialFile.readToken(atPath: fits).count == 8192)
        let error = #expect(throws: CommandError.self) { try CredentialFile.readToken(atPath: over) }
        #expect(error?.message == "credential file '\(over)' is larger than 8192 bytes")
    }

    @Test func unreadableFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.path + "/missing"
        let error = #expect(throws: CommandError.self) { try CredentialFile.readToken(atPath: missing) }
        #expect(error?.message == "cannot read credential file '\(missing)': No such file or directory (errno 2)")
        #expect(error?.code == .unreadableFile)
        #expect(error?.exitCode == .unusableInput)
        let folder = #expect(throws: CommandError.self) { try CredentialFile.readToken(atPath: directory.path) }
        #expect(folder?.message == "cannot read credential file '\(directory.path)': not a regular file")
    }

    @Test func errorsNeverContainTheToken() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.file("token", contents: "SECRET-TOKEN\nSECRET-TWO")
        let error = #expect(throws: CommandError.self) { try CredentialFile.readToken(atPath: path) }
        #expect(error?.message.contains("SECRET") == false)
        #expect(error?.description == "invalid-file: credential file '\(path)' must hold one line")
    }
}
