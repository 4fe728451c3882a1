/// The field names mediactl reads or writes, as static members (RFC 9110 §16.3.1's registry spelling; the
/// canonical form is ``HTTPFieldName/canonicalName``): `fields[.cacheControl]`, `fields.set(.vary, "Accept")`.
extension HTTPFieldName {
    /// `Accept`.
    @inlinable public static var accept: HTTPFieldName { HTTPFieldName("Accept") }
    /// `Accept-Encoding`.
    @inlinable public static var acceptEncoding: HTTPFieldName { HTTPFieldName("Accept-Encoding") }
    /// `Accept-Language`.
    @inlinable public static var acceptLanguage: HTTPFieldName { HTTPFieldName("Accept-Language") }
    /// `Accept-Ranges`.
    @inlinable public static var acceptRanges: HTTPFieldName { HTTPFieldName("Accept-Ranges") }
    /// `Access-Control-Allow-Credentials`.
    @inlinable public static var accessControlAllowCredentials: HTTPFieldName { HTTPFieldName("Access-Control-Allow-Credentials") }
    /// `Access-Control-Allow-Headers`.
    @inlinable public static var accessControlAllowHeaders: HTTPFieldName { HTTPFieldName("Access-Control-Allow-Headers") }
    /// `Access-Control-Allow-Methods`.
    @inlinable public static var accessControlAllowMethods: HTTPFieldName { HTTPFieldName("Access-Control-Allow-Methods") }
    /// `Access-Control-Allow-Origin`.
    @inlinable public static var accessControlAllowOrigin: HTTPFieldName { HTTPFieldName("Access-Control-Allow-Origin") }
    /// `Access-Control-Expose-Headers`.
    @inlinable public static var accessControlExposeHeaders: HTTPFieldName { HTTPFieldName("Access-Control-Expose-Headers") }
    /// `Access-Control-Max-Age`.
    @inlinable public static var accessControlMaxAge: HTTPFieldName { HTTPFieldName("Access-Control-Max-Age") }
    /// `Access-Control-Request-Headers`.
    @inlinable public static var accessControlRequestHeaders: HTTPFieldName { HTTPFieldName("Access-Control-Request-Headers") }
    /// `Access-Control-Request-Method`.
    @inlinable public static var accessControlRequestMethod: HTTPFieldName { HTTPFieldName("Access-Control-Request-Method") }
    /// `Age`.
    @inlinable public static var age: HTTPFieldName { HTTPFieldName("Age") }
    /// `Allow`.
    @inlinable public static var allow: HTTPFieldName { HTTPFieldName("Allow") }
    /// `Authorization`.
    @inlinable public static var authorization: HTTPFieldName { HTTPFieldName("Authorization") }
    /// `Cache-Control`.
    @inlinable public static var cacheControl: HTTPFieldName { HTTPFieldName("Cache-Control") }
    /// `Cache-Status`.
    @inlinable public static var cacheStatus: HTTPFieldName { HTTPFieldName("Cache-Status") }
    /// `CDN-Cache-Control`.
    @inlinable public static var cdnCacheControl: HTTPFieldName { HTTPFieldName("CDN-Cache-Control") }
    /// `Connection`.
    @inlinable public static var connection: HTTPFieldName { HTTPFieldName("Connection") }
    /// `Content-Digest`.
    @inlinable public static var contentDigest: HTTPFieldName { HTTPFieldName("Content-Digest") }
    /// `Content-Encoding`.
    @inlinable public static var contentEncoding: HTTPFieldName { HTTPFieldName("Content-Encoding") }
    /// `Content-Language`.
    @inlinable public static var contentLanguage: HTTPFieldName { HTTPFieldName("Content-Language") }
    /// `Content-Length`.
    @inlinable public static var contentLength: HTTPFieldName { HTTPFieldName("Content-Length") }
    /// `Content-Location`.
    @inlinable public static var contentLocation: HTTPFieldName { HTTPFieldName("Content-Location") }
    /// `Content-MD5`.
    @inlinable public static var contentMD5: HTTPFieldName { HTTPFieldName("Content-MD5") }
    /// `Content-Range`.
    @inlinable public static var contentRange: HTTPFieldName { HTTPFieldName("Content-Range") }
    /// `Content-Type`.
    @inlinable public static var contentType: HTTPFieldName { HTTPFieldName("Content-Type") }
    /// `Cookie`.
    @inlinable public static var cookie: HTTPFieldName { HTTPFieldName("Cookie") }
    /// `Cross-Origin-Resource-Policy`.
    @inlinable public static var crossOriginResourcePolicy: HTTPFieldName { HTTPFieldName("Cross-Origin-Resource-Policy") }
    /// `Date`.
    @inlinable public static var date: HTTPFieldName { HTTPFieldName("Date") }
    /// `ETag`.
    @inlinable public static var eTag: HTTPFieldName { HTTPFieldName("ETag") }
    /// `Expect`.
    @inlinable public static var expect: HTTPFieldName { HTTPFieldName("Expect") }
    /// `Expires`.
    @inlinable public static var expires: HTTPFieldName { HTTPFieldName("Expires") }
    /// `Host`.
    @inlinable public static var host: HTTPFieldName { HTTPFieldName("Host") }
    /// `If-Match`.
    @inlinable public static var ifMatch: HTTPFieldName { HTTPFieldName("If-Match") }
    /// `If-Modified-Since`.
    @inlinable public static var ifModifiedSince: HTTPFieldName { HTTPFieldName("If-Modified-Since") }
    /// `If-None-Match`.
    @inlinable public static var ifNoneMatch: HTTPFieldName { HTTPFieldName("If-None-Match") }
    /// `If-Range`.
    @inlinable public static var ifRange: HTTPFieldName { HTTPFieldName("If-Range") }
    /// `If-Unmodified-Since`.
    @inlinable public static var ifUnmodifiedSince: HTTPFieldName { HTTPFieldName("If-Unmodified-Since") }
    /// `Keep-Alive`.
    @inlinable public static var keepAlive: HTTPFieldName { HTTPFieldName("Keep-Alive") }
    /// `Last-Modified`.
    @inlinable public static var lastModified: HTTPFieldName { HTTPFieldName("Last-Modified") }
    /// `Location`.
    @inlinable public static var location: HTTPFieldName { HTTPFieldName("Location") }
    /// `Origin`.
    @inlinable public static var origin: HTTPFieldName { HTTPFieldName("Origin") }
    /// `Pragma`.
    @inlinable public static var pragma: HTTPFieldName { HTTPFieldName("Pragma") }
    /// `Proxy-Authorization`.
    @inlinable public static var proxyAuthorization: HTTPFieldName { HTTPFieldName("Proxy-Authorization") }
    /// `Proxy-Connection`.
    @inlinable public static var proxyConnection: HTTPFieldName { HTTPFieldName("Proxy-Connection") }
    /// `Range`.
    @inlinable public static var range: HTTPFieldName { HTTPFieldName("Range") }
    /// `Referer`.
    @inlinable public static var referer: HTTPFieldName { HTTPFieldName("Referer") }
    /// `Referrer-Policy`.
    @inlinable public static var referrerPolicy: HTTPFieldName { HTTPFieldName("Referrer-Policy") }
    /// `Repr-Digest`.
    @inlinable public static var reprDigest: HTTPFieldName { HTTPFieldName("Repr-Digest") }
    /// `Retry-After`.
    @inlinable public static var retryAfter: HTTPFieldName { HTTPFieldName("Retry-After") }
    /// `Set-Cookie`.
    @inlinable public static var setCookie: HTTPFieldName { HTTPFieldName("Set-Cookie") }
    /// `TE`.
    @inlinable public static var te: HTTPFieldName { HTTPFieldName("TE") }
    /// `Timing-Allow-Origin`.
    @inlinable public static var timingAllowOrigin: HTTPFieldName { HTTPFieldName("Timing-Allow-Origin") }
    /// `Trailer`.
    @inlinable public static var trailer: HTTPFieldName { HTTPFieldName("Trailer") }
    /// `Transfer-Encoding`.
    @inlinable public static var transferEncoding: HTTPFieldName { HTTPFieldName("Transfer-Encoding") }
    /// `Upgrade`.
    @inlinable public static var upgrade: HTTPFieldName { HTTPFieldName("Upgrade") }
    /// `User-Agent`.
    @inlinable public static var userAgent: HTTPFieldName { HTTPFieldName("User-Agent") }
    /// `Vary`.
    @inlinable public static var vary: HTTPFieldName { HTTPFieldName("Vary") }
    /// `WWW-Authenticate`.
    @inlinable public static var wwwAuthenticate: HTTPFieldName { HTTPFieldName("WWW-Authenticate") }
    /// `X-Content-Type-Options`.
    @inlinable public static var xContentTypeOptions: HTTPFieldName { HTTPFieldName("X-Content-Type-Options") }
    /// `X-Forwarded-For`.
    @inlinable public static var xForwardedFor: HTTPFieldName { HTTPFieldName("X-Forwarded-For") }
}
