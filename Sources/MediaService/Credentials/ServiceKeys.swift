import MediaCore
import MediaCrypto
import Synchronization

/// The per-process keys of a ``MediaService`` and the keyed digests the stages take under them (``RequestKeys``):
/// bearer partitions (``PartitionKeyer``), signed-URL subject partitions (``SubjectKeyer``, the install's key,
/// opened on first use) and the keyed digests of `Vary` fields and non-bearer credentials. Never the raw credential
/// or subject. ``destroy()`` zeroes them at stop.
final class ServiceKeys: RequestKeys {
    /// Bearer-token partitions, under a key made for this process.
    let keyer: PartitionKeyer
    /// The key of ``digest(_:)``, made for this process.
    private let varyKey: SymmetricKey
    /// ``varyKey`` with its padded blocks hashed once (``MediaCrypto/HMACSHA256Key``): every digest costs its message.
    private let varyMAC: HMACSHA256Key
    /// Partitions of signed-URL subjects, opened (made on first use) once a policy set has a tier with
    /// `signedURLs`, or by a purge of a subject.
    private let subjectKeyer = Mutex<SubjectKeyer?>(nil)
    /// Where the subject key lives (`<state>/keys/subject.key`).
    private let stateDirectory: String

    /// New per-process keys for the state directory `stateDirectory`.
    /// - Throws: when the system cannot give random bytes.
    init(stateDirectory: String) throws {
        keyer = PartitionKeyer(key: try SymmetricKey())
        varyKey = try SymmetricKey()
        varyMAC = try HMACSHA256Key(varyKey)
        self.stateDirectory = stateDirectory
    }

    func partition(for token: BearerToken) -> String? { try? keyer.partition(for: token).hex }

    func partition(forAuthorization value: String) -> String? { keyer.partition(forAuthorization: value) }

    func partition(forSubject subject: String) -> String? { (try? subjects())?.partition(forSubject: subject) }

    /// Hex HMAC-SHA256 of `value` under the per-process key: secondary keys of sensitive `Vary`
    /// fields and partitions of non-bearer credentials. Never the raw value; `"destroyed"` after ``destroy()``.
    func digest(_ value: String) -> String {
        guard !varyKey.isDestroyed, !varyMAC.isDestroyed else { return "destroyed" }
        return Hex.encode(varyMAC.authenticationCode(for: value.utf8))
    }

    /// The subject keyer, opened (its key file made when missing) on first use.
    /// - Throws: ``ServiceError`` `state-directory` when the key file cannot be made or is refused.
    func subjects() throws(ServiceError) -> SubjectKeyer {
        let directory = stateDirectory
        return try subjectKeyer.withLock { (keyer: inout SubjectKeyer?) throws(ServiceError) -> SubjectKeyer in
            if let keyer { return keyer }
            do {
                let opened = try SubjectKeyer.open(stateDirectory: directory)
                keyer = opened
                return opened
            } catch {
                throw ServiceError(.stateDirectory, "\(error)")
            }
        }
    }

    /// Zeroes every key: partitions and digests can no longer be computed.
    func destroy() {
        keyer.destroyKey()
        subjectKeyer.withLock { $0?.destroyKey() }
        varyKey.destroy()
        varyMAC.destroy()
    }
}
