import CVips

/// Reads a source's header through the one loader its format allows (`*_buffer`, from memory,
/// `access=sequential`, `fail_on=error`): width, height and fields are known, no pixel is decoded.
enum HeaderReader {
    /// The header of `bytes`, which ``SourceFormat/sniff(_:)`` called `format`.
    ///
    /// - Throws: `unsupported-format` when libvips would pick another loader for these bytes, or
    ///   says an AVIF is not AV1 (its `heif-compression`, which 8.14 takes from the brand: the item
    ///   types were checked by ``SourceFormat/sniff(_:)``); `undecodable` when the loader
    ///   refuses the header (a PNG with a bad IHDR CRC, a JPEG with no frame header).
    static func read(_ bytes: UnsafeRawBufferPointer, as format: SourceFormat) throws(TransformError) -> ImageProbe {
        probe(of: try open(bytes, as: format), as: format)
    }

    /// What the header `image` (from ``open(_:as:)``) says.
    static func probe(of header: VipsImageHandle, as format: SourceFormat) -> ImageProbe {
        ImageProbe(
            format: format, width: header.width, height: header.height, pages: max(1, header.pages),
            hasAlpha: header.hasAlpha, orientation: header.int("orientation") ?? 1)
    }

    /// The lazy image behind ``read(_:as:)`` (pixels decoded only when read; `bytes` must outlive
    /// it). Throws as ``read(_:as:)``.
    static func open(_ bytes: UnsafeRawBufferPointer, as format: SourceFormat) throws(TransformError) -> VipsImageHandle {
        VipsRuntime.start()
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw TransformError(.unsupportedFormat, "no bytes")
        }
        guard let nickname = libvips.pointee.foreign_find_load_buffer(base, bytes.count) else {
            throw TransformError.vips(.undecodable, "no libvips loader recognises this \(format.rawValue)")
        }
        let loader = String(cString: nickname)
        guard format.loaderClassNames.contains(loader) else {
            throw TransformError(.unsupportedFormat, "libvips would load these bytes with \(loader)")
        }
        let header = try VipsImageHandle.make(.undecodable, "\(format.rawValue) header") { out in
            switch format {
            case .jpeg: mediactl_vips_jpegload_header(libvips, base, bytes.count, out)
            case .png: mediactl_vips_pngload_header(libvips, base, bytes.count, out)
            case .webp: mediactl_vips_webpload_header(libvips, base, bytes.count, out)
            case .gif: mediactl_vips_gifload_header(libvips, base, bytes.count, out)
            case .avif: mediactl_vips_heifload_header(libvips, base, bytes.count, out)
            }
        }
        if format == .avif {
            let compression = header.string("heif-compression") ?? "unknown"
            guard compression == "av1" else {
                throw TransformError(.unsupportedFormat, "HEIF image compressed with \(compression), not AV1")
            }
        }
        return header
    }
}
