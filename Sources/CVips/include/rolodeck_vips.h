#ifndef ROLODECK_VIPS_H
#define ROLODECK_VIPS_H
#include <stddef.h>

/* libvips, loaded with dlopen the first time a photo needs it, so that the command does not
 * load its hundred libraries on every start, and runs without it on a store without photos.
 * No libvips header is needed to build: the few functions used are declared in vips.c. Only
 * `PhotoImages.swift` imports this module. */

/* Loads `library` (a file name the dynamic loader looks up, or a path) and starts libvips once
 * for the process: one thread per operation (the build runs photos on every core itself) and
 * no operation cache (each photo is made once, then the bytes are kept by the caller), and no
 * run-time compiled vector code (see rolodeck_vips_vectors_enabled). 0 on
 * success; -1 with why in `message` (at most `capacity` bytes, NUL-terminated) when the
 * library is missing, lacks a function, is of another ABI, or does not start. Call it once,
 * before any other function here. */
int rolodeck_vips_load(const char *library, char *message, size_t capacity);

/* The shared objects loading libvips brought into the process (libvips, the libraries that
 * encode and decode images, its modules), each a path followed by a newline: what, besides
 * Rolodeck's own code, decides the bytes of the files made here. Empty before
 * rolodeck_vips_load succeeds. */
const char *rolodeck_vips_libraries(void);

/* libvips' version, "major.minor.micro"; only after rolodeck_vips_load succeeds. Not safe to
 * call from two threads at once. */
const char *rolodeck_vips_version(void);

/* Whether libvips runs run-time compiled vector code (orc); rolodeck_vips_load turns it off,
 * because orc's code memory is not safe to use from several threads at once. */
int rolodeck_vips_vectors_enabled(void);

/* A square thumbnail of the image in `bytes`, at most `size` pixels a side (a smaller image is
 * not enlarged), cut from its centre, turned upright by its EXIF orientation, written as WebP
 * without any metadata. 0 on success, and `*out` (free it with rolodeck_vips_free) holds
 * `*out_length` bytes. */
int rolodeck_vips_thumbnail(const void *bytes, size_t length, int size, void **out, size_t *out_length);

/* The image in `bytes` turned upright by its EXIF orientation and written again as a JPEG
 * without any metadata, for a photo whose orientation would be lost with its EXIF block. */
int rolodeck_vips_upright_jpeg(const void *bytes, size_t length, void **out, size_t *out_length);

/* libvips' last error message, and forgets it. The caller frees the copy with
 * rolodeck_vips_free. */
char *rolodeck_vips_take_error(void);

/* Frees what libvips allocated (g_free). */
void rolodeck_vips_free(void *pointer);

#endif
