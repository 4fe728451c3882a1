import MediaCrypto

/// A verified signed URL: who it is for, until when, and the query without its four signature parameters.
public struct VerifiedSignature: Sendable, Hashable {
    /// `sub`: the subject, whose keyed digest is the request's partition.
    public let subject: String
    /// `exp`: Unix seconds.
    public let expires: Int64
    /// `kid`.
    public let keyID: String
    /// The other parameters, as sent and in the order sent, joined with `&`; `nil` when there are none.
    public let query: String?

    public init(subject: String, expires: Int64, keyID: String, query: String?) {
        self.subject = subject
        self.expires = expires
        self.keyID = keyID
        self.query = query
    }
}

/// Checks signed capability URLs (docs/signed-urls.md) against a tier's ``SigningKeyring``.
///
/// Order of the checks, each with its refusal: the path in canonical form (``CanonicalPath``), every parameter
/// present once and well formed (`signature-malformed`), the key id known (`unknown-key-id`), the HMAC (`signature-invalid`, compared in
/// constant time), the expiry (`signature-expired`: `exp` ≤ now), the lifetime (`signature-lifetime-too-long`:
/// `exp` > now + `maxLifetime` + ``clockSkew``). Pure: time is a parameter.
public struct SignatureVerifier: Sendable {
    /// Seconds of clock skew allowed between the signer and mediactl when judging the lifetime: 30.
    public static let clockSkew: Int64 = 30

    /// The keys of the tier.
    public let keyring: SigningKeyring
    /// The tier's `signedURLs.maxLifetime`, seconds.
    public let maxLifetime: Int64

    public init(keyring: SigningKeyring, maxLifetime: Int64) {
        self.keyring = keyring
        self.maxLifetime = maxLifetime
    }

    /// The query's parameters (the text between `&`s), or `nil` when none of them is named `exp`, `sub`,
    /// `kid` or `sig` (an unsigned request).
    /// - Complexity: one pass over the query's bytes; no copy unless it is signed.
    public static func parameters(ofSigned query: Substring?) -> [Substring]? {
        guard let query, !query.isEmpty else { return nil }
        let bytes = query.utf8
        var parameters: [Substring] = []
        var signed = false
        var start = bytes.startIndex
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            let parameter = query[start..<end]
            if !signed {
                let name = parameter.utf8.prefix { $0 != UInt8(ascii: "=") }
                signed = name.count == 3 && (name.elementsEqual("exp".utf8) || name.elementsEqual("sub".utf8)
                                             || name.elementsEqual("kid".utf8) || name.elementsEqual("sig".utf8))
            }
            parameters.append(parameter)
            guard end != bytes.endIndex else { break }
            start = bytes.index(after: end)
        }
        return signed ? parameters : nil
    }

    /// Whether `name` is one of `exp`, `sub`, `kid`, `sig` (exactly, as sent).
    @inline(__always)
    public static func isSignatureParameter(_ name: Substring) -> Bool {
        name == "exp" || name == "sub" || name == "kid" || name == "sig"
    }

    /// Verifies one signed request.
    /// - Parameters:
    ///   - path: the path as sent (percent-encoded, origin form), e.g. `/receipts/r-7731.png`.
    ///   - parameters: the query's parameters (``parameters(ofSigned:)``).
    ///   - now: Unix seconds.
    /// - Returns: the verified signature, or the refusal.
    public func verify(path: String, parameters: [Substring], now: Double) -> Result<VerifiedSignature, SignatureRefusal> {
        guard CanonicalPath.isCanonical(path) else { return .failure(SignatureRefusal(.malformed, CanonicalPath.refusal)) }
        var expires: Substring?, subject: Substring?, keyID: Substring?, signature: Substring?
        var others: [Substring] = []
        others.reserveCapacity(parameters.count)
        for parameter in parameters {
            guard !parameter.isEmpty else {
                return .failure(SignatureRefusal(.malformed, "the query of a signed URL has an empty parameter"))
            }
            let (name, value) = SigningString.split(parameter)
            let repeated: Bool
            switch name {
            case "exp": repeated = expires != nil; expires = value
            case "sub": repeated = subject != nil; subject = value
            case "kid": repeated = keyID != nil; keyID = value
            case "sig": repeated = signature != nil; signature = value
            default:
                others.append(parameter)
                continue
            }
            if repeated { return .failure(SignatureRefusal(.malformed, "the signed URL's \(name) parameter is repeated")) }
        }
        for (name, value) in [("exp", expires), ("sub", subject), ("kid", keyID), ("sig", signature)] where value == nil {
            return .failure(SignatureRefusal(.malformed, "the signed URL's \(name) parameter is missing"))
        }
        guard let expiresText = expires, let expiry = SignedURLParameters.expiry(expiresText) else {
            return .failure(SignatureRefusal(.malformed, "the signed URL's exp parameter is not Unix seconds"))
        }
        guard let subject, SignedURLParameters.isSubject(subject) else {
            return .failure(SignatureRefusal(.malformed, "the signed URL's sub parameter is not 1 to 128 of A-Z a-z 0-9 . _ -"))
        }
        guard let keyID, SignedURLParameters.isKeyID(keyID) else {
            return .failure(SignatureRefusal(.malformed, "the signed URL's kid parameter is not 1 to 32 of A-Z a-z 0-9 . _ -"))
        }
        guard let signature, signature.utf8.count == SignedURLParameters.signatureLength,
              signature.utf8.allSatisfy({ Base64URL.sextet($0) != nil }) else {
            return .failure(SignatureRefusal(.malformed, "the signed URL's sig parameter is not 43 characters of base64url"))
        }
        guard let key = keyring.key(keyID) else {
            return .failure(SignatureRefusal(.unknownKeyID, "the URL is signed with a key id this tier does not know"))
        }
        let message = SigningString.bytes(keyID: String(keyID), expires: String(expiresText), subject: String(subject),
                                          path: path, parameters: others)
        guard let code = try? HMACSHA256.authenticationCode(for: message, key: key),
              ConstantTime.equals(Array(Base64URL.encode(code).utf8), Array(signature.utf8)) else {
            return .failure(SignatureRefusal(.invalid, "the URL's signature does not verify"))
        }
        if Double(expiry) <= now {
            return .failure(SignatureRefusal(.expired, "the signed URL has expired"))
        }
        if Double(expiry) > now + Double(maxLifetime + Self.clockSkew) {
            return .failure(SignatureRefusal(
                .lifetimeTooLong, "the signed URL expires more than maxLifetime (\(maxLifetime) s) ahead"))
        }
        return .success(VerifiedSignature(subject: String(subject), expires: expiry, keyID: String(keyID),
                                          query: others.isEmpty ? nil : others.joined(separator: "&")))
    }
}
