import MediaCore

extension PolicyLoader {
    /// Parses, validates and merges policy files given as bytes, in the given order.
    ///
    /// - Parameters:
    ///   - sources: the files; their names appear in errors and in ``Route/file``.
    ///   - directory: named in directory-wide errors (``PolicyError/Code/noRoutes``,
    ///     ``PolicyError/Code/noPolicyFiles``). Default: `Policies`.
    /// - Throws: ``PolicyErrorList`` with every problem, per file in document order, then the
    ///   cross-file ones (``PolicyError/Code/duplicateTier``, ``PolicyError/Code/duplicateRoute``,
    ///   ``PolicyError/Code/unknownTier``, ``PolicyError/Code/overlappingMount``,
    ///   ``PolicyError/Code/noRoutes``).
    public func load(sources: [Source], directory: String = "Policies") throws(PolicyErrorList) -> PolicySet {
        try load(entries: sources.map { .source($0) }, directory: directory)
    }

    /// A file to merge, or the reason it could not be read (kept in place so errors stay in file order).
    enum Entry {
        case source(Source)
        case failed(PolicyError)
    }

    func load(entries: [Entry], directory: String) throws(PolicyErrorList) -> PolicySet {
        guard !entries.isEmpty else {
            throw PolicyErrorList([PolicyError(
                .noPolicyFiles, file: directory, keyPath: "", value: nil, problem: "no policy files (*.json)",
                allowed: "one or more *.json files")])
        }
        var merger = PolicyMerger(directory: directory)
        for entry in entries {
            let source: Source
            switch entry {
            case .failed(let error):
                // Also keeps no-routes quiet: the missing routes may be in this file.
                merger.errors.append(error)
                continue
            case .source(let file):
                source = file
            }
            guard source.bytes.count <= configuration.maximumFileBytes else {
                merger.errors.append(tooLarge(source.name, source.bytes.count))
                continue
            }
            var decoder = PolicyFileDecoder(file: source.name)
            do {
                decoder.decode(try JSONParser.parse(source.bytes))
            } catch {
                merger.errors.append(PolicyError(
                    .invalidJSON, file: source.name, keyPath: "", value: nil,
                    problem: "invalid JSON at line \(error.line), column \(error.column): \(error.message)",
                    allowed: "JSON (RFC 8259) without comments or trailing commas"))
                continue
            }
            merger.add(decoder)
        }
        return try merger.finish()
    }

    func tooLarge(_ file: String, _ size: Int) -> PolicyError {
        PolicyError(
            .unreadable, file: file, keyPath: "", value: nil, problem: "the file has \(size) bytes",
            allowed: "at most \(configuration.maximumFileBytes) bytes")
    }
}
