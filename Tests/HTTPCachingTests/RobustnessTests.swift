import MediaCore
import Testing
@testable import HTTPCaching

/// Deterministic pseudo-random inputs: parsers must never trap and must keep their invariants.
@Suite struct RobustnessTests {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        /// Strings built from the characters that matter to the parsers.
        mutating func string() -> String {
            let alphabet = Array("max-age=0123456789\"\\, \t;=*/:WGMTSunNov-private no-cache é\u{0}")
            let length = Int(next() % 40)
            return String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
        }
    }

    @Test func parsersNeverTrapAndStayInRange() {
        var generator = Generator(state: 42)
        for _ in 0..<20_000 {
            let text = generator.string()
            let cc = CacheControl(text)
            for value in [cc.maxAge, cc.sharedMaxAge, cc.minFresh, cc.staleIfError, cc.staleWhileRevalidate].compactMap({ $0 }) {
                #expect(value >= 0 && value <= 2_147_483_648, "\(text)")
            }
            if let age = AgeField.parse(text) { #expect(age >= 0 && age <= 2_147_483_648) }
            _ = HTTPDate.parse(text)
            _ = EntityTag(text)
            _ = Vary.normalise(text)
            _ = HTTPFieldList.split(text[...])
            _ = URIReference(absolute: "https://a/" + text)?.resolve(text)
        }
    }

    @Test func invalidUTF8DoesNotTrap() {
        let bytes: [UInt8] = [0x6D, 0x61, 0x78, 0x2D, 0x61, 0x67, 0x65, 0x3D, 0xFF, 0xFE, 0x22, 0x5C]
        #expect(CacheControl(String(decoding: bytes, as: UTF8.self)).maxAge == 0)
    }
}
