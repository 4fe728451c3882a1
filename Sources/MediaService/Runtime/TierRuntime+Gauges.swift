extension TierRuntime {
    /// File bytes waiting for the write-behind writers, per file store, for metrics.
    var pendingWriteGauges: [(store: String, bytes: Int)] {
        var out: [(String, Int)] = []
        if let disk { out.append(("disk", disk.pendingWriteBytes)) }
        if let sealed { out.append(("encrypted-disk", sealed.pendingWriteBytes)) }
        return out
    }

    /// Bytes held per store, for metrics.
    var byteGauges: [(store: String, bytes: Int)] {
        var out: [(String, Int)] = [("memory", memory.totals.bytes)]
        if let hot { out.append(("hot", hot.totals.bytes)) }
        if let disk { out.append(("disk", disk.totals.bytes)) }
        if let sealed { out.append(("encrypted-disk", sealed.totals.bytes)) }
        return out
    }
}
