@testable import HTTPServer
import MediaCore

/// What a parser produced from some input: requests in order, then the failure or leftover state.
struct ParseOutcome {
    var requests: [HTTPServerRequest] = []
    var error: HTTPParseError?
    var needsMoreData = false
}

/// Feeds `input` to a fresh parser in chunks of `chunkSize` bytes (all at once by default),
/// draining events after every chunk.
func parse(
    _ input: String, chunkSize: Int = .max, configuration: HTTPRequestParser.Configuration = .init()
) -> ParseOutcome {
    parse(bytes: Array(input.utf8), chunkSize: chunkSize, configuration: configuration)
}

func parse(
    bytes: [UInt8], chunkSize: Int = .max, configuration: HTTPRequestParser.Configuration = .init()
) -> ParseOutcome {
    var parser = HTTPRequestParser(configuration: configuration)
    var outcome = ParseOutcome()
    var offset = 0
    repeat {
        let end = min(bytes.count, offset + min(chunkSize, bytes.count - offset))
        parser.append(bytes[offset..<end])
        offset = end
        guard drain(&parser, into: &outcome) else { return outcome }
    } while offset < bytes.count
    return outcome
}

/// Takes every event the parser has into `outcome`; `false` once it failed (`outcome.error` set).
func drain(_ parser: inout HTTPRequestParser, into outcome: inout ParseOutcome) -> Bool {
    while true {
        switch parser.next() {
        case .request(let request): outcome.requests.append(request)
        case .failure(let error):
            outcome.error = error
            return false
        case .needMoreData:
            outcome.needsMoreData = parser.hasPartialRequest
            return true
        }
    }
}

/// The names and values of field lines, for exact comparison.
func pairs(_ fields: HTTPFields) -> [[String]] {
    fields.map { [$0.name, $0.value] }
}
