import MediaService

/// The service's outcome of an answer (route, tier, `Cache-Status`, variant, partition), carried as the wire
/// response's ``HTTPServer/HTTPServerResponse/annotation`` from ``MediaHTTPHandler`` (when it ``MediaHTTPHandler/annotates``)
/// to the ``AccessLogHandler`` around it.
public final class AnsweredOutcome: Sendable {
    /// What the service did.
    public let outcome: ServiceOutcome

    public init(_ outcome: ServiceOutcome) {
        self.outcome = outcome
    }
}
