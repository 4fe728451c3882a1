import CCurl

/// libcurl, opened once per process with `dlopen("libcurl.so.4")` (the runtime library
/// FoundationNetworking itself loads), its functions resolved into a table.
///
/// `curl_global_init` runs once, when the library is first opened (Swift's global initialisers
/// are thread-safe); libcurl reference-counts it, so FoundationNetworking's own call is harmless.
/// It is thread-safe against other callers only when `curl_version_info` reports
/// `CURL_VERSION_THREADSAFE` (libcurl ≥ 7.84; Debian 12 ships 7.88.1).
final class CurlLibrary: @unchecked Sendable {
    /// The resolved functions (never freed: the library stays loaded for the process).
    let api: UnsafePointer<ccurl_api>
    /// `LIBCURL_VERSION`, e.g. `7.88.1`.
    let version: String
    /// `LIBCURL_VERSION_NUM`, e.g. `0x075801`.
    let versionNumber: UInt32
    /// Whether libcurl was built with IPv6.
    let supportsIPv6: Bool
    /// Whether `curl_global_init` is thread-safe (`CURL_VERSION_THREADSAFE`, libcurl ≥ 7.84).
    let isThreadSafe: Bool

    private init(api: UnsafePointer<ccurl_api>, version: String, versionNumber: UInt32, features: Int32) {
        self.api = api
        self.version = version
        self.versionNumber = versionNumber
        supportsIPv6 = features & Int32(CCURL_VERSION_IPV6) != 0
        isThreadSafe = features & Int32(CCURL_VERSION_THREADSAFE) != 0
    }

    /// The oldest libcurl accepted: 7.85.0 (`CURLOPT_PROTOCOLS_STR`).
    static let minimumVersion: UInt32 = 0x07_55_00

    /// The process's libcurl, or why it cannot be used.
    static let shared: Result<CurlLibrary, CurlOriginFetcher.Unavailable> = open("libcurl.so.4")

    /// Opens `name` and resolves the functions this module calls.
    static func open(_ name: String) -> Result<CurlLibrary, CurlOriginFetcher.Unavailable> {
        let api = UnsafeMutablePointer<ccurl_api>.allocate(capacity: 1)
        var message = [CChar](repeating: 0, count: 512)
        let loaded = ccurl_load(name, api, &message, message.count)
        guard loaded == 0 else {
            api.deallocate()
            return .failure(.init("cannot load \(name): \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"))
        }
        guard let info = api.pointee.version_info(Int32(CCURLVERSION_TENTH)) else {
            api.deallocate()
            return .failure(.init("\(name): curl_version_info returned nothing"))
        }
        let version = info.pointee.version.map { String(cString: $0) } ?? "?"
        let number = UInt32(info.pointee.version_num)
        guard number >= minimumVersion else {
            api.deallocate()
            return .failure(.init("\(name) is libcurl \(version); 7.85.0 or later is needed"))
        }
        let code = api.pointee.global_init(Int(CCURL_GLOBAL_ALL))
        guard code == CCURLE_OK else {
            api.deallocate()
            return .failure(.init("\(name): curl_global_init failed (curl error \(code))"))
        }
        return .success(CurlLibrary(api: UnsafePointer(api), version: version, versionNumber: number,
                                    features: info.pointee.features))
    }

    /// libcurl's text for `code` (e.g. "Couldn't connect to server").
    func describe(_ code: CCURLcode) -> String {
        api.pointee.easy_strerror(code).map { String(cString: $0) } ?? "curl error \(code)"
    }
}
