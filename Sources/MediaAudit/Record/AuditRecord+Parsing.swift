import Foundation

extension AuditRecord {
    /// Why a log line is not a record.
    public enum ParseFailure: Error, Hashable, Sendable {
        /// Not one JSON object.
        case invalidJSON
        /// A JSON object, but a field is missing, unknown, of the wrong type or shape (the detail names it).
        case invalidRecord(String)
    }

    /// Parses one log line (without its trailing newline). Every field of ``fieldNames`` must be present,
    /// the variant fields (``variantFieldNames``), `bodyDigest` (``bodyFieldNames``), `since` (``gapFieldNames``) and
    /// `status` (``statusFieldNames``) may be, no other key is allowed, and each value must have its typed shape. An optional field present must
    /// be a string (absent ones are omitted, never `null`), `derivedFrom` and `transform` come together on a
    /// `store` or `update` record only, `bodyDigest` is on a `store` or `update` record with `bytes` only, and
    /// `since` is on every `gap` record and no other. The hash is not checked here. Lines of logs written before
    /// `bodyDigest` existed parse as before (it is `nil`).
    /// - Throws: ``ParseFailure``, e.g. `invalidRecord("transform is invalid")`,
    ///   `invalidRecord("derivedFrom is not a string")`, `invalidRecord("derivedFrom and transform are allowed
    ///   only on store and update records, got evict")`, `invalidRecord("bodyDigest needs bytes")`,
    ///   `invalidRecord("a gap record needs since")`.
    public static func parse(line: some StringProtocol) throws(ParseFailure) -> AuditRecord {
        guard let data = String(line).data(using: .utf8),
              let any = try? JSONSerialization.jsonObject(with: data, options: []),
              let object = any as? [String: Any]
        else { throw .invalidJSON }
        let unknown = Set(object.keys).subtracting(fieldNames).subtracting(variantFieldNames).subtracting(bodyFieldNames)
            .subtracting(gapFieldNames).subtracting(statusFieldNames).subtracting(tagFieldNames).subtracting(keyIdFieldNames)
        if let first = unknown.sorted().first { throw .invalidRecord("unknown field \(first)") }
        if let missing = fieldNames.first(where: { object[$0] == nil }) {
            throw .invalidRecord("missing field \(missing)")
        }
        func string(_ name: String) throws(ParseFailure) -> String? {
            let value = object[name]!
            if value is NSNull { return nil }
            guard let text = value as? String else { throw .invalidRecord("\(name) is not a string or null") }
            return text
        }
        func integer(_ name: String) throws(ParseFailure) -> Int? {
            let value = object[name]!
            if value is NSNull { return nil }
            // JSONSerialization yields NSNumber: objCType `c` for true/false, `d` for any literal with a
            // fraction or exponent, an integer type otherwise.
            guard let number = value as? NSNumber, ["s", "i", "l", "q", "S", "I", "L", "Q"].contains(String(cString: number.objCType)),
                  case let int = number.intValue, int >= 0, String(int) == number.stringValue
            else {
                throw .invalidRecord("\(name) is not a non-negative integer or null")
            }
            return int
        }
        /// An optional integer field (`status`): absent is `nil`; present, a non-negative integer (`null` is not
        /// canonical).
        func optionalInteger(_ name: String) throws(ParseFailure) -> Int? {
            guard let value = object[name] else { return nil }
            guard !(value is NSNull), let number = try? integer(name) else {
                throw .invalidRecord("\(name) is not a non-negative integer")
            }
            return number
        }
        func typed<T>(_ name: String, _ make: (String) throws -> T) throws(ParseFailure) -> T? {
            guard let text = try string(name) else { return nil }
            do { return try make(text) } catch { throw .invalidRecord("\(name) is invalid") }
        }
        /// An optional field (`derivedFrom`, `transform`, `bodyDigest`): absent is `nil`; present, it must be a
        /// valid string (`null` is not canonical).
        func variant<T>(_ name: String, _ make: (String) throws -> T) throws(ParseFailure) -> T? {
            guard let value = object[name] else { return nil }
            guard let text = value as? String else { throw .invalidRecord("\(name) is not a string") }
            do { return try make(text) } catch { throw .invalidRecord("\(name) is invalid") }
        }
        guard let seq = try integer("seq"), seq >= 1 else { throw .invalidRecord("seq is not an integer >= 1") }
        guard let time = try typed("time", { text -> AuditTime in
            guard let time = AuditTime(rfc3339: text) else { throw AuditError(.invalidNumber, "time") }
            return time
        }) else { throw .invalidRecord("time is null") }
        guard let event = try typed("event", { text -> AuditEvent in
            guard let event = AuditEvent(rawValue: text) else { throw AuditError(.invalidName, "event") }
            return event
        }) else { throw .invalidRecord("event is null") }
        let storage = try typed("storage", { text -> AuditStorage in
            guard let storage = AuditStorage(rawValue: text) else { throw AuditError(.invalidName, "storage") }
            return storage
        })
        guard let prev = try typed("prev", AuditDigest.init(hex:)) else { throw .invalidRecord("prev is null") }
        guard let hash = try typed("hash", AuditDigest.init(hex:)) else { throw .invalidRecord("hash is null") }
        let partition = try typed("partition", AuditDigest.init(hex:))
        let url = try typed("url", AuditURL.init(reduced:))
        let scope: AuditScope
        do { scope = try AuditScope(partition: partition, url: url) } catch {
            throw .invalidRecord("url is present on a partitioned record")
        }
        let entry = AuditEntry(
            event: event, tier: try typed("tier", { try AuditName($0) }), route: try typed("route", { try AuditName($0) }),
            storage: storage, key: try typed("key", AuditDigest.init(hex:)), scope: scope,
            reason: try typed("reason", { try ReasonCode($0) }), bytes: try integer("bytes"), ttl: try integer("ttl"),
            count: try integer("count"), derivedFrom: try variant("derivedFrom", AuditDigest.init(hex:)),
            transform: try variant("transform", { try AuditTransform($0) }),
            bodyDigest: try variant("bodyDigest", AuditDigest.init(hex:)),
            since: try variant("since", { text -> AuditTime in
                guard let time = AuditTime(rfc3339: text) else { throw AuditError(.invalidGap, "since") }
                return time
            }),
            status: try optionalInteger("status"), tag: try variant("tag", AuditDigest.init(hex:)),
            keyId: try variant("keyId", { try AuditKeyID($0) }))
        if let problem = entry.derivationProblem ?? entry.bodyDigestProblem ?? entry.gapProblem ?? entry.statusProblem
            ?? entry.tagProblem ?? entry.keyIdProblem {
            throw .invalidRecord(problem)
        }
        return AuditRecord(seq: seq, time: time, entry: entry, prev: prev, hash: hash)
    }
}
