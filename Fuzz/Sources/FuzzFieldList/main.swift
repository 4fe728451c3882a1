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

/// Splits the input as a field list and checks the invariants every element must keep.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for element in HTTPFieldList.split(text[...]) {
        precondition(!element.isEmpty, "empty element")
        precondition(element.utf8.first != 0x20 && element.utf8.last != 0x20, "untrimmed element")
        _ = HTTPFieldList.unquote(element)
    }
    let fields = HTTPFields([("Cache-Control", text), ("cache-control", text)])
    precondition(fields.listValues(for: "CACHE-CONTROL").count == 2 * HTTPFieldList.split(text[...]).count)
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })

/// Also exported under libFuzzer's standard name, for the case where libFuzzer's own `main` links in
/// (SwiftPM renames an executable's entry point, so the archive's `main` can win).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { fuzzOne(data, size) }
