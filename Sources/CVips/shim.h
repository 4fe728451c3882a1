#ifndef MEDIACTL_CVIPS_SHIM_H
#define MEDIACTL_CVIPS_SHIM_H

// libvips (Debian libvips-dev, 8.14) for MediaTransform, the only module that imports this target.
//
// libvips' operations are variadic (`name, value, ..., NULL` option lists) and its initialiser is a
// macro; Swift can call neither. Each `mediactl_vips_*` function below is a fixed-argument wrapper
// with the options MediaTransform uses spelled out, so the option names are checked here, once.
// Every function that makes an image returns 0 and sets `*out` (owned by the caller: release it with
// `g_object_unref`) or returns -1 with a message in libvips' error buffer. Buffers written by the
// savers are `g_malloc`ed: release them with `g_free`.
#include <vips/vips.h>

// MARK: - Runtime

/// `VIPS_INIT("mediactl")`: 0, or -1 when libvips cannot start (version mismatch, no GType system).
static inline int mediactl_vips_init(void) {
    return VIPS_INIT("mediactl");
}

/// A heap copy of the error buffer (release with `g_free`), which is then cleared. The buffer is
/// process-wide in 8.14 (one lock, not per thread), so under concurrency it can hold another
/// thread's messages too.
static inline char *mediactl_vips_error_take(void) {
    return vips_error_buffer_copy();
}

// MARK: - Header-only loads (access=sequential: width, height and fields, no pixels decoded yet)

static inline int mediactl_vips_jpegload_header(const void *buf, size_t len, VipsImage **out) {
    return vips_jpegload_buffer((void *)buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

static inline int mediactl_vips_pngload_header(const void *buf, size_t len, VipsImage **out) {
    return vips_pngload_buffer((void *)buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

static inline int mediactl_vips_webpload_header(const void *buf, size_t len, VipsImage **out) {
    return vips_webpload_buffer((void *)buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

static inline int mediactl_vips_gifload_header(const void *buf, size_t len, VipsImage **out) {
    return vips_gifload_buffer((void *)buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

static inline int mediactl_vips_heifload_header(const void *buf, size_t len, VipsImage **out) {
    return vips_heifload_buffer((void *)buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

// MARK: - Scale on load

/// `vips_thumbnail_buffer`: shrink-on-load into a `width`×`height` box, never upscaling
/// (`size=down`), EXIF orientation applied (libvips' default), first page only, refusing truncated
/// or corrupt input (`fail_on=error`, given to the loader in `option_string`: 8.14.1's
/// thumbnail_buffer does not pass its own `fail_on` on, and a truncated JPEG decoded grey).
/// `crop` is `VIPS_INTERESTING_NONE` (fit inside) or
/// `VIPS_INTERESTING_CENTRE` (cover, cropped around the centre). No `export_profile`: with one,
/// 8.14 also converts a source with no profile (through an assumed sRGB and Lab), which moves
/// saturated colours (255,0,0 became 248,26,16); embedded profiles are converted afterwards with
/// `mediactl_vips_icc_to_srgb`. CMYK is converted to sRGB by thumbnail itself.
/// `all_pages`: every frame, as one strip of pages (`n=-1`; `height` bounds each page and `page-height` is set),
/// else the first only.
static inline int mediactl_vips_thumbnail_buffer(const void *buf, size_t len, VipsImage **out,
                                                 int width, int height, VipsInteresting crop, int all_pages) {
    return vips_thumbnail_buffer((void *)buf, len, out, width,
        "height", height,
        "size", VIPS_SIZE_DOWN,
        "crop", crop,
        "option_string", all_pages ? "fail_on=error,n=-1" : "fail_on=error",
        NULL);
}

/// GIF (cgif, palettised with libimagequant), every page of a strip a frame with the image's `delay` and `loop`.
static inline int mediactl_vips_gifsave_buffer(VipsImage *in, void **buf, size_t *len) {
    return vips_gifsave_buffer(in, buf, len, "strip", TRUE, NULL);
}

// MARK: - Pixel operations

static inline int mediactl_vips_copy(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, NULL);
}

/// Pixels converted from the image's embedded ICC profile to sRGB (one LittleCMS transform,
/// relative colorimetric, 8 bits out); the sRGB profile is then attached.
static inline int mediactl_vips_icc_to_srgb(VipsImage *in, VipsImage **out) {
    return vips_icc_transform(in, out, "srgb",
        "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, "depth", 8, NULL);
}

static inline int mediactl_vips_colourspace_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

static inline int mediactl_vips_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

/// Alpha composited over an opaque background of `value` in every band (255: white for uchar).
static inline int mediactl_vips_flatten(VipsImage *in, VipsImage **out, double value) {
    double background[1] = { value };
    VipsArrayDouble *array = vips_array_double_new(background, 1);
    int result = vips_flatten(in, out, "background", array, NULL);
    vips_area_unref(VIPS_AREA(array));
    return result;
}

/// A `width`×`height` black image with `bands` uchar bands (for probing savers).
static inline int mediactl_vips_black(VipsImage **out, int width, int height, int bands) {
    return vips_black(out, width, height, "bands", bands, NULL);
}

// MARK: - Savers (every one asked to strip; MediaTransform also removes the fields itself, since
// not every saver honours `strip`)

static inline int mediactl_vips_jpegsave_buffer(VipsImage *in, void **buf, size_t *len, int quality) {
    return vips_jpegsave_buffer(in, buf, len,
        "Q", quality, "strip", TRUE, "optimize_coding", TRUE, "interlace", FALSE, NULL);
}

static inline int mediactl_vips_webpsave_buffer(VipsImage *in, void **buf, size_t *len, int quality) {
    return vips_webpsave_buffer(in, buf, len, "Q", quality, "strip", TRUE, NULL);
}

/// AVIF: HEIF container with AV1 compression; `effort` 0 (fastest) to 9.
static inline int mediactl_vips_avifsave_buffer(VipsImage *in, void **buf, size_t *len,
                                                int quality, int effort) {
    return vips_heifsave_buffer(in, buf, len,
        "Q", quality, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "effort", effort,
        "strip", TRUE, NULL);
}

/// JPEG XL: lossy, `Q` = quality (libjxl's distance from it), `effort` 3 (fastest) to 9.
static inline int mediactl_vips_jxlsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int effort) {
    return vips_jxlsave_buffer(in, buf, len, "Q", quality, "effort", effort, "strip", TRUE, NULL);
}

/// PNG: zlib `compression` 0–9, never palettised or interlaced.
static inline int mediactl_vips_pngsave_buffer(VipsImage *in, void **buf, size_t *len, int compression) {
    return vips_pngsave_buffer(in, buf, len,
        "compression", compression, "interlace", FALSE, "strip", TRUE, NULL);
}

/// The band values of pixel (`x`, `y`) into `values` (at most `capacity` of them); the number of
/// bands, or -1 on failure.
static inline int mediactl_vips_getpoint(VipsImage *in, int x, int y, double *values, int capacity) {
    double *vector = NULL;
    int n = 0;
    if (vips_getpoint(in, &vector, &n, x, y, NULL) != 0) {
        return -1;
    }
    for (int i = 0; i < n && i < capacity; i++) {
        values[i] = vector[i];
    }
    g_free(vector);
    return n;
}

// MARK: - Logging

static void mediactl__drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer unused) {
    (void)domain;
    (void)level;
    (void)message;
    (void)unused;
}

/// Stops libvips's own warnings (`VIPS-WARNING **: … CRC error`, `… invalid rendering intent`) from reaching
/// stderr once per transform: the service reports every refusal with a stable code (problem+json, audit).
static inline void mediactl_vips_quiet(void) {
    g_log_set_handler("VIPS", (GLogLevelFlags)(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO
                                               | G_LOG_LEVEL_DEBUG), mediactl__drop_log, NULL);
}

// MARK: - Accounting (tests: nothing left alive after a transform)

static void *mediactl__count_object(VipsObject *object, void *count, void *unused) {
    (void)object;
    (void)unused;
    *(int *)count += 1;
    return NULL;
}

/// The number of live `VipsObject`s (images and operations) in the process.
static inline int mediactl_vips_live_objects(void) {
    int count = 0;
    vips_object_map((VipsSListMap2Fn)mediactl__count_object, &count, NULL);
    return count;
}

#endif
