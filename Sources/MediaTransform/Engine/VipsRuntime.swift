import CVips

/// libvips, opened and started once per process, on first use: the first use of any member (or of
/// ``ImageTransformer``) opens the library with `dlopen` (``CVips``' `cvips_load`: a process that derives no image
/// never maps libvips and the ~90 libraries it needs), runs `VIPS_INIT`, turns the operation cache off
/// (`vips_cache_set_max(0)`, `vips_cache_set_max_mem(0)`: nothing decoded outlives its transform) and sets libvips'
/// own concurrency to 1 thread per pipeline (the service runs its own bounded pool of transform workers, one per CPU).
/// Thread-safe: the start is a `static let`, run once whichever worker gets there first; after it libvips may be
/// called from any thread.
///
/// A libvips that cannot be opened or started (missing, or its library and headers from different releases) is a
/// broken installation: ``unavailable`` says why, and a transform then stops the process with that text. `serve`
/// asks first, when its policies declare variants, and refuses to start (``MediaService``).
public enum VipsRuntime {
    /// The libvips version, e.g. `8.14.1`.
    public static var version: String { started.version }

    /// Whether this libvips writes AVIF: a 16×16 black image saved with heifsave (AV1 compression)
    /// once, at start. `false` where libheif has no AV1 encoder, or libvips is ``unavailable``.
    public static var canSaveAVIF: Bool { (try? shared.get())?.canSaveAVIF ?? false }

    /// Whether this libvips can write JPEG XL (built with libjxl: Debian's 8.14 is). Probed once. `false` where
    /// libvips is ``unavailable``.
    public static var canSaveJXL: Bool { (try? shared.get())?.canSaveJXL ?? false }

    /// Why libvips cannot be used here (opening it first if nothing has yet), or `nil` when it can.
    public static var unavailable: String? {
        if case .failure(let problem) = shared { return problem.text }
        return nil
    }

    /// Starts libvips if nothing has yet (cheap after the first call).
    static func start() { _ = started }

    /// The resolved libvips functions, every call's first argument (libvips started).
    static var api: UnsafePointer<cvips_api> { started.api }

    private static let shared: Result<State, Problem> = State.open()

    private static var started: State {
        switch shared {
        case .success(let state): state
        case .failure(let problem): fatalError(problem.text)
        }
    }

    private struct Problem: Error {
        let text: String
    }

    private struct State: Sendable {
        /// Never freed: the library stays loaded for the process.
        nonisolated(unsafe) let api: UnsafePointer<cvips_api>
        let version: String
        let canSaveAVIF: Bool
        let canSaveJXL: Bool

        static func open() -> Result<State, Problem> {
            let table = UnsafeMutablePointer<cvips_api>.allocate(capacity: 1)
            var message = [CChar](repeating: 0, count: 512)
            guard cvips_load(table, &message, message.count) == 0 else {
                table.deallocate()
                let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return .failure(Problem(text: "libvips cannot be opened: \(text)"))
            }
            let api = UnsafePointer(table)
            let started = mediactl_vips_init(api)
            guard started == 0 else {
                let reason = started == -2 ? "the library's ABI is not the one mediactl was built for"
                    : TransformError.takeVipsErrorText(api)
                return .failure(Problem(text: "libvips did not start: \(reason)"))
            }
            return .success(State(api: api))
        }

        private init(api: UnsafePointer<cvips_api>) {
            self.api = api
            api.pointee.cache_set_max(0)
            api.pointee.cache_set_max_mem(0)
            api.pointee.concurrency_set(1)
            // libvips's warnings about hostile input would reach stderr once per transform; refusals have codes.
            mediactl_vips_quiet(api)
            version = api.pointee.version_string().map { String(cString: $0) } ?? "?"
            canSaveAVIF = Self.probe(api) { image, buffer, length in mediactl_vips_avifsave_buffer(api, image, buffer, length, 50, 0) }
            canSaveJXL = Self.probe(api) { image, buffer, length in mediactl_vips_jxlsave_buffer(api, image, buffer, length, 50, 3) }
        }

        /// Whether `save` writes a 16×16 black image.
        private static func probe(_ api: UnsafePointer<cvips_api>,
                                  _ save: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutableRawPointer?>,
                                           UnsafeMutablePointer<Int>) -> Int32) -> Bool {
            var black: UnsafeMutablePointer<VipsImage>?
            guard mediactl_vips_black(api, &black, 16, 16, 3) == 0, let black else {
                _ = TransformError.takeVipsErrorText(api)
                return false
            }
            defer { api.pointee.g_object_unref(black) }
            var buffer: UnsafeMutableRawPointer?
            var length = 0
            let saved = save(black, &buffer, &length) == 0
            api.pointee.g_free(buffer)
            if !saved { _ = TransformError.takeVipsErrorText(api) }
            return saved && length > 0
        }
    }
}

/// The resolved libvips functions (``VipsRuntime``, started on first use): `libvips.pointee.image_get_width(image)`,
/// and the first argument of every `mediactl_vips_*` wrapper.
var libvips: UnsafePointer<cvips_api> { VipsRuntime.api }
