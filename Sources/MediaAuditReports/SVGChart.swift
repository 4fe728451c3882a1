/// A horizontal bar chart as inline SVG for an HTML5 page: one row per bar label, one panel per series,
/// each panel scaled to its own largest value (objects and bytes differ by orders of magnitude).
///
/// Layout, in user units (1 unit = 1 CSS pixel): a label column of ``labelWidth``, then per series a
/// panel of ``panelWidth`` for the bars followed by ``valueWidth`` for the value text; rows of
/// ``rowHeight``; the series names on a header line. A bar's width is `value × panelWidth / max` of its
/// series, rounded down, at least 1 for a non-zero value, 0 for zero. Every bar carries a `<title>`
/// (`private / disk, objects: 3`) for tooltips and screen readers; the SVG has `role="img"` and a
/// `<title>`. No `xmlns` (not needed inline in HTML), no script, no external reference. Text is escaped
/// by ``XMLEscaping``. An empty chart shows one line, `nothing recorded`.
public struct SVGChart: Hashable, Sendable {
    /// One row: a label and one value per series.
    public struct Bar: Hashable, Sendable {
        /// The row label, e.g. `private / encrypted-disk`.
        public var label: String
        /// One value per series, in series order (missing values count as 0).
        public var values: [Int]

        public init(label: String, values: [Int]) {
            self.label = label
            self.values = values
        }
    }

    /// One series: its name (header line and bar titles) and its fill color.
    public struct Series: Hashable, Sendable {
        /// The name, e.g. `objects`.
        public var name: String
        /// A CSS color, e.g. `#4e79a7`.
        public var color: String

        public init(name: String, color: String) {
            self.name = name
            self.color = color
        }
    }

    /// Width of the label column.
    public static let labelWidth = 240
    /// Width of one series' bar area.
    public static let panelWidth = 220
    /// Width reserved after a bar area for its values.
    public static let valueWidth = 110
    /// Height of one row (bars are 4 units less).
    public static let rowHeight = 22
    /// Height of the header line.
    public static let headerHeight = 26

    /// The chart's title (the SVG `<title>`).
    public var title: String
    /// The series, in panel order.
    public var series: [Series]
    /// The rows, top to bottom.
    public var bars: [Bar]

    public init(title: String, series: [Series], bars: [Bar]) {
        self.title = title
        self.series = series
        self.bars = bars
    }

    /// Total width: the label column plus each series' panel and value area.
    public var width: Int { Self.labelWidth + series.count * (Self.panelWidth + Self.valueWidth) }
    /// Total height: the header line plus one row per bar (one row for an empty chart) and 6 of margin.
    public var height: Int { Self.headerHeight + max(1, bars.count) * Self.rowHeight + 6 }

    /// The width of the bar for `value` in a series whose largest value is `maximum`.
    public static func barWidth(_ value: Int, maximum: Int) -> Int {
        guard value > 0, maximum > 0 else { return 0 }
        return max(1, Int((Int64(value) * Int64(panelWidth)) / Int64(maximum)))
    }

    /// The `<svg>` element, one element per line, ending with `</svg>\n`.
    public var svg: String {
        var out = "<svg width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" "
            + "aria-label=\"\(XMLEscaping.attribute(title))\">\n"
        out += "<title>\(XMLEscaping.text(title))</title>\n"
        for (index, item) in series.enumerated() {
            out += "<text x=\"\(panelX(index))\" y=\"18\" font-weight=\"bold\">\(XMLEscaping.text(item.name))</text>\n"
        }
        guard !bars.isEmpty else {
            return out + "<text x=\"0\" y=\"\(Self.headerHeight + 15)\">nothing recorded</text>\n</svg>\n"
        }
        let maxima = series.indices.map { index in bars.map { value(of: $0, index) }.max() ?? 0 }
        for (row, bar) in bars.enumerated() {
            let top = Self.headerHeight + row * Self.rowHeight
            out += "<text x=\"0\" y=\"\(top + 15)\">\(XMLEscaping.text(bar.label))</text>\n"
            for (index, item) in series.enumerated() {
                let amount = value(of: bar, index)
                let barWidth = Self.barWidth(amount, maximum: maxima[index])
                let x = panelX(index)
                let tip = "\(bar.label), \(item.name): \(amount)"
                out += "<rect x=\"\(x)\" y=\"\(top + 2)\" width=\"\(barWidth)\" height=\"\(Self.rowHeight - 4)\" "
                    + "fill=\"\(XMLEscaping.attribute(item.color))\"><title>\(XMLEscaping.text(tip))</title></rect>\n"
                out += "<text x=\"\(x + barWidth + 4)\" y=\"\(top + 15)\">\(amount)</text>\n"
            }
        }
        return out + "</svg>\n"
    }

    private func panelX(_ index: Int) -> Int { Self.labelWidth + index * (Self.panelWidth + Self.valueWidth) }

    private func value(of bar: Bar, _ index: Int) -> Int { index < bar.values.count ? bar.values[index] : 0 }
}
