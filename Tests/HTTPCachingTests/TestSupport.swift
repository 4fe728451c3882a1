@testable import HTTPCaching
import MediaCore

/// Shared fixtures: a fixed clock and a fake keyed digest.
enum Fixture {
    /// 2023-11-14T22:13:20Z.
    static let t0: EpochSeconds = 1_700_000_000
    /// `Date` text of ``t0``.
    static let t0Date = "Tue, 14 Nov 2023 22:13:20 GMT"

    /// A deterministic stand-in for HMAC-SHA256 hex: never contains the input.
    static func digest(_ value: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in value.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "d:" + String(hash, radix: 16)
    }

    /// A stored GET response received at `t0` (request sent at `t0`), with `Date: t0`.
    static func stored(
        _ pairs: [(String, String)], status: HTTPStatus = 200, at time: EpochSeconds = t0, date: Bool = true,
        key: SecondaryKey = .empty
    ) -> StoredResponse {
        var fields = HTTPFields(pairs)
        if date, !fields.contains("date") { fields.append("Date", HTTPDate.format(time)) }
        return StoredResponse(status: status, fields: fields, requestTime: time, responseTime: time, secondaryKey: key)
    }

    static func decide(
        _ candidates: [StoredResponse], request requestPairs: [(String, String)] = [], method: String = "GET",
        role: CacheRole = .shared, now: EpochSeconds, configuration: ServingDecision.Configuration = .init(),
        lifetimeCaps: [Int64] = []
    ) -> ServingAction {
        var machine = ServingDecision(request: CacheRequest(method: HTTPMethod(method), fields: HTTPFields(requestPairs)),
                                      candidates: candidates, role: role, configuration: configuration, digest: digest,
                                      lifetimeCaps: lifetimeCaps)
        return machine.lookup(now: now)
    }
}
