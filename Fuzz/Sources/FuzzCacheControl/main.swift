#if canImport(Glibc)
import Glibc
#endif
import HTTPCaching
import MediaCore

// libFuzzer entry: LLVMFuzzerRunDriver must be called from main (PLATFORM.md).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// A delta-seconds value is absent or within 0...2^31 (RFC 9111 §1.2.2).
func checkDelta(_ value: Int64?, _ name: String, anyAllowed: Bool = false) {
    guard let value else { return }
    if anyAllowed && value == CacheControl.anyStaleness { return }
    precondition((0...maximumDeltaSeconds).contains(value), "\(name) out of range: \(value)")
}

/// Qualified field names are lower-cased, non-empty and listed once.
func checkNames(_ names: [String], _ name: String) {
    precondition(Set(names).count == names.count, "\(name): duplicate field names \(names)")
    for field in names {
        precondition(!field.isEmpty, "\(name): empty field name")
        precondition(field == field.lowercased(), "\(name): not lower-cased: \(field)")
    }
}

func checkInvariants(_ parsed: CacheControl) {
    checkDelta(parsed.maxAge, "max-age")
    checkDelta(parsed.sharedMaxAge, "s-maxage")
    checkDelta(parsed.maxStale, "max-stale", anyAllowed: true)
    checkDelta(parsed.minFresh, "min-fresh")
    checkDelta(parsed.staleWhileRevalidate, "stale-while-revalidate")
    checkDelta(parsed.staleIfError, "stale-if-error")
    checkNames(parsed.privateFieldNames, "private")
    checkNames(parsed.noCacheFieldNames, "no-cache")
}

/// Parses the input as one field value, as field lines (split at LF), and re-parses `description`.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parsed = CacheControl(text)
    checkInvariants(parsed)

    // description is canonical: it parses back to the same directives, and is a fixed point.
    let canonical = parsed.description
    let reparsed = CacheControl(canonical)
    precondition(reparsed == parsed, "round trip changed \(parsed) via \(canonical) to \(reparsed)")
    precondition(reparsed.description == canonical, "description is not stable: \(canonical)")
    precondition(parsed.description.isEmpty == (parsed == CacheControl()), "empty description mismatch")

    // Several lines behave like their combination (RFC 9110 §5.3), as long as no quoted string spans lines.
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let fields = HTTPFields(lines.map { ("Cache-Control", $0) } + [("X-Other", "max-age=1, no-store")])
    let fromFields = CacheControl(fields: fields)
    checkInvariants(fromFields)
    if !text.utf8.contains(UInt8(ascii: "\"")) {
        let combined = CacheControl(lines.joined(separator: ", "))
        precondition(fromFields == combined, "fields \(lines) gave \(fromFields), combined gave \(combined)")
    }
    precondition(CacheControl.isPresent(in: fields))
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })

/// Also exported under libFuzzer's standard name, for the case where libFuzzer's own `main` links in
/// (SwiftPM renames an executable's entry point, so the archive's `main` can win).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { fuzzOne(data, size) }
