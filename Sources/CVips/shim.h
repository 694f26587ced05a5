#ifndef ROLODECK_CVIPS_SHIM_H
#define ROLODECK_CVIPS_SHIM_H
#include <vips/vips.h>

/* libvips' operations take their options as variadic name-value pairs ending in NULL, which
 * Swift cannot call; these wrappers call them with fixed options. Only `PhotoImages.swift`
 * imports this module. */

/* Starts libvips once for the process: one thread per operation (the build runs photos on
 * every core itself) and no operation cache (each photo is made once, then the bytes are
 * kept by the caller). 0 on success. */
static inline int rolodeck_vips_start(void) {
    if (VIPS_INIT("rolodeck")) return -1;
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    return 0;
}

/* A square thumbnail of the image in `bytes`, at most `size` pixels a side (a smaller image is
 * not enlarged), cut from its centre, turned upright by its EXIF orientation, written as WebP
 * without any metadata. 0 on success, and
 * `*out` (free it with g_free) holds `*out_length` bytes. */
static inline int rolodeck_vips_thumbnail(const void *bytes, size_t length, int size, void **out,
                                          size_t *out_length) {
    VipsImage *image = NULL;
    if (vips_thumbnail_buffer((void *)bytes, length, &image, size, "height", size, "crop",
                              VIPS_INTERESTING_CENTRE, "size", VIPS_SIZE_DOWN, NULL))
        return -1;
    /* libvips 8.14's WebP writer keeps the EXIF block (with a GPS position) despite "strip":
     * the fields are taken off a copy first. (The caller strips the bytes again as well.) */
    VipsImage *bare = NULL;
    if (vips_copy(image, &bare, NULL)) {
        g_object_unref(image);
        return -1;
    }
    g_object_unref(image);
    vips_image_remove(bare, VIPS_META_EXIF_NAME);
    vips_image_remove(bare, VIPS_META_XMP_NAME);
    vips_image_remove(bare, VIPS_META_IPTC_NAME);
    int failed = vips_webpsave_buffer(bare, out, out_length, "Q", 80, "strip", TRUE, "effort", 4, NULL);
    g_object_unref(bare);
    return failed;
}

/* The image in `bytes` turned upright by its EXIF orientation and written again as a JPEG
 * without any metadata, for a photo whose orientation would be lost with its EXIF block. */
static inline int rolodeck_vips_upright_jpeg(const void *bytes, size_t length, void **out, size_t *out_length) {
    VipsImage *image = NULL;
    if (!(image = vips_image_new_from_buffer(bytes, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL)))
        return -1;
    VipsImage *upright = NULL;
    int failed = vips_autorot(image, &upright, NULL);
    g_object_unref(image);
    if (failed) return -1;
    failed = vips_jpegsave_buffer(upright, out, out_length, "Q", 90, "strip", TRUE, NULL);
    g_object_unref(upright);
    return failed;
}

/* libvips' last error message, and forgets it. The caller frees the copy with g_free. */
static inline char *rolodeck_vips_take_error(void) {
    char *message = g_strdup(vips_error_buffer());
    vips_error_clear();
    return message;
}

static inline void rolodeck_vips_free(void *pointer) { g_free(pointer); }

#endif
