import Testing
@testable import MediaTransform

/// The box handed to vips_thumbnail, from the variant and the output pixel limit.
@Suite struct ThumbnailBoxTests {
    static let limits = TransformLimits(maxSourcePixels: 50_000_000, maxOutputPixels: 1_000_000)

    static func box(_ spec: VariantSpec) throws(TransformError) -> ThumbnailBox {
        try ThumbnailBox(spec: spec, limits: limits)
    }

    @Test func widthOnlyGetsTheAreaLimitAsItsHeightBound() throws {
        #expect(try Self.box(VariantSpec(width: 144, quality: 80, format: .source))
                == ThumbnailBox(width: 144, height: 6_944, crop: false))
        #expect(try Self.box(VariantSpec(width: 1_000, quality: 80, format: .source))
                == ThumbnailBox(width: 1_000, height: 1_000, crop: false))
    }

    @Test func insideWithAHeightKeepsTheSmallerBound() throws {
        #expect(try Self.box(VariantSpec(width: 288, height: 200, quality: 80, format: .source))
                == ThumbnailBox(width: 288, height: 200, crop: false))
        #expect(try Self.box(VariantSpec(width: 2_000, height: 2_000, quality: 80, format: .source))
                == ThumbnailBox(width: 2_000, height: 500, crop: false))
    }

    @Test func coverIsTheExactBox() throws {
        #expect(try Self.box(VariantSpec(width: 288, height: 288, fit: .cover, quality: 80, format: .source))
                == ThumbnailBox(width: 288, height: 288, crop: true))
    }

    @Test func refusals() {
        #expect(throws: TransformError(.overPixelLimit, "cover box 2000×1000 exceeds 1000000 pixels")) {
            try Self.box(VariantSpec(width: 2_000, height: 1_000, fit: .cover, quality: 80, format: .source))
        }
        #expect(throws: TransformError(.overPixelLimit, "width 1000001 exceeds 1000000 pixels")) {
            try Self.box(VariantSpec(width: 1_000_001, quality: 80, format: .source))
        }
        #expect(throws: TransformError(.invalidSpec, "w=0 h=-")) {
            try Self.box(VariantSpec(width: 0, quality: 80, format: .source))
        }
        #expect(throws: TransformError(.invalidSpec, "w=10 h=0")) {
            try Self.box(VariantSpec(width: 10, height: 0, quality: 80, format: .source))
        }
        #expect(throws: TransformError(.overPixelLimit, "a side exceeds 10000000 pixels")) {
            try Self.box(VariantSpec(width: 20_000_000, quality: 80, format: .source))
        }
    }
}
