#if canImport(Glibc)
import Glibc
#endif
import MediaTransform

// libFuzzer entry: LLVMFuzzerRunDriver must be called from main (PLATFORM.md).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Labels `removed` may hold: JPEG segments, PNG chunk types, WebP chunks, GIF extensions, trailing data.
let labels: Set<String> = Set((1...15).map { "APP\($0)" } + [
    "APP1 Exif", "APP1 XMP", "APP1 XMP extension", "APP2 MPF", "APP2 FlashPix", "APP12 Ducky", "APP13 Photoshop", "COM",
    "tEXt", "zTXt", "iTXt", "eXIf", "tIME", "EXIF", "XMP", "Comment", "trailing data",
])

func strip(_ bytes: [UInt8]) -> Result<StrippedImage, MetadataStripError> {
    do throws(MetadataStripError) { return .success(try MetadataStripper.strip(bytes)) } catch { return .failure(error) }
}

/// Strips the input as a whole file: either a one-line metadata-not-strippable error, or an output of the
/// same format, at most 36 bytes (a minimal orientation EXIF) larger, that strips again to itself with nothing removed.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch strip(bytes) {
    case .failure(let error):
        precondition(error.code == "metadata-not-strippable", "code \(error.code)")
        precondition(!error.detail.isEmpty && !error.detail.utf8.contains { $0 < 0x20 }, "detail \(error.detail)")
    case .success(let stripped):
        precondition(stripped.bytes.count <= bytes.count + 36, "grew from \(bytes.count) to \(stripped.bytes.count)")
        precondition(stripped.bytes.prefix(3) == bytes.prefix(3), "magic changed")
        precondition(stripped.orientation.map { (1...8).contains($0) } ?? true, "orientation \(String(describing: stripped.orientation))")
        precondition(stripped.removed.allSatisfy(labels.contains), "labels \(stripped.removed)")
        guard case .success(let again) = strip(stripped.bytes) else { preconditionFailure("the output does not strip again") }
        precondition(again.bytes == stripped.bytes, "not idempotent")
        precondition(again.removed.isEmpty, "second pass removed \(again.removed)")
        // Orientation 1, and any orientation of a simple-format WebP, is not written again.
        precondition(again.orientation == nil || again.orientation == stripped.orientation, "orientation changed")
        precondition(again.orientation != 1, "orientation 1 written")
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })

/// Also exported under libFuzzer's standard name, for the case where libFuzzer's own `main` links in
/// (SwiftPM renames an executable's entry point, so the archive's `main` can win).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { fuzzOne(data, size) }
