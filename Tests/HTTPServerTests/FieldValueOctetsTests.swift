import Testing
@testable import HTTPServer

/// Field values are octets (RFC 9110 §5.5): obs-text survives parsing and serializing byte for byte.
@Suite struct FieldValueOctetsTests {
    @Test func asciiDecodesAsItself() {
        #expect(FieldValueOctets.decode(Array("\"v1\"".utf8), hasNonASCII: false) == "\"v1\"")
    }

    @Test func obsTextRoundTrips() {
        let bytes: [UInt8] = [0x22, 0x61, 0xFC, 0xC3, 0xBC, 0xFF, 0x22]
        let value = FieldValueOctets.decode(bytes, hasNonASCII: true)
        #expect(value.unicodeScalars.map(\.value) == [0x22, 0x61, 0xFC, 0xC3, 0xBC, 0xFF, 0x22])
        var out: [UInt8] = []
        FieldValueOctets.append(value, to: &out)
        #expect(out == bytes)
    }

    @Test func appendMapsLineBreaksAndKeepsWiderScalarsAsUTF8() {
        var out: [UInt8] = []
        FieldValueOctets.append("a\r\nb\u{0}c€", to: &out)
        #expect(out == [0x61, 0x20, 0x20, 0x62, 0x20, 0x63, 0xE2, 0x82, 0xAC])
    }

    @Test func theSerializerWritesObsTextAsRead() {
        var out: [UInt8] = []
        HTTPResponseSerializer.appendField("ETag", FieldValueOctets.decode([0x22, 0xFC, 0x22], hasNonASCII: true), to: &out)
        #expect(out == Array("ETag: ".utf8) + [0x22, 0xFC, 0x22, 0x0D, 0x0A])
    }
}
