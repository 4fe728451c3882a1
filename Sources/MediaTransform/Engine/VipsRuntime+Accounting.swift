import CVips

extension VipsRuntime {
    /// What libvips holds at this moment, to check that transforms give everything back.
    struct Accounting: Sendable, Hashable, CustomStringConvertible {
        /// Live `VipsObject`s (images and operations).
        var objects: Int
        /// Bytes of pixel buffers and memory images allocated through libvips' tracker.
        var trackedBytes: Int
        /// Live allocations through that tracker.
        var trackedAllocations: Int
        /// Files libvips has open.
        var openFiles: Int

        var description: String {
            "objects \(objects), tracked \(trackedBytes) B in \(trackedAllocations) allocations, files \(openFiles)"
        }
    }

    /// The current accounting.
    static var accounting: Accounting {
        start()
        return Accounting(
            objects: Int(mediactl_vips_live_objects(libvips)), trackedBytes: Int(libvips.pointee.tracked_get_mem()),
            trackedAllocations: Int(libvips.pointee.tracked_get_allocs()), openFiles: Int(libvips.pointee.tracked_get_files()))
    }
}
