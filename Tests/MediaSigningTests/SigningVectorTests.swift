import Foundation
import MediaCrypto
import MediaSigning
import Testing

/// One test vector of docs/signed-urls.md ("Test vectors"), as docs/examples/signed-urls/vectors.json writes it.
struct SigningVector: Decodable, Sendable, CustomTestStringConvertible {
    let name, secret, kid, sub, path, query, signingString, sig, url: String
    let exp: Int64
    var testDescription: String { name }

    /// docs/examples/signed-urls/, from Tests/MediaSigningTests/<this file>.
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/examples/signed-urls")

    static func load() throws -> [SigningVector] {
        try JSONDecoder().decode([SigningVector].self, from: Data(contentsOf: examples.appendingPathComponent("vectors.json")))
    }

    /// Every vector (empty when the file cannot be read; `theFileHasTheThreeVectors` fails then).
    static let all: [SigningVector] = (try? load()) ?? []

    var queryParameters: [Substring] { query.isEmpty ? [] : query.split(separator: "&", omittingEmptySubsequences: false) }
    var secretBytes: [UInt8] { Base64URL.decode(secret) ?? [] }
    var keysFile: String { "\(kid) \(secret)\n" }
}

@Suite struct SigningVectorTests {
    static func verifier(_ vector: SigningVector, keysFile: String? = nil) throws -> SignatureVerifier {
        SignatureVerifier(keyring: try SigningKeyring.parse(Array((keysFile ?? vector.keysFile).utf8), file: "t"),
                          maxLifetime: 900)
    }

    /// Verifies a request target as admission does: the path before the first `?`, the raw query after it.
    static func verify(_ target: String, with verifier: SignatureVerifier, now: Double)
        -> Result<VerifiedSignature, SignatureRefusal>?
    {
        let mark = target.firstIndex(of: "?")
        let path = String(target[..<(mark ?? target.endIndex)])
        let query = mark.map { target[target.index(after: $0)...] }
        guard let parameters = SignatureVerifier.parameters(ofSigned: query) else { return nil }
        return verifier.verify(path: path, parameters: parameters, now: now)
    }

    /// `"verified"`, the refusal's code, or `"unsigned"`.
    static func outcome(_ target: String, with verifier: SignatureVerifier, now: Double) -> String {
        switch verify(target, with: verifier, now: now) {
        case .none: "unsigned"
        case .success: "verified"
        case .failure(let refusal): refusal.code.rawValue
        }
    }

    /// `target` with its one occurrence of `old` replaced by `new` (an issue when `old` is not there exactly once).
    static func replacing(_ old: String, with new: String, in target: String) -> String {
        let pieces = target.components(separatedBy: old)
        guard pieces.count == 2 else {
            Issue.record("\(old) occurs \(pieces.count - 1) times in \(target)")
            return target
        }
        return pieces[0] + new + pieces[1]
    }

    @Test func theFileHasTheThreeVectors() throws {
        let vectors = try SigningVector.load()
        #expect(vectors.map(\.name) == ["no-query", "sorted-query", "encoded-path-repeated-parameters"])
        #expect(vectors.map(\.secretBytes) == [[UInt8](0x00...0x1F), [UInt8](0x00...0x1F), [UInt8](0x80...0xAF)])
        #expect(vectors.map(\.query) == ["", "w=144&fmt=webp&dpr=2", "w=144&tag=b&raw=&tag=a&raw"])
        let queryLines = vectors.map { String($0.signingString.split(separator: "\n", omittingEmptySubsequences: false).last ?? "?") }
        #expect(queryLines == ["", "dpr=2&fmt=webp&w=144", "raw&raw=&tag=a&tag=b&w=144"])
    }

    @Test(arguments: SigningVector.all) func theFieldsAgree(_ vector: SigningVector) {
        let lines = ["mediactl-url-v1", vector.kid, String(vector.exp), vector.sub, vector.path,
                     SigningString.sorted(vector.queryParameters).joined(separator: "&")]
        #expect(vector.signingString == lines.joined(separator: "\n"))
        let head = vector.query.isEmpty ? vector.path + "?" : vector.path + "?" + vector.query + "&"
        #expect(vector.url == head + "exp=\(vector.exp)&sub=\(vector.sub)&kid=\(vector.kid)&sig=\(vector.sig)")
        #expect(vector.sig.utf8.count == 43)
        #expect(CanonicalPath.isCanonical(vector.path))
    }

    @Test(arguments: SigningVector.all) func signingStringAndSig(_ vector: SigningVector) throws {
        let bytes = SigningString.bytes(keyID: vector.kid, expires: String(vector.exp), subject: vector.sub,
                                        path: vector.path, parameters: vector.queryParameters)
        #expect(bytes == Array(vector.signingString.utf8))
        let code = try HMACSHA256.authenticationCode(for: bytes, key: SymmetricKey(bytes: vector.secretBytes))
        #expect(Base64URL.encode(code) == vector.sig)
    }

    @Test(arguments: SigningVector.all) func signerMakesTheURL(_ vector: SigningVector) throws {
        let signer = try URLSigner(keyID: vector.kid, secret: vector.secretBytes)
        #expect(try signer.sign(path: vector.path, query: vector.query.isEmpty ? nil : vector.query,
                                subject: vector.sub, expires: vector.exp) == vector.url)
        #expect(try signer.sign(path: vector.path, query: vector.query, subject: vector.sub, expires: vector.exp) == vector.url)
    }

    @Test(arguments: SigningVector.all) func verifierAcceptsTheURL(_ vector: SigningVector) throws {
        let result = try #require(Self.verify(vector.url, with: try Self.verifier(vector), now: Double(vector.exp - 60)))
        #expect(try result.get() == VerifiedSignature(subject: vector.sub, expires: vector.exp, keyID: vector.kid,
                                                       query: vector.query.isEmpty ? nil : vector.query))
    }

    @Test(arguments: SigningVector.all) func everySignedPartIsCovered(_ vector: SigningVector) throws {
        let verifier = try Self.verifier(vector)
        let now = Double(vector.exp - 60)
        func outcome(_ target: String) -> String { Self.outcome(target, with: verifier, now: now) }
        let url = vector.url

        #expect(outcome(url) == "verified")
        #expect(outcome("/x" + url) == "signature-invalid")
        #expect(outcome(Self.replacing(vector.path + "?", with: vector.path + "2?", in: url)) == "signature-invalid")
        if vector.query.contains("w=144") {
            #expect(outcome(Self.replacing("w=144&", with: "w=288&", in: url)) == "signature-invalid")
            #expect(outcome(Self.replacing("w=144&", with: "", in: url)) == "signature-invalid")
        }
        #expect(outcome(Self.replacing("?", with: "?h=96&", in: url)) == "signature-invalid")
        #expect(outcome(Self.replacing("&sub=\(vector.sub)&", with: "&sub=\(vector.sub)0&", in: url)) == "signature-invalid")
        #expect(outcome(Self.replacing("exp=\(vector.exp)&", with: "exp=\(vector.exp + 1)&", in: url)) == "signature-invalid")
        let first: String = vector.sig.hasPrefix("A") ? "B" : "A"
        #expect(outcome(Self.replacing("&sig=\(vector.sig)", with: "&sig=" + first + vector.sig.dropFirst(), in: url))
            == "signature-invalid")
        let otherKid = Self.replacing("&kid=\(vector.kid)&", with: "&kid=other&", in: url)
        #expect(outcome(otherKid) == "unknown-key-id")
        // A known key id with the same secret: kid is signed too.
        let twoKeys = try Self.verifier(vector, keysFile: vector.keysFile + "other \(vector.secret)\n")
        #expect(Self.outcome(otherKid, with: twoKeys, now: now) == "signature-invalid")
        #expect(Self.outcome(url, with: twoKeys, now: now) == "verified")
    }

    @Test(arguments: SigningVector.all) func theQueryOrderIsNotSigned(_ vector: SigningVector) throws {
        let verifier = try Self.verifier(vector)
        let now = Double(vector.exp - 60)
        let four = ["exp=\(vector.exp)", "sub=\(vector.sub)", "kid=\(vector.kid)", "sig=\(vector.sig)"]
        let others = vector.queryParameters.map(String.init)
        let moved = vector.path + "?" + (Array(four.reversed()) + Array(others.reversed())).joined(separator: "&")
        let signature = try #require(Self.verify(moved, with: verifier, now: now)).get()
        #expect(signature.query == (others.isEmpty ? nil : others.reversed().joined(separator: "&")))
    }

    @Test(arguments: SigningVector.all) func expiryAndLifetime(_ vector: SigningVector) throws {
        let verifier = try Self.verifier(vector)
        let exp = Double(vector.exp)
        func outcome(now: Double) -> String { Self.outcome(vector.url, with: verifier, now: now) }
        #expect(outcome(now: exp - 1) == "verified")
        #expect(outcome(now: exp - 0.5) == "verified")
        #expect(outcome(now: exp) == "signature-expired")
        #expect(outcome(now: exp + 1) == "signature-expired")
        #expect(outcome(now: exp - 900 - 30) == "verified")
        #expect(outcome(now: exp - 900 - 31) == "signature-lifetime-too-long")
    }

    @Test(arguments: SigningVector.all) func malformedParameters(_ vector: SigningVector) throws {
        let verifier = try Self.verifier(vector)
        func outcome(_ target: String) -> String { Self.outcome(target, with: verifier, now: Double(vector.exp - 60)) }
        let url = vector.url
        #expect(outcome(url + "&sig=\(vector.sig)") == "signature-malformed")
        #expect(outcome(url + "&exp=\(vector.exp)") == "signature-malformed")
        #expect(outcome(url + "&sub=\(vector.sub)") == "signature-malformed")
        #expect(outcome(url + "&kid=\(vector.kid)") == "signature-malformed")
        #expect(outcome(Self.replacing("&sig=\(vector.sig)", with: "", in: url)) == "signature-malformed")
        #expect(outcome(url + "&") == "signature-malformed")
        #expect(outcome(Self.replacing("exp=\(vector.exp)&", with: "exp=0\(vector.exp)&", in: url)) == "signature-malformed")
        #expect(outcome(Self.replacing("&sig=\(vector.sig)", with: "&sig=\(vector.sig)=", in: url)) == "signature-malformed")
        #expect(outcome(Self.replacing("&sub=\(vector.sub)&", with: "&sub=a%20b&", in: url)) == "signature-malformed")
        // Malformed is reported before an unknown key id.
        #expect(outcome(Self.replacing("&kid=\(vector.kid)&", with: "&kid=other&", in: url) + "&sig=\(vector.sig)")
            == "signature-malformed")
        #expect(outcome(vector.path) == "unsigned")
        #expect(outcome(vector.path + "?w=144") == "unsigned")
    }

    @Test func canonicalPaths() {
        for path in ["/receipts/r-7731.png", "/receipts/caf%C3%A9.png", "/receipts/caf%C3%A9-2026.png",
                     "/a/b;v=1/@x:y~!$&'()*+,.png", "/receipts/a%20b.png", "/"] {
            #expect(CanonicalPath.isCanonical(path), "\(path)")
        }
        for path in ["/%72eceipts/a.png", "/receipts/caf%c3%a9.png", "/receipts/caf%C3%a9.png", "/receipts/r%2D7731.png",
                     "/receipts/a%2Fb.png", "/receipts/caf\u{E9}.png", "/receipts/a b.png", "/receipts/a%.png",
                     "/receipts/a%2.png", "/receipts/a%G0.png", "/receipts/a.png?w=1", "/receipts/a.png#x", "receipts/a.png", ""] {
            #expect(!CanonicalPath.isCanonical(path), "\(path)")
        }
        #expect(CanonicalPath.encode(segment: "caf\u{E9}-2026.png") == "caf%C3%A9-2026.png")
        #expect(CanonicalPath.encode(segment: "a b/c.png") == "a%20b%2Fc.png")
    }

    @Test func sortingIsByNameThenValueThenText() {
        #expect(SigningString.sorted(["w=144", "fmt=webp", "dpr=2"]) == ["dpr=2", "fmt=webp", "w=144"])
        #expect(SigningString.sorted(["w=144", "tag=b", "raw=", "tag=a", "raw"]) == ["raw", "raw=", "tag=a", "tag=b", "w=144"])
        #expect(SigningString.sorted(["b=1", "B=2", "a=b=c", "a=b"]) == ["B=2", "a=b", "a=b=c", "b=1"])
        // The name first: "a=z" (name a) before "a-b=1" (name a-b), though "a-b=1" < "a=z" as whole text.
        #expect(SigningString.sorted(["a-b=1", "a=z"]) == ["a=z", "a-b=1"])
    }

    @Test func dotAndEmptySegmentsAreNeverCanonicalAndNeverSigned() throws {
        for path in ["/a/../b", "/a/./b", "/a/..;x/b", "//a", "/a//b", "/.", "/.."] {
            #expect(!CanonicalPath.isCanonical(path), "\(path)")
        }
        for path in ["/a/", "/", "/a/.b", "/a/..b", "/a/b;c"] {
            #expect(CanonicalPath.isCanonical(path), "\(path)")
        }
        let signer = try URLSigner(keyID: "k", secret: Array(repeating: 1, count: 32))
        #expect(throws: SigningError(.invalidPath, "the path must start with / and be in canonical form (docs/signed-urls.md, \"Paths\")")) {
            try signer.sign(path: "/receipts/../a.png", subject: "u", expires: 1)
        }
        let verifier = SignatureVerifier(keyring: try SigningKeyring.parse(Array("k \(Base64URL.encode(Array(repeating: 1, count: 32)))\n".utf8), file: "t"),
                                         maxLifetime: 900)
        let refusal = verifier.verify(path: "/a/../b", parameters: ["exp=1", "sub=u", "kid=k", "sig=x"], now: 0)
        #expect(refusal == .failure(SignatureRefusal(.malformed, CanonicalPath.refusal)))
    }
}
