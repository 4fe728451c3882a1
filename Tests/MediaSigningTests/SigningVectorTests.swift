import Foundation
import MediaSigning
import Testing

/// The three test vectors of docs/signed-urls.md (docs/examples/signed-urls/vectors.json): the signing string, the
/// URL the signer makes, and what the verifier says of it and of every change to it.
@Suite struct SigningVectorTests {
    struct Vector: Decodable, Sendable, CustomTestStringConvertible {
        let name, secret, kid, sub, path, query, signingString, sig, url: String
        let exp: Int64
        var testDescription: String { name }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/examples/signed-urls")
    static let vectors: [Vector] = {
        (try? JSONDecoder().decode([Vector].self, from: Data(contentsOf: folder.appendingPathComponent("vectors.json")))) ?? []
    }()

    func verifier(_ vector: Vector) throws -> SignatureVerifier {
        SignatureVerifier(keyring: try SigningKeyring.parse(Array("\(vector.kid) \(vector.secret)\n".utf8), file: "t"),
                          maxLifetime: 900)
    }

    func verify(_ target: String, _ vector: Vector, now: Double) throws -> Result<VerifiedSignature, SignatureRefusal> {
        let mark = try #require(target.firstIndex(of: "?"))
        let parameters = try #require(SignatureVerifier.parameters(ofSigned: target[target.index(after: mark)...]))
        return try verifier(vector).verify(path: String(target[..<mark]), parameters: parameters, now: now)
    }

    func code(_ result: Result<VerifiedSignature, SignatureRefusal>) -> String? {
        if case .failure(let refusal) = result { return refusal.code.rawValue }
        return nil
    }

    @Test func thereAreThree() {
        #expect(Self.vectors.map(\.name) == ["no-query", "sorted-query", "encoded-path-repeated-parameters"])
    }

    @Test(arguments: SigningVectorTests.vectors)
    func signingStringAndURL(_ vector: Vector) throws {
        let parameters = vector.query.isEmpty ? [] : vector.query.split(separator: "&", omittingEmptySubsequences: false)
        #expect(SigningString.bytes(keyID: vector.kid, expires: String(vector.exp), subject: vector.sub, path: vector.path,
                                    parameters: parameters) == Array(vector.signingString.utf8))
        let secret = try #require(Base64URL.decode(vector.secret))
        let url = try URLSigner(keyID: vector.kid, secret: secret)
            .sign(path: vector.path, query: vector.query.isEmpty ? nil : vector.query, subject: vector.sub, expires: vector.exp)
        #expect(url == vector.url)
        #expect(url.hasSuffix("&sig=" + vector.sig))
        #expect(CanonicalPath.isCanonical(vector.path))
    }

    @Test(arguments: SigningVectorTests.vectors)
    func theVerifierAcceptsItAndNoChangeToIt(_ vector: Vector) throws {
        let now = Double(vector.exp - 60)
        let verified = try verify(vector.url, vector, now: now).get()
        #expect(verified == VerifiedSignature(subject: vector.sub, expires: vector.exp, keyID: vector.kid,
                                              query: vector.query.isEmpty ? nil : vector.query))
        let signature = "sig=" + vector.sig
        let changes: [(String, String)] = [
            (vector.url.replacingOccurrences(of: vector.path, with: vector.path + "x"), "signature-invalid"),
            (vector.url.replacingOccurrences(of: "sub=\(vector.sub)", with: "sub=\(vector.sub)x"), "signature-invalid"),
            (vector.url.replacingOccurrences(of: "exp=\(vector.exp)", with: "exp=\(vector.exp + 1)"), "signature-invalid"),
            (vector.url.replacingOccurrences(of: "kid=\(vector.kid)", with: "kid=other"), "unknown-key-id"),
            (vector.url.replacingOccurrences(of: signature, with: "sig=" + String(vector.sig.reversed())), "signature-invalid"),
            (vector.url + "&sig=" + vector.sig, "signature-malformed"),
            (vector.url.replacingOccurrences(of: "&" + signature, with: ""), "signature-malformed"),
            (vector.url.replacingOccurrences(of: "exp=\(vector.exp)", with: "exp=0\(vector.exp)"), "signature-malformed"),
            (vector.url.replacingOccurrences(of: "?", with: "?w=288&"), "signature-invalid"),
        ]
        for (target, expected) in changes {
            #expect(code(try verify(target, vector, now: now)) == expected, "\(target)")
        }
        #expect(code(try verify(vector.url, vector, now: Double(vector.exp))) == "signature-expired")
        #expect(code(try verify(vector.url, vector, now: Double(vector.exp - 900 - 31))) == "signature-lifetime-too-long")
        #expect(code(try verify(vector.url, vector, now: Double(vector.exp - 900 - 30))) == nil)
    }

    @Test func aChangedVariantParameterIsAnotherSignature() throws {
        let vector = Self.vectors[1]
        let widened = vector.url.replacingOccurrences(of: "w=144", with: "w=288")
        #expect(code(try verify(widened, vector, now: Double(vector.exp - 60))) == "signature-invalid")
        // Reordering the other parameters keeps the signature (they are sorted for signing).
        let reordered = vector.url.replacingOccurrences(of: "w=144&fmt=webp&dpr=2", with: "dpr=2&w=144&fmt=webp")
        #expect(code(try verify(reordered, vector, now: Double(vector.exp - 60))) == nil)
    }

    @Test func canonicalPaths() {
        for path in ["/receipts/r-7731.png", "/receipts/caf%C3%A9-2026.png", "/a/b;c=d/@:!$&'()*+,=~._-", "/"] {
            #expect(CanonicalPath.isCanonical(path), "\(path)")
        }
        for path in ["/%72eceipts/a.png", "/receipts/caf%c3%a9.png", "/a%2Fb", "/a%2fb", "/a b", "/a%", "/a%4", "a/b", "",
                     "/a?b", "/a#b", "/caf\u{E9}"] {
            #expect(!CanonicalPath.isCanonical(path), "\(path)")
        }
        #expect(CanonicalPath.encode(segment: "café 2026.png") == "caf%C3%A9%202026.png")
    }
}
