import Foundation

/// ThumbHash (Evan Wallace, https://evanw.github.io/thumbhash/): a placeholder of about 25 bytes that a client decodes
/// into a blurred picture with the image's aspect ratio, colours and alpha. The encoder follows the published
/// algorithm step for step, in the same floating-point order, so the bytes equal the reference encoders' (PyPI
/// `thumbhash` is checked against in the tests):
/// 1. the alpha-weighted average colour; opaque images use 7 luminance coefficients on the longer side, images with
///    transparency 5 (and 5×5 alpha coefficients);
/// 2. pixels, composited onto the average colour, become L (luminance), P (yellow–blue) and Q (red–green);
/// 3. each channel's DCT coefficients in a triangle (`cx * ny < nx * (ny - cy)`), the DC kept apart and the AC terms
///    scaled by their largest magnitude into 0…1;
/// 4. a 24-bit and a 16-bit header (DC terms, scales, alpha flag, luminance coefficient count, orientation), an
///    alpha byte when there is transparency, then the AC terms as 4-bit nibbles, low nibble first.
/// Rounding is half away from zero (the reference's `Math.round` on the non-negative values here).
public enum ThumbHash {
    /// The largest side accepted: the reference encoders take at most 100 × 100 pixels.
    public static let maxSide = 100

    /// The ThumbHash of `rgba`: `width` × `height` pixels, row by row, 4 bytes each (red, green, blue, alpha,
    /// unassociated), `width` and `height` 1 to ``maxSide``.
    /// - Returns: `nil` when the sizes are out of range or `rgba` has not `width × height × 4` bytes.
    public static func encode(width w: Int, height h: Int, rgba: [UInt8]) -> [UInt8]? {
        guard (1...maxSide).contains(w), (1...maxSide).contains(h), rgba.count == w * h * 4 else { return nil }
        var avgR = 0.0, avgG = 0.0, avgB = 0.0, avgA = 0.0
        for i in 0..<(w * h) {
            let j = i * 4
            let alpha = Double(rgba[j + 3]) / 255
            avgR += alpha / 255 * Double(rgba[j])
            avgG += alpha / 255 * Double(rgba[j + 1])
            avgB += alpha / 255 * Double(rgba[j + 2])
            avgA += alpha
        }
        if avgA > 0 {
            avgR /= avgA
            avgG /= avgA
            avgB /= avgA
        }
        let hasAlpha = avgA < Double(w * h)
        let limit = hasAlpha ? 5.0 : 7.0
        let longer = Double(max(w, h))
        let lx = max(1, round(limit * Double(w) / longer))
        let ly = max(1, round(limit * Double(h) / longer))

        var l = [Double](), p = [Double](), q = [Double](), a = [Double]()
        l.reserveCapacity(w * h); p.reserveCapacity(w * h); q.reserveCapacity(w * h); a.reserveCapacity(w * h)
        for i in 0..<(w * h) {
            let j = i * 4
            let alpha = Double(rgba[j + 3]) / 255
            let r = avgR * (1 - alpha) + alpha / 255 * Double(rgba[j])
            let g = avgG * (1 - alpha) + alpha / 255 * Double(rgba[j + 1])
            let b = avgB * (1 - alpha) + alpha / 255 * Double(rgba[j + 2])
            l.append((r + g + b) / 3)
            p.append((r + g) / 2 - b)
            q.append(r - g)
            a.append(alpha)
        }
        let lChannel = Channel(l, width: w, height: h, nx: max(3, lx), ny: max(3, ly))
        let pChannel = Channel(p, width: w, height: h, nx: 3, ny: 3)
        let qChannel = Channel(q, width: w, height: h, nx: 3, ny: 3)
        let aChannel = hasAlpha ? Channel(a, width: w, height: h, nx: 5, ny: 5) : nil

        let isLandscape = w > h
        let header24 = round(63 * lChannel.dc) | (round(31.5 + 31.5 * pChannel.dc) << 6)
            | (round(31.5 + 31.5 * qChannel.dc) << 12) | (round(31 * lChannel.scale) << 18) | ((hasAlpha ? 1 : 0) << 23)
        let header16 = (isLandscape ? ly : lx) | (round(63 * pChannel.scale) << 3) | (round(63 * qChannel.scale) << 9)
            | ((isLandscape ? 1 : 0) << 15)
        var hash: [UInt8] = [UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16),
                             UInt8(header16 & 255), UInt8(header16 >> 8)]
        if let aChannel {
            hash.append(UInt8(round(15 * aChannel.dc) | (round(15 * aChannel.scale) << 4)))
        }
        var isOdd = false
        for channel in [lChannel, pChannel, qChannel] + (aChannel.map { [$0] } ?? []) {
            for f in channel.ac {
                let nibble = UInt8(round(15 * f))
                if isOdd {
                    hash[hash.count - 1] |= nibble << 4
                } else {
                    hash.append(nibble)
                }
                isOdd.toggle()
            }
        }
        return hash
    }

    /// Half away from zero, as an integer (every value rounded here is at least 0).
    private static func round(_ value: Double) -> Int {
        Int(value.rounded(.toNearestOrAwayFromZero))
    }

    /// One channel's DCT terms: the DC, the AC terms scaled into 0…1, and the scale.
    private struct Channel {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0

        init(_ values: [Double], width w: Int, height h: Int, nx: Int, ny: Int) {
            var fx = [Double](repeating: 0, count: w)
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    var f = 0.0
                    for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                    for y in 0..<h {
                        let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<w { f += values[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(w * h)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 {
                for i in ac.indices { ac[i] = 0.5 + 0.5 / scale * ac[i] }
            }
        }
    }
}
