import MediaCore
import Testing

/// `ByteSize`: binary units, bytes below 1 KiB, one decimal from KiB up, rounded half up.
@Suite struct ByteSizeTests {
    @Test(arguments: [
        (0, "0 B"), (1, "1 B"), (812, "812 B"), (1023, "1023 B"),
        (1024, "1.0 KiB"), (1075, "1.0 KiB"), (1076, "1.1 KiB"), (1536, "1.5 KiB"), (3072, "3.0 KiB"),
        (6402, "6.3 KiB"), (40618, "39.7 KiB"), (47020, "45.9 KiB"), (1_048_064, "1023.5 KiB"),
        (1_048_575, "1.0 MiB"),  // 1023.999 KiB would round to 1024.0 KiB: the next unit
        (1_048_576, "1.0 MiB"), (1_468_006, "1.4 MiB"), (1_572_864, "1.5 MiB"),
        (1 << 30, "1.0 GiB"), ((1 << 40) - 1, "1.0 TiB"), (5 << 50, "5.0 PiB"), (3 << 60, "3.0 EiB"),
        (Int.max, "8.0 EiB"), (-1536, "-1.5 KiB"), (Int.min, "-8.0 EiB"),
    ])
    func text(_ bytes: Int, _ expected: String) {
        #expect(ByteSize(bytes).text == expected)
    }

    @Test func theTitleIsTheExactCount() {
        #expect(ByteSize(40618).title == "40618 bytes")
        #expect(ByteSize(1).title == "1 byte")
        #expect(ByteSize(0).title == "0 bytes")
    }
}
