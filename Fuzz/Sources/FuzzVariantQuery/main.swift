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

/// The policy format's example, and a tier with heights, a pixel cap, no WebP and a narrow AVIF limit.
let declarations = [
    VariantDeclaration(widths: [72, 144, 288, 576, 1152], formats: [.jpeg, .webp, .avif, .png], maxDpr: 3, quality: 80),
    VariantDeclaration(widths: [96, 192, 384], heights: [64, 128, 256], formats: [.png, .avif, .jpeg], maxDpr: 2,
                       quality: 70, maxOutputPixels: 50_000, maxAVIFWidth: 192),
]
let passThrough = ["v"]
let variantNames: Set<String> = ["w", "h", "fit", "dpr", "q", "fmt", "gravity", "profile", "info"]

/// Names of the query's non-empty `&`-separated items (the bytes before the first `=`), split as bytes.
func itemNames(_ query: String) -> [String] {
    Array(query.utf8).split(separator: UInt8(ascii: "&")).map { item in
        String(decoding: item.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self)
    }
}

/// Whether `haystack` holds `needle` (lower-case ASCII) in any ASCII case, compared as bytes.
func containsCaseInsensitive(_ haystack: String?, _ needle: String) -> Bool {
    let bytes = Array((haystack ?? "").utf8).map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    let target = Array(needle.utf8)
    guard bytes.count >= target.count else { return false }
    return (0...(bytes.count - target.count)).contains { bytes[$0..<($0 + target.count)].elementsEqual(target) }
}

func parse(_ query: String?, _ declaration: VariantDeclaration, accept: String?, avif: Bool) -> Result<ParsedVariantQuery?, VariantError> {
    do throws(VariantError) {
        return .success(try VariantQuery.parse(query, declaration: declaration, passThrough: passThrough,
                                               accept: accept, avifAvailable: avif))
    } catch {
        return .failure(error)
    }
}

/// The query that asks for `spec` directly (dpr 1), `fmt=auto` when it was negotiated.
func canonicalQuery(_ parsed: ParsedVariantQuery) -> String {
    let spec = parsed.spec
    var items = ["w=\(spec.width)"]
    if let height = spec.height { items.append("h=\(height)") }
    items += ["fit=\(spec.fit.rawValue)", "q=\(spec.quality)"]
    if parsed.negotiated {
        items.append("fmt=auto")
    } else if case .format(let format) = spec.format {
        items.append("fmt=\(format.rawValue)")
    }
    return items.joined(separator: "&")
}

func checkNegotiation(_ accept: String?, _ declaration: VariantDeclaration, avif: Bool) {
    let acceptsAVIF = FormatNegotiation.accepts(.avif, accept: accept)
    let acceptsWebP = FormatNegotiation.accepts(.webp, accept: accept)
    // Accepted only when spelled out (wildcards never count).
    precondition(!acceptsAVIF || containsCaseInsensitive(accept, "image/avif"), "avif accepted in \(String(describing: accept))")
    precondition(!acceptsWebP || containsCaseInsensitive(accept, "image/webp"), "webp accepted in \(String(describing: accept))")
    for width in [1, 192, 576, 577, 1152] {
        let choice = FormatNegotiation.choose(accept: accept, declared: declaration.formats, width: width,
                                              maxAVIFWidth: declaration.maxAVIFWidth, avifAvailable: avif)
        // The first format of the calibrated order (FormatRanking) this request can be served in; JPEG, the legacy
        // format, only when declared; no JPEG XL encoder here (choose's default).
        // When JPEG comes first, the first such format after it is the one for alpha and frames (legacyOr).
        var expected: FormatChoice = .legacy
        var legacyFirst = false
        for format in FormatRanking.order(at: width) {
            var served: OutputFormat?
            if format == .avif, avif, width <= declaration.maxAVIFWidth, declaration.formats.contains(.avif), acceptsAVIF {
                served = .avif
            }
            if format == .webp, declaration.formats.contains(.webp), acceptsWebP { served = .webp }
            if let served {
                expected = legacyFirst ? .legacyOr(served) : .format(served)
                break
            }
            if format == .jpeg, declaration.formats.contains(.jpeg) { legacyFirst = true }
        }
        precondition(choice == expected, "chose \(choice), expected \(expected) at \(width) for \(String(describing: accept))")
    }
}

/// Byte 0: bit 0 AVIF available, bit 1 the second declaration, bit 2 an Accept value present. The rest:
/// the query, then (after the first LF, when bit 2 is set) the Accept value.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let flags = bytes.first else {
        precondition((try? VariantQuery.parse(nil, declaration: declarations[0], passThrough: passThrough,
                                              accept: nil, avifAvailable: true)) == .some(nil))
        return 0
    }
    let avif = flags & 1 != 0
    let declaration = declarations[Int(flags >> 1) & 1]
    let rest = bytes.dropFirst()
    let newline = rest.firstIndex(of: 0x0A)
    let query = String(decoding: rest[..<(newline ?? rest.endIndex)], as: UTF8.self)
    let accept: String? = (flags & 4 != 0) ? String(decoding: newline.map { rest[($0 + 1)...] } ?? [], as: UTF8.self) : nil

    checkNegotiation(accept, declaration, avif: avif)
    let result = parse(query, declaration, accept: accept, avif: avif)
    precondition(parse(query, declaration, accept: accept, avif: avif) == result, "parse is not deterministic")

    switch result {
    case .failure(let error):
        precondition(error.code == "variant-not-allowed", "code \(error.code)")
        precondition(containsCaseInsensitive(error.detail, " is not allowed: "), "detail \(error.detail)")
        precondition(error.detail.utf8.count <= 512, "detail of \(error.detail.utf8.count) bytes")
        precondition(!error.detail.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "control byte in \(error.detail)")
    case .success(nil):
        precondition(query.utf8.count <= VariantQuery.maxQueryBytes)
        precondition(itemNames(query).allSatisfy { passThrough.contains($0) }, "nil for \(query)")
    case .success(let parsed?) where parsed.spec.isInfo:
        // `info=1`, alone among the variant parameters: the source described, keyed `info=1`.
        let names = itemNames(query)
        precondition(names.filter { !passThrough.contains($0) } == ["info"], "info with others in \(query)")
        precondition(parsed.spec == .info && parsed.spec.keyText == "info=1" && !parsed.negotiated, "info spec for \(query)")
    case .success(let parsed?):
        precondition(query.utf8.count <= VariantQuery.maxQueryBytes)
        let names = itemNames(query)
        precondition(names.count <= VariantQuery.maxParameters && names.contains("w"), "accepted \(query)")
        precondition(names.allSatisfy { variantNames.contains($0) || passThrough.contains($0) }, "accepted \(query)")
        let spec = parsed.spec
        precondition(declaration.widths.contains(spec.width), "width \(spec.width)")
        if let height = spec.height {
            precondition(declaration.allowedHeights.contains(height), "height \(height)")
            precondition(spec.width * height <= declaration.maxOutputPixels, "pixels \(spec.width)x\(height)")
        } else {
            precondition(spec.fit == .inside, "cover without a height")
        }
        precondition((1...100).contains(spec.quality), "quality \(spec.quality)")
        if parsed.negotiated {
            let chosen = FormatNegotiation.choose(accept: accept, declared: declaration.formats, width: spec.width,
                                                  maxAVIFWidth: declaration.maxAVIFWidth, avifAvailable: avif)
            precondition(spec.format == chosen, "negotiated \(spec.format), choose gives \(chosen)")
        } else {
            switch spec.format {
            case .source: break
            case .format(let format):
                precondition(declaration.formats.contains(format), "undeclared \(format)")
                precondition(format != .avif || (avif && spec.width <= declaration.maxAVIFWidth), "avif at \(spec.width)")
            case .legacy, .legacyOr: preconditionFailure("legacy without fmt=auto")
            }
        }
        if let remaining = parsed.remainingQuery {
            let items = Array(remaining.utf8).split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
            precondition(!items.contains { $0.isEmpty }, "empty item in remaining \(remaining)")
            precondition(itemNames(remaining).allSatisfy { passThrough.contains($0) }, "remaining \(remaining)")
        } else {
            precondition(!names.contains { passThrough.contains($0) }, "pass-through dropped from \(query)")
        }
        // The spec asked for directly (dpr 1) is the same spec.
        let direct = parse(canonicalQuery(parsed), declaration, accept: accept, avif: avif)
        precondition(direct == .success(ParsedVariantQuery(spec: spec, remainingQuery: nil, negotiated: parsed.negotiated)),
                     "\(canonicalQuery(parsed)) gives \(direct), not \(spec.keyText)")
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
