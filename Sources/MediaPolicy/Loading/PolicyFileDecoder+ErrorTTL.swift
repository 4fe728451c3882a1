import MediaCore

extension PolicyFileDecoder {
    /// `errorTTL`: an object of ``Tier/errorTTLKeys`` → seconds (1 to ``PolicyFormat/maximumSeconds``). Every
    /// problem is reported; `nil` when there was one.
    mutating func errorTTL(_ value: JSONValue, at path: String) -> [String: Int]? {
        let keys = Tier.errorTTLKeys
        let allowedKeys = keys.joined(separator: ", ")
        guard case .object(let members) = value else {
            reportType(value, at: path, allowed: "an object of status (\(allowedKeys)) → seconds")
            return nil
        }
        let before = errors.count
        var result: [String: Int] = [:]
        for member in members {
            let keyPath = PolicyFileDecoder.join(path, member.key)
            guard keys.contains(member.key) else {
                let problem = Self.neverStoredReason(member.key)
                    ?? "unknown key" + KeySuggestion.hint(for: member.key, in: keys)
                report(.unknownKey, keyPath, value: member.value, problem: problem, allowed: allowedKeys)
                continue
            }
            guard result[member.key] == nil else {
                report(.duplicateKey, keyPath, value: member.value, problem: "duplicate key", allowed: "each key once per object")
                continue
            }
            if let seconds = integer(member.value, at: keyPath, range: 1...PolicyFormat.maximumSeconds, unit: "seconds") {
                result[member.key] = seconds
            }
        }
        return errors.count == before ? result : nil
    }

    /// Why a status that is no `errorTTL` key is never stored, or `nil` when `key` is no such status.
    static func neverStoredReason(_ key: String) -> String? {
        guard key.utf8.count == 3, let code = Int(key), (100...599).contains(code) else { return nil }
        switch code {
        case 401, 403, 407:
            return "\(code) is never stored: it answers one caller's credentials"
        case 408, 429:
            return "\(code) is never stored: it is about the moment, not the URL"
        case 500...599:
            return "\(code) is never stored: a failing origin is served stale (serveStaleOnError) or coalesced, never remembered as failing"
        case 400...499:
            return "\(code) is not stored: only statuses that depend on the URL alone are"
        default:
            return "\(code) is no error status"
        }
    }

    /// `errorTTL` against the tier's other keys (docs/policy-format.md, "Negative caching"): only an image tier that
    /// is shared, not partitioned and stores at all keeps negative entries.
    mutating func checkErrorTTLContradictions(_ tier: Tier, at path: String) {
        guard !tier.errorTTL.isEmpty else { return }
        let keyPath = "\(path).errorTTL"
        let value = JSONValue.string("{…}")
        let allowed = "errorTTL only on an image tier with partition \"none\" and a storage other than \"none\""
        if !tier.validatesImages {
            report(.contradiction, keyPath, value: value,
                   problem: "a generic tier (contentTypes [\"*/*\"]) stores the origin's error answers as RFC 9111 allows",
                   allowed: allowed)
        } else if tier.partition != .none {
            report(.contradiction, keyPath, value: value,
                   problem: "a negative entry answers every caller, but the tier is partitioned by credential",
                   allowed: allowed)
        } else if tier.storage == .none {
            report(.contradiction, keyPath, value: value, problem: "the tier stores nothing (storage \"none\")",
                   allowed: allowed)
        }
    }
}
