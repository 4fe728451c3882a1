import MediaCore
import Testing

/// The box grammar the validator and the metadata inspector share.
@Suite struct ISOBMFFSyntaxTests {
    static func box(_ size: UInt32, _ type: String, payload: [UInt8] = []) -> [UInt8] {
        [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + payload
    }

    @Test func boxes() {
        let ftyp = ByteReader(Self.box(12, "ftyp", payload: [1, 2, 3, 4]))
        #expect(ISOBMFFSyntax.box(ftyp, at: 0, within: 12, countsUserType: false) == .box(range: 0..<12, contentStart: 8))
        // Size 0: to the end of the container.
        let open = ByteReader(Self.box(0, "mdat", payload: [9, 9]))
        #expect(ISOBMFFSyntax.box(open, at: 0, within: 10, countsUserType: false) == .box(range: 0..<10, contentStart: 8))
        // Size 1: the 64-bit largesize follows the type.
        let large = ByteReader(Self.box(1, "mdat", payload: [0, 0, 0, 0, 0, 0, 0, 18, 7, 7]))
        #expect(ISOBMFFSyntax.box(large, at: 0, within: 18, countsUserType: false) == .box(range: 0..<18, contentStart: 16))
        // A uuid box's user type is part of its header only when asked.
        let uuid = ByteReader(Self.box(24, "uuid", payload: Array(repeating: 0xAB, count: 16)))
        #expect(ISOBMFFSyntax.box(uuid, at: 0, within: 24, countsUserType: true) == .box(range: 0..<24, contentStart: 24))
        #expect(ISOBMFFSyntax.box(uuid, at: 0, within: 24, countsUserType: false) == .box(range: 0..<24, contentStart: 8))
    }

    @Test func refusals() {
        #expect(ISOBMFFSyntax.box(ByteReader([0, 0, 0, 8, 0x66]), at: 0, within: 5, countsUserType: false)
            == .partialHeader(available: 5))
        let badLarge = ByteReader(Self.box(1, "mdat", payload: [0xFF, 0, 0, 0, 0, 0, 0, 0]))
        #expect(ISOBMFFSyntax.box(badLarge, at: 0, within: 16, countsUserType: false) == .badLargeSize)
        #expect(ISOBMFFSyntax.box(ByteReader(Self.box(4, "free")), at: 0, within: 8, countsUserType: false)
            == .tooShort(size: 4, header: 8))
        #expect(ISOBMFFSyntax.box(ByteReader(Self.box(20, "free")), at: 0, within: 8, countsUserType: false)
            == .pastEnd(size: 20, header: 8))
        let shortUUID = ByteReader(Self.box(12, "uuid", payload: [1, 2, 3, 4]))
        #expect(ISOBMFFSyntax.box(shortUUID, at: 0, within: 12, countsUserType: true) == .tooShort(size: 12, header: 24))
    }
}
