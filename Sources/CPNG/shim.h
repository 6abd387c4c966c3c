#ifndef PARLEY_CPNG_SHIM_H
#define PARLEY_CPNG_SHIM_H

// libpng's simplified API (png_image): errors come back as return values and a message in
// the image, not through longjmp, which Swift cannot survive. The helpers set the version
// and formats, whose macros are built from other macros.
#include <string.h>
#include <png.h>

/// Reads the header of the PNG in `data`; nonzero on success (width and height are then set).
static inline int parley_png_begin(png_imagep image, const void *data, size_t size) {
    memset(image, 0, sizeof(*image));
    image->version = PNG_IMAGE_VERSION;
    return png_image_begin_read_from_memory(image, data, size);
}

/// Bytes of the 8-bit RGB buffer `parley_png_finish_rgb` fills.
static inline size_t parley_png_rgb_size(const png_image *image) {
    return (size_t)image->width * (size_t)image->height * 3;
}

/// Decodes into `buffer` as 8-bit RGB, transparency composited onto white; nonzero on
/// success. Frees what the read holds either way.
static inline int parley_png_finish_rgb(png_imagep image, void *buffer) {
    png_color white = { 255, 255, 255 };
    image->format = PNG_FORMAT_RGB;
    int ok = png_image_finish_read(image, &white, buffer, 0, NULL);
    png_image_free(image);
    return ok;
}

#endif
