#ifndef MEDIACTL_CVIPS_SHIM_H
#define MEDIACTL_CVIPS_SHIM_H

// libvips (Debian libvips-dev, 8.14) for MediaTransform, the only module that imports this target.
//
// libvips is not linked: it and the ~90 libraries it needs are opened with dlopen on the first transform
// (`cvips_load`), so a process that derives no image (every CLI command but the transforming ones, a `serve`
// whose requests ask for no variant) never maps them. Its headers give the types and constants only; every
// call goes through the `struct cvips_api` table, which each wrapper below takes first.
//
// libvips' operations are variadic (`name, value, ..., NULL` option lists) and its initialiser is a
// macro; Swift can call neither. Each `mediactl_vips_*` function below is a fixed-argument wrapper
// with the options MediaTransform uses spelled out, so the option names are checked here, once.
// Every function that makes an image returns 0 and sets `*out` (owned by the caller: release it with
// `g_object_unref`) or returns -1 with a message in libvips' error buffer. Buffers written by the
// savers are `g_malloc`ed: release them with `g_free`.
#include <dlfcn.h>
#include <stdio.h>
#include <vips/vips.h>

/// Every libvips and GLib function MediaTransform calls, as `X(symbol, field)`.
#define CVIPS_FUNCTIONS(X) \
    X(vips_init, init) \
    X(vips_version, version) \
    X(vips_version_string, version_string) \
    X(vips_error_buffer_copy, error_buffer_copy) \
    X(vips_cache_set_max, cache_set_max) \
    X(vips_cache_set_max_mem, cache_set_max_mem) \
    X(vips_concurrency_set, concurrency_set) \
    X(vips_jpegload_buffer, jpegload_buffer) \
    X(vips_pngload_buffer, pngload_buffer) \
    X(vips_webpload_buffer, webpload_buffer) \
    X(vips_gifload_buffer, gifload_buffer) \
    X(vips_heifload_buffer, heifload_buffer) \
    X(vips_thumbnail_buffer, thumbnail_buffer) \
    X(vips_gifsave_buffer, gifsave_buffer) \
    X(vips_copy, copy) \
    X(vips_icc_transform, icc_transform) \
    X(vips_colourspace, colourspace) \
    X(vips_cast, cast) \
    X(vips_flatten, flatten) \
    X(vips_black, black) \
    X(vips_jpegsave_buffer, jpegsave_buffer) \
    X(vips_webpsave_buffer, webpsave_buffer) \
    X(vips_heifsave_buffer, heifsave_buffer) \
    X(vips_jxlsave_buffer, jxlsave_buffer) \
    X(vips_pngsave_buffer, pngsave_buffer) \
    X(vips_getpoint, getpoint) \
    X(vips_array_double_new, array_double_new) \
    X(vips_area_unref, area_unref) \
    X(vips_object_map, object_map) \
    X(vips_image_get_width, image_get_width) \
    X(vips_image_get_height, image_get_height) \
    X(vips_image_get_bands, image_get_bands) \
    X(vips_image_hasalpha, image_hasalpha) \
    X(vips_image_get_interpretation, image_get_interpretation) \
    X(vips_image_get_format, image_get_format) \
    X(vips_image_get_n_pages, image_get_n_pages) \
    X(vips_image_get_page_height, image_get_page_height) \
    X(vips_image_get_fields, image_get_fields) \
    X(vips_image_get_typeof, image_get_typeof) \
    X(vips_image_get_string, image_get_string) \
    X(vips_image_get_int, image_get_int) \
    X(vips_image_get_blob, image_get_blob) \
    X(vips_image_copy_memory, image_copy_memory) \
    X(vips_image_write_to_memory, image_write_to_memory) \
    X(vips_image_remove, image_remove) \
    X(vips_foreign_find_load_buffer, foreign_find_load_buffer) \
    X(vips_tracked_get_mem, tracked_get_mem) \
    X(vips_tracked_get_allocs, tracked_get_allocs) \
    X(vips_tracked_get_files, tracked_get_files) \
    X(g_free, g_free) \
    X(g_object_unref, g_object_unref) \
    X(g_strfreev, g_strfreev) \
    X(g_log_set_handler, g_log_set_handler)

/// The functions of CVIPS_FUNCTIONS, resolved by cvips_load; each field has its function's exact type.
struct cvips_api {
#define CVIPS_FIELD(symbol, field) __typeof__(symbol) *field;
    CVIPS_FUNCTIONS(CVIPS_FIELD)
#undef CVIPS_FIELD
};

/// Opens the libvips these headers are from (`libvips.so.<CURRENT - AGE>`, 42 for 8.x) and resolves every
/// function of `api`. Returns 0, or -1 with a message in `error` (the library is then closed again).
/// RTLD_GLOBAL: libvips' own loadable modules (vips-heif, vips-jxl, …) resolve its symbols.
static inline int cvips_load(struct cvips_api *api, char *error, size_t error_size) {
    char library[32];
    snprintf(library, sizeof library, "libvips.so.%d", VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
    void *lib = dlopen(library, RTLD_NOW | RTLD_GLOBAL);
    if (lib == NULL) {
        const char *reason = dlerror();
        snprintf(error, error_size, "%s", reason != NULL ? reason : library);
        return -1;
    }
#define CVIPS_RESOLVE(symbol, field) \
    *(void **)(&api->field) = dlsym(lib, #symbol); \
    if (api->field == NULL) { \
        snprintf(error, error_size, "%s has no %s", library, #symbol); \
        dlclose(lib); \
        return -1; \
    }
    CVIPS_FUNCTIONS(CVIPS_RESOLVE)
#undef CVIPS_RESOLVE
    return 0;
}

// MARK: - Runtime

/// `VIPS_INIT("mediactl")`: 0, or -1 when libvips cannot start (no GType system), -2 when the library's ABI is not
/// the headers' (the check VIPS_INIT makes).
static inline int mediactl_vips_init(const struct cvips_api *v) {
    if (v->version(3) - v->version(5) != VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE) {
        return -2;
    }
    return v->init("mediactl");
}

/// A heap copy of the error buffer (release with `g_free`), which is then cleared. The buffer is
/// process-wide in 8.14 (one lock, not per thread), so under concurrency it can hold another
/// thread's messages too.
static inline char *mediactl_vips_error_take(const struct cvips_api *v) {
    return v->error_buffer_copy();
}

// MARK: - Header-only loads (access=sequential: width, height and fields, no pixels decoded yet)

static inline int mediactl_vips_jpegload_header(const struct cvips_api *v, const void *buf, size_t len, VipsImage **out) {
    return v->jpegload_buffer((void *)buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

static inline int mediactl_vips_pngload_header(const struct cvips_api *v, const void *buf, size_t len, VipsImage **out) {
    return v->pngload_buffer((void *)buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

static inline int mediactl_vips_webpload_header(const struct cvips_api *v, const void *buf, size_t len, VipsImage **out) {
    return v->webpload_buffer((void *)buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

static inline int mediactl_vips_gifload_header(const struct cvips_api *v, const void *buf, size_t len, VipsImage **out) {
    return v->gifload_buffer((void *)buf, len, out,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

static inline int mediactl_vips_heifload_header(const struct cvips_api *v, const void *buf, size_t len, VipsImage **out) {
    return v->heifload_buffer((void *)buf, len, out,
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
static inline int mediactl_vips_thumbnail_buffer(const struct cvips_api *v, const void *buf, size_t len, VipsImage **out,
                                                 int width, int height, VipsInteresting crop, int all_pages) {
    return v->thumbnail_buffer((void *)buf, len, out, width,
        "height", height,
        "size", VIPS_SIZE_DOWN,
        "crop", crop,
        "option_string", all_pages ? "fail_on=error,n=-1" : "fail_on=error",
        NULL);
}

/// GIF (cgif, palettised with libimagequant), every page of a strip a frame with the image's `delay` and `loop`.
static inline int mediactl_vips_gifsave_buffer(const struct cvips_api *v, VipsImage *in, void **buf, size_t *len) {
    return v->gifsave_buffer(in, buf, len, "strip", TRUE, NULL);
}

// MARK: - Pixel operations

static inline int mediactl_vips_copy(const struct cvips_api *v, VipsImage *in, VipsImage **out) {
    return v->copy(in, out, NULL);
}

/// Pixels converted from the image's embedded ICC profile to sRGB (one LittleCMS transform,
/// relative colorimetric, 8 bits out); the sRGB profile is then attached.
static inline int mediactl_vips_icc_to_srgb(const struct cvips_api *v, VipsImage *in, VipsImage **out) {
    return v->icc_transform(in, out, "srgb",
        "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, "depth", 8, NULL);
}

static inline int mediactl_vips_colourspace_srgb(const struct cvips_api *v, VipsImage *in, VipsImage **out) {
    return v->colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

static inline int mediactl_vips_cast_uchar(const struct cvips_api *v, VipsImage *in, VipsImage **out) {
    return v->cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

/// Alpha composited over an opaque background of `value` in every band (255: white for uchar).
static inline int mediactl_vips_flatten(const struct cvips_api *v, VipsImage *in, VipsImage **out, double value) {
    double background[1] = { value };
    VipsArrayDouble *array = v->array_double_new(background, 1);
    int result = v->flatten(in, out, "background", array, NULL);
    v->area_unref(VIPS_AREA(array));
    return result;
}

/// A `width`×`height` black image with `bands` uchar bands (for probing savers).
static inline int mediactl_vips_black(const struct cvips_api *v, VipsImage **out, int width, int height, int bands) {
    return v->black(out, width, height, "bands", bands, NULL);
}

// MARK: - Savers (every one asked to strip; MediaTransform also removes the fields itself, since
// not every saver honours `strip`)

static inline int mediactl_vips_jpegsave_buffer(const struct cvips_api *v, VipsImage *in, void **buf, size_t *len, int quality) {
    return v->jpegsave_buffer(in, buf, len,
        "Q", quality, "strip", TRUE, "optimize_coding", TRUE, "interlace", FALSE, NULL);
}

static inline int mediactl_vips_webpsave_buffer(const struct cvips_api *v, VipsImage *in, void **buf, size_t *len, int quality) {
    return v->webpsave_buffer(in, buf, len, "Q", quality, "strip", TRUE, NULL);
}

/// AVIF: HEIF container with AV1 compression; `effort` 0 (fastest) to 9.
static inline int mediactl_vips_avifsave_buffer(const struct cvips_api *v, VipsImage *in, void **buf, size_t *len,
                                                int quality, int effort) {
    return v->heifsave_buffer(in, buf, len,
        "Q", quality, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "effort", effort,
        "strip", TRUE, NULL);
}

/// JPEG XL: lossy, `Q` = quality (libjxl's distance from it), `effort` 3 (fastest) to 9.
static inline int mediactl_vips_jxlsave_buffer(const struct cvips_api *v, VipsImage *in, void **buf, size_t *len, int quality, int effort) {
    return v->jxlsave_buffer(in, buf, len, "Q", quality, "effort", effort, "strip", TRUE, NULL);
}

/// PNG: zlib `compression` 0–9, never palettised or interlaced.
static inline int mediactl_vips_pngsave_buffer(const struct cvips_api *v, VipsImage *in, void **buf, size_t *len, int compression) {
    return v->pngsave_buffer(in, buf, len,
        "compression", compression, "interlace", FALSE, "strip", TRUE, NULL);
}

/// The band values of pixel (`x`, `y`) into `values` (at most `capacity` of them); the number of
/// bands, or -1 on failure.
static inline int mediactl_vips_getpoint(const struct cvips_api *v, VipsImage *in, int x, int y, double *values, int capacity) {
    double *vector = NULL;
    int n = 0;
    if (v->getpoint(in, &vector, &n, x, y, NULL) != 0) {
        return -1;
    }
    for (int i = 0; i < n && i < capacity; i++) {
        values[i] = vector[i];
    }
    v->g_free(vector);
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
static inline void mediactl_vips_quiet(const struct cvips_api *v) {
    v->g_log_set_handler("VIPS", (GLogLevelFlags)(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO
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
static inline int mediactl_vips_live_objects(const struct cvips_api *v) {
    int count = 0;
    v->object_map((VipsSListMap2Fn)mediactl__count_object, &count, NULL);
    return count;
}

#endif
