import MediaCore

/// A horizontal bar chart as inline SVG for an HTML5 page, narrow enough for a phone: per bar label a
/// group of one bar per series, each series scaled to its own largest value (objects and bytes differ by
/// orders of magnitude).
///
/// Layout, in user units (1 unit = 1 CSS pixel at the natural size ``width`` × ``height``; the page's
/// style lets it shrink to its container, `max-width: 100%; height: auto`, the `viewBox` keeping its
/// proportions): a legend line of ``headerHeight`` with each series' name in its color at `x = 110 × i`;
/// then per bar a group: its label on a line of ``labelHeight`` at `x = 0`, then one line of ``barHeight``
/// per series with the bar from `x = 0` (the bar 2 units less high) and its value text 4 units after the
/// bar's end, then ``groupGap``. A bar's width is `value × panelWidth / max` of its series, rounded down,
/// at least 1 for a non-zero value, 0 for zero; ``valueWidth`` after the widest bar holds its value. A
/// ``Series/Unit/bytes`` series writes its values as ``ByteSize/text`` (`39.7 KiB`). Every bar carries a
/// `<title>` with the exact value (`private / disk, objects: 3`; `private / disk, bytes: 39.7 KiB (40618
/// bytes)`) for tooltips and screen readers; the SVG has `role="img"` and a `<title>`. No `xmlns` (not
/// needed inline in HTML), no script, no external reference. Text is escaped by ``XMLEscaping``. An
/// empty chart shows the legend and one line, `nothing recorded`.
public struct SVGChart: Hashable, Sendable {
    /// One group: a label and one value per series.
    public struct Bar: Hashable, Sendable {
        /// The group's label, e.g. `private / encrypted-disk`.
        public var label: String
        /// One value per series, in series order (missing values count as 0).
        public var values: [Int]

        public init(label: String, values: [Int]) {
            self.label = label
            self.values = values
        }
    }

    /// One series: its name (legend and bar titles), its fill color and how its values read.
    public struct Series: Hashable, Sendable {
        /// How a series' values are written.
        public enum Unit: Hashable, Sendable {
            /// A plain count: `3`.
            case count
            /// Bytes, as ``ByteSize/text``: `39.7 KiB` (the exact count in the bar's title).
            case bytes
        }

        /// The name, e.g. `objects`.
        public var name: String
        /// A CSS color, e.g. `#4e79a7`.
        public var color: String
        /// How its values are written; default ``Unit/count``.
        public var unit: Unit

        public init(name: String, color: String, unit: Unit = .count) {
            self.name = name
            self.color = color
            self.unit = unit
        }
    }

    /// Width of the bar area (the widest bar of a series).
    public static let panelWidth = 220
    /// Width reserved after the bar area for a value.
    public static let valueWidth = 100
    /// Height of the legend line.
    public static let headerHeight = 24
    /// Height of a group's label line.
    public static let labelHeight = 16
    /// Height of one series' line in a group (its bar is 2 units less).
    public static let barHeight = 16
    /// Space after each group.
    public static let groupGap = 8

    /// The chart's title (the SVG `<title>`).
    public var title: String
    /// The series, in legend order and in each group top to bottom.
    public var series: [Series]
    /// The groups, top to bottom.
    public var bars: [Bar]

    public init(title: String, series: [Series], bars: [Bar]) {
        self.title = title
        self.series = series
        self.bars = bars
    }

    /// Total width: the bar area and the value after it (320).
    public var width: Int { Self.panelWidth + Self.valueWidth }
    /// Height of one group: its label line, a line per series and the gap.
    public var groupHeight: Int { Self.labelHeight + series.count * Self.barHeight + Self.groupGap }
    /// Total height: the legend line, one group per bar (one line of ``labelHeight`` plus ``groupGap``
    /// for an empty chart) and 6 of margin.
    public var height: Int {
        Self.headerHeight + (bars.isEmpty ? Self.labelHeight + Self.groupGap : bars.count * groupHeight) + 6
    }

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
            out += "<text x=\"\(110 * index)\" y=\"16\" font-weight=\"bold\" fill=\"\(XMLEscaping.attribute(item.color))\">"
                + "\(XMLEscaping.text(item.name))</text>\n"
        }
        guard !bars.isEmpty else {
            return out + "<text x=\"0\" y=\"\(Self.headerHeight + 12)\">nothing recorded</text>\n</svg>\n"
        }
        let maxima = series.indices.map { index in bars.map { value(of: $0, index) }.max() ?? 0 }
        for (row, bar) in bars.enumerated() {
            let top = Self.headerHeight + row * groupHeight
            out += "<text x=\"0\" y=\"\(top + 12)\">\(XMLEscaping.text(bar.label))</text>\n"
            for (index, item) in series.enumerated() {
                let amount = value(of: bar, index)
                let barWidth = Self.barWidth(amount, maximum: maxima[index])
                let line = top + Self.labelHeight + index * Self.barHeight
                let tip = "\(bar.label), \(item.name): " + Self.exact(amount, item.unit)
                out += "<rect x=\"0\" y=\"\(line + 1)\" width=\"\(barWidth)\" height=\"\(Self.barHeight - 2)\" "
                    + "fill=\"\(XMLEscaping.attribute(item.color))\"><title>\(XMLEscaping.text(tip))</title></rect>\n"
                out += "<text x=\"\(barWidth + 4)\" y=\"\(line + 12)\">\(Self.text(amount, item.unit))</text>\n"
            }
        }
        return out + "</svg>\n"
    }

    /// A value as the chart writes it next to its bar: `3`, `39.7 KiB`.
    static func text(_ value: Int, _ unit: Series.Unit) -> String {
        unit == .bytes ? ByteSize(value).text : String(value)
    }

    /// A value as a bar's title gives it: `3`, `39.7 KiB (40618 bytes)`.
    static func exact(_ value: Int, _ unit: Series.Unit) -> String {
        unit == .bytes ? "\(ByteSize(value).text) (\(ByteSize(value).title))" : String(value)
    }

    private func value(of bar: Bar, _ index: Int) -> Int { index < bar.values.count ? bar.values[index] : 0 }
}
