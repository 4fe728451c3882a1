import COpenSSL
import MediaCore

/// An Ed25519 signing key (RFC 8032), through OpenSSL: the audit log signs its checkpoints with one. Made from its
/// 32-byte seed (the private key as RFC 8032 and C2SP signed notes store it); signatures are deterministic.
/// `description` shows the public key only.
public final class Ed25519SigningKey: @unchecked Sendable, CustomStringConvertible {
    /// Seed and public-key length, bytes.
    public static let keyByteCount = 32
    /// Signature length, bytes.
    public static let signatureByteCount = 64

    /// The OpenSSL key (immutable once made; EVP_DigestSign on a private key is safe from several threads).
    private let key: OpaquePointer
    /// The 32-byte public key.
    public let publicKey: [UInt8]

    /// The key of a 32-byte seed.
    /// - Throws: ``CryptoError`` `invalid-input` for another length, `openssl-failure` when OpenSSL refuses it.
    public init(seed: [UInt8]) throws(CryptoError) {
        guard seed.count == Self.keyByteCount else {
            throw CryptoError(.invalidInput, "an Ed25519 seed has \(Self.keyByteCount) bytes, not \(seed.count)")
        }
        guard let made = seed.withUnsafeBufferPointer({
            EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, $0.baseAddress, $0.count)
        }) else { throw CryptoError(.openSSLFailure, "EVP_PKEY_new_raw_private_key") }
        var length = Self.keyByteCount
        var bytes = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_get_raw_public_key(made, &bytes, &length) == 1, length == Self.keyByteCount else {
            EVP_PKEY_free(made)
            throw CryptoError(.openSSLFailure, "EVP_PKEY_get_raw_public_key")
        }
        key = made
        publicKey = bytes
    }

    /// A key from a fresh random seed, and that seed (to store).
    /// - Throws: ``CryptoError`` `openssl-failure` when the CSPRNG or OpenSSL fails.
    public static func generate() throws(CryptoError) -> (key: Ed25519SigningKey, seed: [UInt8]) {
        let seed: [UInt8]
        do { seed = try SecureRandom.bytes(count: keyByteCount) } catch {
            throw CryptoError(.openSSLFailure, "the random seed: \(error)")
        }
        return (try Ed25519SigningKey(seed: seed), seed)
    }

    deinit { EVP_PKEY_free(key) }

    /// The 64-byte signature of `message` (RFC 8032 §5.1.6, pure Ed25519).
    /// - Throws: ``CryptoError`` `openssl-failure`.
    public func sign(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError(.openSSLFailure, "EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1 else {
            throw CryptoError(.openSSLFailure, "EVP_DigestSignInit")
        }
        var length = Self.signatureByteCount
        var signature = [UInt8](repeating: 0, count: length)
        let signed = message.withUnsafeBufferPointer {
            EVP_DigestSign(context, &signature, &length, $0.baseAddress, $0.count)
        }
        guard signed == 1, length == Self.signatureByteCount else { throw CryptoError(.openSSLFailure, "EVP_DigestSign") }
        return signature
    }

    /// Whether `signature` is `publicKey`'s Ed25519 signature of `message`.
    public static func verify(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == signatureByteCount, publicKey.count == keyByteCount,
              let key = publicKey.withUnsafeBufferPointer({
                  EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, $0.baseAddress, $0.count)
              })
        else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return false }
        return message.withUnsafeBufferPointer {
            EVP_DigestVerify(context, signature, signature.count, $0.baseAddress, $0.count)
        } == 1
    }

    public var description: String { "Ed25519SigningKey(public: \(Hex.encode(publicKey)))" }
}
