import Testing
@testable import MediaPolicy

/// `keyLifetime`: seconds an encrypted-disk data key seals objects before its partition gets a new one.
@Suite struct KeyLifetimePolicyTests {
    func messages(_ tier: String) -> [String] { PolicyFixture.errors(PolicyFixture.tierPolicy(tier)).map(\.description) }

    @Test func itDefaultsToADayAndTakesSeconds() throws {
        #expect(Tier(name: "t", storage: .encryptedDisk).keyLifetime == 86_400)
        #expect(messages(#"{ "storage": "encrypted-disk", "keyLifetime": 3600 }"#) == [])
    }

    @Test func badValuesAndTiersWithoutSealedObjectsAreRefused() {
        #expect(messages(#"{ "storage": "encrypted-disk", "keyLifetime": 0 }"#) == [
            "Policies/test.json: tiers.t.keyLifetime: 0 is out of range; allowed: an integer from 1 to 2147483648 (seconds)",
        ])
        #expect(messages(#"{ "storage": "encrypted-disk", "keyLifetime": "1h" }"#) == [
            #"Policies/test.json: tiers.t.keyLifetime: "1h" is a string; allowed: an integer from 1 to 2147483648 (seconds)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "keyLifetime": 3600 }"#) == [
            #"Policies/test.json: tiers.t.keyLifetime: 3600 has no effect: storage is "disk", only encrypted-disk objects are sealed under data keys; allowed: keyLifetime only when storage is "encrypted-disk""#,
        ])
    }
}
