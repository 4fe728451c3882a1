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

/// `StructuredDictionary` (RFC 8941 §4.2.2) and `TargetedCacheControl.select` (RFC 9213 §2.1) on any text.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let dictionary = StructuredDictionary(text)
    precondition(StructuredDictionary(text) == dictionary, "not deterministic")
    if let dictionary {
        // Keys are lower case, unique, and start with a lower-case letter or `*`.
        let keys = dictionary.members.map(\.key)
        precondition(Set(keys).count == keys.count, "duplicate keys \(keys)")
        for key in keys {
            precondition(!key.isEmpty && key == key.lowercased(), "key \(key)")
            precondition(key.first!.isLetter || key.first == "*", "key start \(key)")
        }
        // A valid dictionary is the same with surrounding spaces, and joined to itself gives the same keys.
        precondition(StructuredDictionary(" " + text + " ") == dictionary, "surrounding spaces changed it")
        if !dictionary.members.isEmpty, let twice = StructuredDictionary(text + ", " + text) {
            precondition(twice.members.map(\.key) == keys, "joined keys \(twice.members.map(\.key)) vs \(keys)")
        }
    }
    let fields = HTTPFields([("CDN-Cache-Control", text), ("Cache-Control", "max-age=5")])
    // The field as stored (HTTPFields trims surrounding whitespace, as a received field line is).
    let value = StructuredDictionary(fields["cdn-cache-control"] ?? "")
    if let directives = TargetedCacheControl.select(fields, targets: ["CDN-Cache-Control"]) {
        precondition(value != nil, "a field that is not a dictionary was honoured")
        for value in [directives.maxAge, directives.sharedMaxAge, directives.staleWhileRevalidate, directives.staleIfError] {
            if let value { precondition((0...maximumDeltaSeconds).contains(value), "delta \(value)") }
        }
    } else if let dictionary = value, !dictionary.members.isEmpty {
        // Not honoured although valid: then some known directive had the wrong type.
        let known: Set<String> = ["max-age", "s-maxage", "stale-while-revalidate", "stale-if-error", "no-cache", "private",
                                  "no-store", "public", "must-revalidate", "proxy-revalidate", "must-understand",
                                  "immutable", "no-transform"]
        precondition(dictionary.members.contains { known.contains($0.key) }, "a valid dictionary was ignored")
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })

/// Also exported under libFuzzer's standard name, for the case where libFuzzer's own `main` links in.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { fuzzOne(data, size) }
