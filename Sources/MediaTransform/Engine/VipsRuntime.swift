import CVips

/// libvips, started once per process: the first use of any member (or of ``ImageTransformer``) runs
/// `VIPS_INIT`, turns the operation cache off (`vips_cache_set_max(0)`, `vips_cache_set_max_mem(0)`:
/// nothing decoded outlives its transform) and sets libvips' own concurrency to 1 thread per
/// pipeline (the service runs its own bounded pool of transform workers, one per CPU). Thread-safe:
/// the start is a `static let`, run once whichever worker gets there first; after it libvips may be
/// called from any thread.
///
/// A libvips that cannot start (its library and headers from different releases) is a broken
/// installation: the first use stops the process with the error text.
public enum VipsRuntime {
    /// The libvips version, e.g. `8.14.1`.
    public static var version: String { shared.version }

    /// Whether this libvips writes AVIF: a 16×16 black image saved with heifsave (AV1 compression)
    /// once, at start. `false` where libheif has no AV1 encoder.
    public static var canSaveAVIF: Bool { shared.canSaveAVIF }

    /// Whether this libvips can write JPEG XL (built with libjxl: Debian's 8.14 is). Probed once.
    public static var canSaveJXL: Bool { shared.canSaveJXL }

    /// Starts libvips if nothing has yet (cheap after the first call).
    static func start() { _ = shared }

    private static let shared = State()

    private struct State: Sendable {
        let version: String
        let canSaveAVIF: Bool
        let canSaveJXL: Bool

        init() {
            guard mediactl_vips_init() == 0 else {
                fatalError("libvips did not start: \(TransformError.takeVipsErrorText())")
            }
            vips_cache_set_max(0)
            vips_cache_set_max_mem(0)
            vips_concurrency_set(1)
            // libvips's warnings about hostile input would reach stderr once per transform; refusals have codes.
            mediactl_vips_quiet()
            version = String(cString: vips_version_string())
            canSaveAVIF = Self.probe { image, buffer, length in mediactl_vips_avifsave_buffer(image, buffer, length, 50, 0) }
            canSaveJXL = Self.probe { image, buffer, length in mediactl_vips_jxlsave_buffer(image, buffer, length, 50, 3) }
        }

        /// Whether `save` writes a 16×16 black image.
        private static func probe(_ save: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutableRawPointer?>,
                                           UnsafeMutablePointer<Int>) -> Int32) -> Bool {
            var black: UnsafeMutablePointer<VipsImage>?
            guard mediactl_vips_black(&black, 16, 16, 3) == 0, let black else {
                _ = TransformError.takeVipsErrorText()
                return false
            }
            defer { g_object_unref(black) }
            var buffer: UnsafeMutableRawPointer?
            var length = 0
            let saved = save(black, &buffer, &length) == 0
            g_free(buffer)
            if !saved { _ = TransformError.takeVipsErrorText() }
            return saved && length > 0
        }
    }
}
