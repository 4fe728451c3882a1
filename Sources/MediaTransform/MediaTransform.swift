// MediaTransform: derived images (variant parameters, the transform as an ordered list of small steps,
// lossless metadata stripping). The only module that touches libvips (through CVips).
import CVips

enum MediaTransformLinkCheck {
    static var vipsVersion: String { String(cString: vips_version_string()) }
}
