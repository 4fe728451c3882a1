import CVips

/// One reference to a `VipsImage`, released (`g_object_unref`) when the handle goes: every image a
/// step makes is held by one of these, so no path out of a transform, thrown or returned, leaks one.
/// Not `Sendable`: a handle lives inside one transform on one thread.
final class VipsImageHandle {
    let pointer: UnsafeMutablePointer<VipsImage>

    /// Takes over the caller's reference.
    init(taking pointer: UnsafeMutablePointer<VipsImage>) {
        self.pointer = pointer
    }

    deinit { libvips.pointee.g_object_unref(pointer) }

    /// Runs a libvips call that makes an image into `out` and returns 0, or -1 on failure.
    /// - Throws: `TransformError(code, "<what>: <libvips' error text>")` when it fails.
    static func make(
        _ code: TransformError.Code, _ what: String,
        _ call: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32
    ) throws(TransformError) -> VipsImageHandle {
        var out: UnsafeMutablePointer<VipsImage>?
        let result = call(&out)
        guard result == 0, let out else {
            if let out { libvips.pointee.g_object_unref(out) }
            throw TransformError.vips(code, what)
        }
        return VipsImageHandle(taking: out)
    }

    var width: Int { Int(libvips.pointee.image_get_width(pointer)) }
    var height: Int { Int(libvips.pointee.image_get_height(pointer)) }
    var bands: Int { Int(libvips.pointee.image_get_bands(pointer)) }
    var hasAlpha: Bool { libvips.pointee.image_hasalpha(pointer) != 0 }
    var interpretation: VipsInterpretation { libvips.pointee.image_get_interpretation(pointer) }
    var bandFormat: VipsBandFormat { libvips.pointee.image_get_format(pointer) }
    /// `n-pages` (1 when absent).
    var pages: Int { Int(libvips.pointee.image_get_n_pages(pointer)) }
    /// The height of one page of a strip (`page-height`), or the whole height.
    var pageHeight: Int { Int(libvips.pointee.image_get_page_height(pointer)) }

    /// The names of every field, built-in (`width`, `bands`…) and metadata (`exif-data`…).
    var fieldNames: [String] {
        guard let fields = libvips.pointee.image_get_fields(pointer) else { return [] }
        defer { libvips.pointee.g_strfreev(fields) }
        var names: [String] = []
        var index = 0
        while let name = fields[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }

    /// Whether the image has a field `name` (of any type).
    func has(_ field: String) -> Bool { libvips.pointee.image_get_typeof(pointer, field) != 0 }

    /// A string-valued field, or `nil` when absent or not a string.
    func string(_ field: String) -> String? {
        guard libvips.pointee.image_get_typeof(pointer, field) != 0 else { return nil }
        var value: UnsafePointer<CChar>?
        guard libvips.pointee.image_get_string(pointer, field, &value) == 0, let value else {
            _ = TransformError.takeVipsErrorText()
            return nil
        }
        return String(cString: value)
    }

    /// An int-valued field, or `nil` when absent or not an int.
    func int(_ field: String) -> Int? {
        guard libvips.pointee.image_get_typeof(pointer, field) != 0 else { return nil }
        var value: Int32 = 0
        guard libvips.pointee.image_get_int(pointer, field, &value) == 0 else {
            _ = TransformError.takeVipsErrorText()
            return nil
        }
        return Int(value)
    }
}

extension VipsImageHandle {
    /// The image rendered into memory (`vips_image_copy_memory`): every pixel decoded now.
    /// - Throws: `TransformError(code, "<what>: <libvips' error text>")` when decoding fails.
    func inMemory(_ code: TransformError.Code, _ what: String) throws(TransformError) -> VipsImageHandle {
        guard let copy = libvips.pointee.image_copy_memory(pointer) else { throw TransformError.vips(code, what) }
        return VipsImageHandle(taking: copy)
    }

    /// The band values of pixel (`x`, `y`) (decoding as much of the image as that needs), or `nil`
    /// outside the image or on a decoding error.
    func pixel(x: Int, y: Int) -> [Double]? {
        var values = [Double](repeating: 0, count: 8)
        let count = values.withUnsafeMutableBufferPointer { buffer in
            mediactl_vips_getpoint(libvips, pointer, Int32(x), Int32(y), buffer.baseAddress, Int32(buffer.count))
        }
        guard count > 0 else {
            _ = TransformError.takeVipsErrorText()
            return nil
        }
        return Array(values.prefix(Int(count)))
    }
}
