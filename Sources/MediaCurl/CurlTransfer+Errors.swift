import CCurl
import MediaOrigin

extension CurlTransfer {
    /// The outcome of a finished transfer: the response, or the error to throw.
    ///
    /// Error mapping (contexts name the curl error number, never the URL):
    /// - a callback's abort (``MediaService/OriginError/Code/tooLarge``) wins over curl's `CURLE_WRITE_ERROR`;
    /// - `CURLE_OPERATION_TIMEDOUT` → `timeout`: "no complete answer within *t* s" when the
    ///   attempt used its whole remaining time, otherwise "the connection was idle too long";
    /// - cannot resolve or connect (5, 6, 7) → `connection-failed`, retryable;
    /// - closed before any response byte (52, or 55/56 before a status line) → `connection-failed`,
    ///   retryable;
    /// - TLS failures (35, 58–60, 77, 80, 82, 83, 90, 91, 98) → `connection-failed`, not retryable;
    /// - closed mid-body (18), or 55/56 after the status line → `invalid-response`, not retryable,
    ///   saying so;
    /// - a malformed status line or head (8), a head over libcurl's limit (27 before 8.6, 100 since) →
    ///   `invalid-response`, saying so;
    /// - a content coding libcurl cannot decode (61, ``MediaService/OriginRequest/decodesContentCoding``) →
    ///   `invalid-response`, saying so;
    /// - a malformed URL (3) → `invalid-request`;
    /// - anything else (a non-HTTP answer, a broken body) → `invalid-response`, not retryable.
    func outcome(_ code: CCURLcode, responseCode: Int, elapsedMilliseconds: Int) -> Result<OriginResponse, any Error> {
        if let abort { return .failure(abort) }
        if code == CCURLE_OK {
            let final = status >= 200 ? status : responseCode
            guard final >= 100 else { return .failure(OriginError(.invalidResponse, "no HTTP response")) }
            return .success(response(status: final))
        }
        return .failure(Self.error(for: code, responded: status != 0, timedOutInFull: elapsedMilliseconds + 20 >= timeoutMilliseconds,
                                   timeout: request.timeout))
    }

    /// Maps a failed transfer's `CURLcode` (see ``outcome(_:responseCode:elapsedMilliseconds:)``).
    static func error(for code: CCURLcode, responded: Bool, timedOutInFull: Bool, timeout: Double) -> any Error {
        switch Int(code) {
        case Int(CCURLE_OPERATION_TIMEDOUT):
            return timedOutInFull ? OriginError(.timeout, "no complete answer within \(timeout) s")
                                  : OriginError(.timeout, "the connection was idle too long")
        case Int(CCURLE_COULDNT_RESOLVE_PROXY), Int(CCURLE_COULDNT_RESOLVE_HOST), Int(CCURLE_COULDNT_CONNECT):
            return OriginAttemptFailure(error: OriginError(.connectionFailed, "cannot connect (curl error \(code))"), retryable: true)
        case Int(CCURLE_GOT_NOTHING):
            return OriginAttemptFailure(error: OriginError(.connectionFailed, "the connection closed before a response (curl error \(code))"),
                           retryable: true)
        case Int(CCURLE_SEND_ERROR) where !responded, Int(CCURLE_RECV_ERROR) where !responded:
            return OriginAttemptFailure(error: OriginError(.connectionFailed, "the connection closed before a response (curl error \(code))"),
                           retryable: true)
        case Int(CCURLE_SSL_CONNECT_ERROR), Int(CCURLE_SSL_CERTPROBLEM), Int(CCURLE_SSL_CIPHER),
             Int(CCURLE_PEER_FAILED_VERIFICATION), Int(CCURLE_SSL_CACERT_BADFILE), Int(CCURLE_SSL_SHUTDOWN_FAILED),
             Int(CCURLE_SSL_CRL_BADFILE), Int(CCURLE_SSL_ISSUER_ERROR), Int(CCURLE_SSL_PINNEDPUBKEYNOTMATCH),
             Int(CCURLE_SSL_INVALIDCERTSTATUS), Int(CCURLE_SSL_CLIENTCERT):
            return OriginAttemptFailure(error: OriginError(.connectionFailed, "TLS failure (curl error \(code))"), retryable: false)
        case Int(CCURLE_PARTIAL_FILE):
            return OriginAttemptFailure(error: OriginError(.invalidResponse, "the connection closed before the whole body arrived (curl error \(code))"),
                           retryable: false)
        case Int(CCURLE_SEND_ERROR), Int(CCURLE_RECV_ERROR):
            return OriginAttemptFailure(error: OriginError(.invalidResponse, "the connection broke during the response (curl error \(code))"),
                           retryable: false)
        case Int(CCURLE_WEIRD_SERVER_REPLY):
            return OriginAttemptFailure(error: OriginError(.invalidResponse, "not a valid HTTP response (curl error \(code))"), retryable: false)
        case Int(CCURLE_OUT_OF_MEMORY), Int(CCURLE_TOO_LARGE):
            return OriginAttemptFailure(error: OriginError(.invalidResponse, "the response head is over libcurl's limit, or memory ran out (curl error \(code))"),
                           retryable: false)
        case Int(CCURLE_BAD_CONTENT_ENCODING):
            return OriginAttemptFailure(error: OriginError(.invalidResponse, "the origin's content coding cannot be decoded (curl error \(code))"),
                           retryable: false)
        case Int(CCURLE_URL_MALFORMAT):
            return OriginError(.invalidRequest, "not an absolute http(s) URL")
        default:
            return OriginAttemptFailure(error: OriginError(.invalidResponse, "unusable response (curl error \(code))"), retryable: false)
        }
    }
}
