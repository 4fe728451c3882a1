import MediaOrigin

/// A failed attempt of an origin fetch, as a transport reports it: the error, and whether retrying
/// an idempotent request may help (a refused or unreachable host, a connection closed before any
/// response byte; never a timeout, a TLS failure or a bad answer).
struct OriginAttemptFailure: Error {
    let error: OriginError
    let retryable: Bool
}

/// The retry policy of every transport (``CurlOriginFetcher``).
enum OriginRetry {
    /// Runs `attempt` until it answers, retrying ``OriginAttemptFailure``s that are retryable for a
    /// request that may be retried (``MediaService/OriginRequest/isRetryable``: `GET`/`HEAD`), at most
    /// `maxRetries` times, after `retryBaseDelay × 2^(n-1) × jitter(0.5…1.5)` seconds before retry
    /// *n*. ``MediaService/OriginRequest/timeout`` bounds everything: each attempt gets the time that remains,
    /// and a retry whose backoff would end past the deadline is not made (the failure is thrown).
    /// - Parameters:
    ///   - observer: called before each retry with the failed attempt's number and error.
    ///   - attempt: one attempt within `remaining`; throws ``MediaService/OriginError`` (final),
    ///     ``OriginAttemptFailure`` or `CancellationError`.
    /// - Throws: ``MediaService/OriginError`` carrying the number of attempts made, or `CancellationError`.
    static func fetch(
        _ request: OriginRequest, maxRetries: Int, retryBaseDelay: Double,
        observer: (@Sendable (_ attempt: Int, _ error: OriginError) -> Void)?,
        attempt: (_ remaining: Duration) async throws -> OriginResponse
    ) async throws -> OriginResponse {
        let deadline = ContinuousClock.now + .milliseconds(Int64(request.timeout * 1000))
        var number = 0
        while true {
            number += 1
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw OriginError(.timeout, "no answer within \(request.timeout) s", attempts: number - 1)
            }
            do {
                return try await attempt(remaining)
            } catch let error as OriginError {
                throw OriginError(error.code, error.context, attempts: number)
            } catch let failure as OriginAttemptFailure {
                let failed = OriginError(failure.error.code, failure.error.context, attempts: number)
                guard failure.retryable, request.isRetryable, number <= maxRetries else { throw failed }
                let backoff = retryBaseDelay * Double(1 << (number - 1)) * Double.random(in: 0.5..<1.5)
                let pause = Duration.milliseconds(Int64(backoff * 1000))
                // A retry that could only start after the deadline is not made: the failure, now.
                guard pause < ContinuousClock.now.duration(to: deadline) else { throw failed }
                observer?(number, failed)
                if backoff > 0 { try await Task.sleep(for: pause) }
            }
        }
    }
}
