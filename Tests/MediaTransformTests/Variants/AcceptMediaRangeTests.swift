import Testing
@testable import MediaTransform

@Suite struct AcceptMediaRangeTests {
    typealias R = AcceptMediaRange

    @Test func parsesElementsInOrder() {
        #expect(R.parse("image/avif,image/webp,image/*,*/*;q=0.8") == [
            R(type: "image", subtype: "avif", weight: 1000), R(type: "image", subtype: "webp", weight: 1000),
            R(type: "image", subtype: "*", weight: 1000), R(type: "*", subtype: "*", weight: 800),
        ])
        #expect(R.parse("Image/WebP;Q=0.25 , text/html;level=1;q=0.5;x=\"a,b\"") == [
            R(type: "image", subtype: "webp", weight: 250), R(type: "text", subtype: "html", weight: 500),
        ])
    }

    @Test func qvalues() {
        #expect(R.qvalue("0") == 0)
        #expect(R.qvalue("0.") == 0)
        #expect(R.qvalue("0.5") == 500)
        #expect(R.qvalue("0.05") == 50)
        #expect(R.qvalue("0.123") == 123)
        #expect(R.qvalue("1") == 1000)
        #expect(R.qvalue("1.") == 1000)
        #expect(R.qvalue("1.000") == 1000)
        for bad in ["", "1.001", "1.5", "2", "0.1234", ".5", "0,5", "-0", "00", "0.a", "1.0000"] {
            #expect(R.qvalue(bad) == nil, "\(bad)")
        }
    }

    @Test func firstWeightWins() {
        #expect(R.parse("image/webp;q=0.5;q=0") == [R(type: "image", subtype: "webp", weight: 500)])
    }
}
