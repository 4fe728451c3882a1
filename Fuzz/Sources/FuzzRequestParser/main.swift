#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import MediaCore

// libFuzzer entry: LLVMFuzzerRunDriver must be called from main (PLATFORM.md).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// One parser event, comparable (HTTPServerRequest holds tuples, so it is not Equatable).
enum Event: Equatable {
    case request(method: String, target: String, version: HTTPVersion, header: [String], trailer: [String],
                 body: [UInt8], hasBody: Bool, keepAlive: Bool)
    case failure(HTTPParseError)
}

/// Feeds `chunks` in order, calling `next()` until it needs more data after each one.
/// Returns the events and whether a partial request is left buffered.
func run(_ configuration: HTTPRequestParser.Configuration, _ chunks: [ArraySlice<UInt8>]) -> ([Event], Bool) {
    var parser = HTTPRequestParser(configuration: configuration)
    var events: [Event] = []
    for chunk in chunks {
        chunk.withUnsafeBytes { parser.append($0) }
        loop: while true {
            switch parser.next() {
            case .needMoreData:
                break loop
            case .request(let request):
                check(request, configuration)
                events.append(.request(
                    method: request.method.rawValue, target: request.target, version: request.version,
                    header: request.headerFields.map { $0.name + ":" + $0.value },
                    trailer: request.trailerFields.map { $0.name + ":" + $0.value },
                    body: request.body, hasBody: request.hasBody, keepAlive: request.keepAlive))
            case .failure(let error):
                precondition([400, 413, 414, 431, 501, 505].contains(error.status), "status \(error.status)")
                // Sticky: asking again gives the same failure, appending more does not revive it.
                guard case .failure(let again) = parser.next(), again == error else { preconditionFailure("not sticky") }
                parser.append([UInt8]("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
                guard case .failure(let third) = parser.next(), third == error else { preconditionFailure("revived") }
                events.append(.failure(error))
                return (events, true)
            }
        }
    }
    return (events, parser.hasPartialRequest)
}

/// Limits and grammar every accepted request must respect (RFC 9112 §3, §5, §6).
func check(_ request: HTTPServerRequest, _ configuration: HTTPRequestParser.Configuration) {
    let lineBytes = request.method.rawValue.utf8.count + 1 + request.target.utf8.count + 1 + 8
    precondition(lineBytes <= configuration.maxRequestLineBytes, "request line of \(lineBytes) bytes accepted")
    precondition(!request.method.rawValue.isEmpty && !request.target.isEmpty, "empty method or target")
    precondition(request.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "target with invalid bytes")
    precondition(request.version == .http1_0 || request.version == .http1_1, "version \(request.version)")
    precondition(request.headerFields.count <= configuration.maxFieldCount, "too many header fields accepted")
    precondition(request.trailerFields.count <= configuration.maxFieldCount, "too many trailer fields accepted")
    // Field values are octets (FieldValueOctets): a value with obs-text is decoded as ISO-8859-1, one scalar per
    // byte, so the wire size is the scalar count (names are tokens: ASCII).
    func rawBytesAtLeast(_ text: String) -> Int {
        text.unicodeScalars.count
    }
    let headerBytes = request.headerFields.reduce(0) { $0 + rawBytesAtLeast($1.name) + 1 + rawBytesAtLeast($1.value) + 1 }
    precondition(headerBytes <= configuration.maxHeaderBytes, "header section of \(headerBytes) bytes accepted")
    precondition(request.body.count <= configuration.maxBodyBytes, "body over the limit accepted")
    for field in Array(request.headerFields) + Array(request.trailerFields) {
        precondition(!field.name.isEmpty, "empty field name")
        precondition(!field.name.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 >= 0x7F }, "bad name")
        precondition(!field.value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }, "control byte in value")
        precondition(field.value.unicodeScalars.allSatisfy { $0.value <= 0xFF }, "value scalar beyond one octet")
        precondition(field.value.utf8.first != 0x20 && field.value.utf8.last != 0x20, "untrimmed value")
    }
    if request.version == .http1_1 {
        precondition(request.fieldValues("host").count == 1, "HTTP/1.1 without exactly one Host")
    }
    if !request.hasBody { precondition(request.body.isEmpty, "body without framing") }
    if let length = request.field("content-length"), !request.fieldValues("transfer-encoding").isEmpty {
        preconditionFailure("both Content-Length \(length) and Transfer-Encoding accepted")
    }
}

/// Input: byte 0 picks the limits (default or small), bytes 1–2 the split point, the rest is the stream.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size >= 3, let data else { return 0 }
    let all = Array(UnsafeBufferPointer(start: data, count: size))
    let selector = all[0]
    let stream = all[3...]
    var configuration = HTTPRequestParser.Configuration()
    if selector & 1 == 1 {
        // Small limits so that short inputs reach every limit.
        configuration = HTTPRequestParser.Configuration(
            maxRequestLineBytes: 16 + Int(selector >> 1 & 0x1F), maxHeaderBytes: 32 + Int(selector >> 3),
            maxFieldCount: Int(selector >> 5), maxBodyBytes: Int(selector >> 2), maxChunkLineBytes: 4 + Int(selector >> 4))
    }
    let split = stream.startIndex + (Int(all[1]) << 8 | Int(all[2])) % (stream.count + 1)

    let whole = run(configuration, [stream])
    let halves = run(configuration, [stream[..<split], stream[split...]])
    precondition(whole.0 == halves.0, "split at \(split - 3) changed events: \(whole.0) vs \(halves.0)")
    precondition(whole.1 == halves.1, "split at \(split - 3) changed hasPartialRequest")
    let bytewise = run(configuration, stream.indices.map { stream[$0...$0] })
    precondition(whole.0 == bytewise.0, "byte-by-byte feeding changed events: \(whole.0) vs \(bytewise.0)")
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })

/// Also exported under libFuzzer's standard name, for the case where libFuzzer's own `main` links in
/// (SwiftPM renames an executable's entry point, so the archive's `main` can win).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { fuzzOne(data, size) }
