import MediaCore
/// Checks an AVIF or HEIF (ISOBMFF with `ftyp`; ISO/IEC 23008-12 §9.2, AV1-AVIF §2) for metadata items.
///
/// Such files are never rewritten: items are addressed by absolute offsets (`iloc`), so removing one
/// means rewriting the container. The top-level `meta` box's `iinf` is read (ISO/IEC 14496-12 §8.11.6):
/// an item of type `Exif`, or of type `mime` (XMP is `mime` with content type `application/rdf+xml`; any
/// other MIME payload is metadata too), makes the file not strippable; otherwise it comes back unchanged.
/// `infe` versions 0 and 1 (no item type) count as `mime` items when they name a content type.
///
/// Throws the metadata items found (`AVIF: the file carries metadata items Exif, XMP (application/rdf+xml),
/// which cannot be removed losslessly`), or a malformed box structure.
enum ISOBMFFMetadataInspector {
    static func inspect(_ bytes: [UInt8]) throws(MetadataStripError) -> StrippedImage {
        let view = ByteReader(bytes)
        let format = isAVIF(view) ? "AVIF" : "HEIF"
        let top = try ISOBMFFBox.boxes(in: view, 0..<bytes.count, format: format)
        guard top.first?.type == "ftyp" else { throw MetadataStripError(detail: "\(format): the first box is not ftyp") }
        var items: [String] = []
        for meta in top where meta.type == "meta" {
            // meta is a FullBox: version and flags precede its children.
            let children = try ISOBMFFBox.boxes(in: view, try fullBoxContent(meta, view, format), format: format)
            for iinf in children where iinf.type == "iinf" {
                items += try metadataItems(iinf, view, format)
            }
        }
        guard items.isEmpty else {
            throw MetadataStripError(detail: "\(format): the file carries metadata items \(items.joined(separator: ", ")), which cannot be removed losslessly")
        }
        return StrippedImage(bytes: bytes, removed: [], orientation: nil)
    }

    /// Whether the major brand or a compatible brand is `avif` or `avis`.
    static func isAVIF(_ view: ByteReader) -> Bool {
        guard let size = view.u32(0), size >= 16, size <= view.count else { return view.matches("avif", at: 8) || view.matches("avis", at: 8) }
        return stride(from: 8, to: size - 3, by: 4).contains { $0 != 12 && (view.matches("avif", at: $0) || view.matches("avis", at: $0)) }
    }

    /// The content of a FullBox after its version (1 byte) and flags (3 bytes).
    private static func fullBoxContent(_ box: ISOBMFFBox, _ view: ByteReader, _ format: String) throws(MetadataStripError) -> Range<Int> {
        guard box.range.upperBound - box.contentStart >= 4 else {
            throw MetadataStripError(detail: "\(format): box '\(box.type)' at offset \(box.range.lowerBound) is too short for its version and flags")
        }
        return (box.contentStart + 4)..<box.range.upperBound
    }

    /// `Exif`, `XMP (application/rdf+xml)` or `mime (<content type>)` for each metadata item of `iinf`.
    private static func metadataItems(_ iinf: ISOBMFFBox, _ view: ByteReader, _ format: String) throws(MetadataStripError) -> [String] {
        let content = try fullBoxContent(iinf, view, format)
        let countSize = view.u8(iinf.contentStart) == 0 ? 2 : 4  // entry_count: 16 bits in version 0
        guard content.count >= countSize else {
            throw MetadataStripError(detail: "\(format): box 'iinf' at offset \(iinf.range.lowerBound) is too short for its entry count")
        }
        var items: [String] = []
        for infe in try ISOBMFFBox.boxes(in: view, (content.lowerBound + countSize)..<content.upperBound, format: format)
        where infe.type == "infe" {
            let entry = try fullBoxContent(infe, view, format)
            let version = view.u8(infe.contentStart) ?? 0
            if version >= 2 {
                let typeAt = entry.lowerBound + (version == 2 ? 2 : 4) + 2  // item_ID, item_protection_index
                guard typeAt + 4 <= entry.upperBound else {
                    throw MetadataStripError(detail: "\(format): box 'infe' at offset \(infe.range.lowerBound) is too short for its item type")
                }
                let itemType = view.text(typeAt, 4)
                if itemType == "Exif" { items.append("Exif") }
                if itemType == "mime" {
                    // item_name, then content_type, each NUL-terminated.
                    let strings = view.bytes[(typeAt + 4)..<entry.upperBound].split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                    items.append(label(contentType: strings.count > 1 ? String(decoding: strings[1], as: UTF8.self) : ""))
                }
            } else {
                // item_ID, item_protection_index, item_name, content_type.
                guard entry.count >= 4 else { continue }
                let strings = view.bytes[(entry.lowerBound + 4)..<entry.upperBound].split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                if strings.count > 1, !strings[1].isEmpty { items.append(label(contentType: String(decoding: strings[1], as: UTF8.self))) }
            }
        }
        return items
    }

    private static func label(contentType: String) -> String {
        let shown = contentType.isEmpty ? "no content type" : QueryItem.shown(contentType.utf8)
        return contentType == "application/rdf+xml" ? "XMP (application/rdf+xml)" : "mime (\(shown))"
    }
}
