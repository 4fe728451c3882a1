// MediaTransform: derived images (variant parameters, the transform as an ordered list of small steps,
// lossless metadata stripping). The only module that touches libvips (through CVips); the engine is
// `ImageTransformer` (Engine/) running the steps in Steps/.

enum MediaTransformLinkCheck {
    static var vipsVersion: String { VipsRuntime.version }
}
