import MediaPolicy
@testable import MediaService
import MediaTransform
import Testing

/// A service whose policies declare variants opens libvips when it starts or reloads them, and refuses them when it
/// cannot (a missing library would otherwise stop the process on the first variant request); without variants it never
/// opens libvips.
@Suite struct ImageEngineRequirementTests {
    static func policies(variants: Bool) throws -> PolicySet {
        let tier = variants
            ? #"{ "storage": "memory", "variants": { "widths": [144], "formats": ["jpeg"] } }"#
            : #"{ "storage": "memory" }"#
        let json = """
        { "tiers": { "plain": { "storage": "memory" }, "thumbs": \(tier) },
          "routes": [ { "name": "thumbs", "mount": "/thumbs/", "origin": "http://origin.test/", "tier": "thumbs" } ] }
        """
        return try PolicyLoader().load(sources: [.init(name: "Policies/test.json", bytes: Array(json.utf8))])
    }

    static let missing = "libvips cannot be opened: libvips.so.42: cannot open shared object file: No such file or directory"

    @Test func variantsAreRefusedWhereLibvipsCannotBeOpened() throws {
        let error = try #require(throws: ServiceError.self) {
            try PolicySnapshot.requireImageEngine(for: Self.policies(variants: true), unavailable: Self.missing)
        }
        #expect(error.code == .invalidPolicy)
        #expect(error.description == "invalid-policy: tier \"thumbs\" declares variants, but " + Self.missing)
    }

    @Test func policiesWithoutVariantsNeedNoLibvips() throws {
        try PolicySnapshot.requireImageEngine(for: Self.policies(variants: false), unavailable: Self.missing)
    }

    @Test func libvipsOpensHere() {
        #expect(VipsRuntime.unavailable == nil)
    }
}
