import Foundation
import HTTPCaching
import HTTPServer
import MediaCore
import MediaService

extension MediaHTTPHandler {
    /// The service's view of a wire request: method, raw target, header fields in order, body.
    /// Trailer fields are dropped (RFC 9110 §6.5.1: they must not be merged into the header
    /// section unless understood; none is).
    /// The fields are the parser's own (one ``MediaCore/HTTPFields`` type on both sides): nothing is converted.
    public static func serviceRequest(_ request: HTTPServerRequest) -> ServiceRequest {
        ServiceRequest(method: request.method, target: request.target, fields: request.headerFields, body: request.body)
    }

    /// The wire response for a service response: status, fields in order, body. The server adds
    /// framing (`Content-Length` from the body, except HEAD and 304, where the service's value stays).
    public static func serverResponse(_ response: ServiceResponse) -> HTTPServerResponse {
        var wire = HTTPServerResponse(status: response.status, headerFields: response.fields)
        wire.content = response.content
        return wire
    }

    /// ``serverResponse(_:)`` with `X-Request-Id: requestID` (docs/operations.md, "Request ids").
    public static func serverResponse(_ response: ServiceResponse, requestID: String) -> HTTPServerResponse {
        var wire = serverResponse(response)
        // The hit path's fields are shared by every answer of the entry: the id is written after them, not into a copy.
        if wire.headerFields.contains(RequestID.fieldName) {
            wire.headerFields.set(RequestID.fieldName, requestID)
        } else {
            wire.additionalField = HTTPFields.Field(name: RequestID.fieldName.rawName, value: requestID)
        }
        return wire
    }

    /// An RFC 9457 problem in the service's shape (`type`, `title`, `status`, `detail`, `code`),
    /// with `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.
    public static func problem(_ status: HTTPStatus, code: String, detail: String) -> HTTPServerResponse {
        HTTPServerResponse.problem(status: status, detail: detail, code: code)
    }
}
