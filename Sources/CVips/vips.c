// libvips through dlopen: its functions are looked up once by name, and called through
// pointers of the types its headers (8.x, ABI 42) give them.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rolodeck_vips.h"

/* libvips' images are GObjects; only pointers to them are handled here. */
typedef struct VipsImage VipsImage;

/* Values of libvips' enums and names of its metadata fields (vips/conversion.h, resample.h,
 * image.h, header.h), stable within its ABI 42. */
enum { INTERESTING_CENTRE = 1, SIZE_DOWN = 2, ACCESS_SEQUENTIAL = 1, GLIB_TRUE = 1 };
static const char *const exif_field = "exif-data";
static const char *const xmp_field = "xmp-data";
static const char *const iptc_field = "iptc-data";
/* The ABI the declarations below are of: libvips' `current - age`, its soname's number. */
enum { EXPECTED_ABI = 42 };

/* The functions used, found in the library and the GLib libraries it loads. The variadic ones
 * take their options as name-value pairs ending in NULL. */
static struct {
    int (*init)(const char *argv0);
    int (*version)(int flag);
    void (*concurrency_set)(int concurrency);
    void (*cache_set_max)(int max);
    void (*vector_set_enabled)(int enabled);
    int (*vector_isenabled)(void);
    int (*thumbnail_buffer)(void *buffer, size_t length, VipsImage **out, int width, ...);
    int (*copy)(VipsImage *in, VipsImage **out, ...);
    int (*image_remove)(VipsImage *image, const char *name);
    int (*webpsave_buffer)(VipsImage *in, void **buffer, size_t *length, ...);
    VipsImage *(*image_new_from_buffer)(const void *buffer, size_t length, const char *options, ...);
    int (*autorot)(VipsImage *in, VipsImage **out, ...);
    int (*jpegsave_buffer)(VipsImage *in, void **buffer, size_t *length, ...);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    void (*object_unref)(void *object);
    char *(*strdup)(const char *text);
    void (*free)(void *pointer);
} vips;

/* The files of the shared objects loaded in the process, each followed by a newline. */
typedef struct {
    char *text;
    size_t length;
} Names;

static int note_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    Names *names = data;
    if (!info->dlpi_name || !*info->dlpi_name) return 0;
    size_t length = strlen(info->dlpi_name);
    char *grown = realloc(names->text, names->length + length + 2);
    if (!grown) return 1;
    names->text = grown;
    memcpy(names->text + names->length, info->dlpi_name, length);
    names->length += length;
    names->text[names->length++] = '\n';
    names->text[names->length] = 0;
    return 0;
}

static Names loaded_objects(void) {
    Names names = {NULL, 0};
    dl_iterate_phdr(note_object, &names);
    return names;
}

/* Whether `line` (ending in a newline) is one of the lines of `names`. */
static int has_line(const Names *names, const char *line, size_t length) {
    for (size_t start = 0; start < names->length;) {
        const char *end = memchr(names->text + start, '\n', names->length - start);
        size_t found = end ? (size_t)(end - names->text) - start + 1 : names->length - start;
        if (found == length && memcmp(names->text + start, line, length) == 0) return 1;
        start += found;
    }
    return 0;
}

/* The libraries loading libvips brought into the process (libvips itself, libwebp, libjpeg, its
 * modules and the rest), a path a line; set by rolodeck_vips_load. */
static char *brought = NULL;

/* Sets `brought` to the objects loaded now that are not in `before`. */
static void note_brought(const Names *before) {
    Names after = loaded_objects();
    Names added = {NULL, 0};
    added.text = calloc(after.length + 1, 1);
    for (size_t start = 0; added.text && start < after.length;) {
        const char *end = memchr(after.text + start, '\n', after.length - start);
        size_t length = (size_t)(end - after.text) - start + 1;
        if (!has_line(before, after.text + start, length)) {
            memcpy(added.text + added.length, after.text + start, length);
            added.length += length;
        }
        start += length;
    }
    free(after.text);
    free(brought);
    brought = added.text;
}

static int load(const char *library, char *message, size_t capacity);

/* Looks up `name` in `handle` into `*function`; 0 when found. */
static int find(void *handle, const char *name, void *function, char *message, size_t capacity) {
    void *found = dlsym(handle, name);
    if (!found) {
        snprintf(message, capacity, "%s has no function %s", "libvips", name);
        return -1;
    }
    memcpy(function, &found, sizeof found);
    return 0;
}

int rolodeck_vips_load(const char *library, char *message, size_t capacity) {
    Names before = loaded_objects();
    int loaded = load(library, message, capacity);
    if (loaded == 0) note_brought(&before);
    free(before.text);
    return loaded;
}

const char *rolodeck_vips_libraries(void) { return brought ? brought : ""; }

const char *rolodeck_vips_version(void) {
    static char text[64];
    snprintf(text, sizeof text, "%d.%d.%d", vips.version(0), vips.version(1), vips.version(2));
    return text;
}

static int load(const char *library, char *message, size_t capacity) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(message, capacity, "%s", why ? why : library);
        return -1;
    }
    if (find(handle, "vips_init", &vips.init, message, capacity) ||
        find(handle, "vips_version", &vips.version, message, capacity) ||
        find(handle, "vips_concurrency_set", &vips.concurrency_set, message, capacity) ||
        find(handle, "vips_cache_set_max", &vips.cache_set_max, message, capacity) ||
        find(handle, "vips_vector_set_enabled", &vips.vector_set_enabled, message, capacity) ||
        find(handle, "vips_vector_isenabled", &vips.vector_isenabled, message, capacity) ||
        find(handle, "vips_thumbnail_buffer", &vips.thumbnail_buffer, message, capacity) ||
        find(handle, "vips_copy", &vips.copy, message, capacity) ||
        find(handle, "vips_image_remove", &vips.image_remove, message, capacity) ||
        find(handle, "vips_webpsave_buffer", &vips.webpsave_buffer, message, capacity) ||
        find(handle, "vips_image_new_from_buffer", &vips.image_new_from_buffer, message, capacity) ||
        find(handle, "vips_autorot", &vips.autorot, message, capacity) ||
        find(handle, "vips_jpegsave_buffer", &vips.jpegsave_buffer, message, capacity) ||
        find(handle, "vips_error_buffer", &vips.error_buffer, message, capacity) ||
        find(handle, "vips_error_clear", &vips.error_clear, message, capacity) ||
        find(handle, "g_object_unref", &vips.object_unref, message, capacity) ||
        find(handle, "g_strdup", &vips.strdup, message, capacity) ||
        find(handle, "g_free", &vips.free, message, capacity)) {
        dlclose(handle);
        return -1;
    }
    /* What VIPS_INIT checks: the library's ABI is the one these declarations are of. */
    int abi = vips.version(3) - vips.version(5);
    if (abi != EXPECTED_ABI) {
        snprintf(message, capacity, "libvips has ABI version %d, Rolodeck needs %d", abi, EXPECTED_ABI);
        dlclose(handle);
        return -1;
    }
    if (vips.init("rolodeck")) {
        const char *why = vips.error_buffer();
        snprintf(message, capacity, "libvips did not start: %s", why && *why ? why : "unknown error");
        return -1;
    }
    vips.concurrency_set(1);
    vips.cache_set_max(0);
    /* No run-time compiled vector code (orc): Debian 12's orc 0.4.33 hands out a free chunk of
     * its code memory under its lock, but splits it and marks it used after letting go of the
     * lock, and frees chunks without it. libvips compiles an orc program for every resize and
     * frees it with the operation, so thumbnails made on two threads at once corrupted orc's
     * list of chunks: a build of 10,000 contacts with photos crashed in 3 runs of 4. libvips'
     * plain C paths are no slower here: that build took 23 to 25 s without orc, and 31 to 36 s
     * in the runs that finished with it. */
    vips.vector_set_enabled(0);
    return 0;
}

int rolodeck_vips_vectors_enabled(void) { return vips.vector_isenabled(); }

int rolodeck_vips_thumbnail(const void *bytes, size_t length, int size, void **out, size_t *out_length) {
    VipsImage *image = NULL;
    if (vips.thumbnail_buffer((void *)bytes, length, &image, size, "height", size, "crop", INTERESTING_CENTRE,
                              "size", SIZE_DOWN, NULL))
        return -1;
    /* libvips 8.14's WebP writer keeps the EXIF block (with a GPS position) despite "strip":
     * the fields are taken off a copy first. (The caller strips the bytes again as well.) */
    VipsImage *bare = NULL;
    if (vips.copy(image, &bare, NULL)) {
        vips.object_unref(image);
        return -1;
    }
    vips.object_unref(image);
    vips.image_remove(bare, exif_field);
    vips.image_remove(bare, xmp_field);
    vips.image_remove(bare, iptc_field);
    int failed = vips.webpsave_buffer(bare, out, out_length, "Q", 80, "strip", GLIB_TRUE, "effort", 4, NULL);
    vips.object_unref(bare);
    return failed;
}

int rolodeck_vips_upright_jpeg(const void *bytes, size_t length, void **out, size_t *out_length) {
    VipsImage *image = vips.image_new_from_buffer(bytes, length, "", "access", ACCESS_SEQUENTIAL, NULL);
    if (!image) return -1;
    VipsImage *upright = NULL;
    int failed = vips.autorot(image, &upright, NULL);
    vips.object_unref(image);
    if (failed) return -1;
    failed = vips.jpegsave_buffer(upright, out, out_length, "Q", 90, "strip", GLIB_TRUE, NULL);
    vips.object_unref(upright);
    return failed;
}

char *rolodeck_vips_take_error(void) {
    char *message = vips.strdup(vips.error_buffer());
    vips.error_clear();
    return message;
}

void rolodeck_vips_free(void *pointer) { vips.free(pointer); }
