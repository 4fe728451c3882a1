#if canImport(Glibc)
import Glibc
#endif
import MediaCore

// libFuzzer entry: LLVMFuzzerRunDriver must be called from main (PLATFORM.md).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// First and last second `HTTPDate.format` represents: 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
let firstSecond: Int64 = -62_167_219_200
let lastSecond: Int64 = 253_402_300_799
let longDays = ["Mon": "Monday", "Tue": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday", "Fri": "Friday",
                "Sat": "Saturday", "Sun": "Sunday"]

/// The little-endian Int64 in `bytes[offset..<offset+8]` (missing bytes are 0).
func int64(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Int64 {
    var value: UInt64 = 0
    for index in 0..<8 where offset + index < bytes.count {
        value |= UInt64(bytes[offset + index]) << (8 * UInt64(index))
    }
    return Int64(bitPattern: value)
}

/// Checks IMF-fixdate of `time` and the obsolete forms derived from it parse back exactly.
func checkFormats(_ time: Int64) {
    let imf = HTTPDate.format(time)
    let bytes = Array(imf.utf8)
    precondition(bytes.count == 29, "format(\(time)) is \(imf)")
    precondition(HTTPDate.parse(imf) == time, "format(\(time)) = \(imf) parses to \(String(describing: HTTPDate.parse(imf)))")
    precondition(HTTPDate.parse(" \t" + imf + "\t ") == time, "OWS around \(imf)")
    // "Sun, 06 Nov 1994 08:49:37 GMT" → asctime "Sun Nov  6 08:49:37 1994".
    func part(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
    let day = part(5..<7)
    let paddedDay: String = day.hasPrefix("0") ? " " + String(day.dropFirst()) : day
    let asctime: String = [part(0..<3), part(8..<11), paddedDay, part(17..<25), part(12..<16)].joined(separator: " ")
    precondition(HTTPDate.parse(asctime) == time, "asctime \(asctime) of \(time)")
    // RFC 850 "Sunday, 06-Nov-94 08:49:37 GMT": with `now` = the same instant the century is right.
    let longDay: String = longDays[part(0..<3)]!
    let rfc850: String = "\(longDay), \(day)-\(part(8..<11))-\(part(14..<16)) \(part(17..<25)) GMT"
    precondition(HTTPDate.parse(rfc850, now: time) == time, "rfc850 \(rfc850) of \(time)")
}

func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let raw = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: raw, as: UTF8.self)

    // Parsed text re-formats to a date that parses to the same instant.
    for now in [nil, int64(raw, 0), Int64.min, Int64.max, 0] as [Int64?] {
        guard let time = HTTPDate.parse(text, now: now) else { continue }
        precondition(HTTPDate.parse(bytes: raw, now: now) == time, "String and bytes entry points disagree")
        precondition((firstSecond...lastSecond).contains(time), "\(text) parsed to out-of-range \(time)")
        let formatted = HTTPDate.format(time)
        precondition(HTTPDate.parse(formatted) == time, "\(text) → \(time) → \(formatted) does not round-trip")
        if text.utf8.count == 29 { precondition(HTTPDate.parse(text) == time, "IMF-fixdate depends on now") }
    }

    // Random epoch seconds: any Int64 formats (clamped); in range, every format parses back exactly.
    let seed = int64(raw, max(0, size - 8))
    let clamped = min(max(seed, firstSecond), lastSecond)
    precondition(HTTPDate.parse(HTTPDate.format(seed)) == clamped, "format(\(seed)) is not clamped")
    let span = UInt64(lastSecond - firstSecond + 1)
    checkFormats(firstSecond + Int64(UInt64(bitPattern: seed) % span))
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })

/// Also exported under libFuzzer's standard name, for the case where libFuzzer's own `main` links in
/// (SwiftPM renames an executable's entry point, so the archive's `main` can win).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { fuzzOne(data, size) }
