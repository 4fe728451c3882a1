import CVips

extension TransformError {
    /// An error with `code`, whose detail is `what` followed by libvips' error text (which is then
    /// cleared).
    static func vips(_ code: Code, _ what: String) -> TransformError {
        let text = takeVipsErrorText()
        return TransformError(code, text.isEmpty ? what : "\(what): \(text)")
    }

    /// libvips' error buffer, trimmed, and cleared. The buffer is process-wide in libvips 8.14 (one
    /// lock, not per thread), so with concurrent transforms it may hold another worker's message,
    /// or be empty because another worker took it: the code never depends on this text.
    /// - Parameter api: the functions to use (``libvips``; ``VipsRuntime`` passes its own while it starts).
    static func takeVipsErrorText(_ api: UnsafePointer<cvips_api> = libvips) -> String {
        guard let copy = mediactl_vips_error_take(api) else { return "" }
        defer { api.pointee.g_free(copy) }
        let text = String(cString: copy)
        return String(text.split(whereSeparator: \.isNewline).joined(separator: "; "))
    }
}
