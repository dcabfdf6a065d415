#include "CJukeboxShim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

// libjpeg reports a fatal error by calling error_exit, which by default exits the
// process; a long jump back out of the library is the documented way to survive it, and
// Swift cannot long-jump, so the whole decode lives here.

struct jukebox_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
    char *message;
    size_t message_size;
};

static void jukebox_jpeg_fail(j_common_ptr info) {
    struct jukebox_jpeg_error *error = (struct jukebox_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->escape, 1);
}

// Warnings (a truncated file, say) are not printed: the image decodes as far as it goes.
static void jukebox_jpeg_quiet(j_common_ptr info) { (void)info; }

int jukebox_jpeg_decode(const unsigned char *data, unsigned long size, int min_side, long max_pixels,
                        unsigned char **out, int *width, int *height, char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    struct jukebox_jpeg_error error;
    char text[JMSG_LENGTH_MAX] = {0};
    unsigned char *volatile pixels = NULL;
    *out = NULL;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = jukebox_jpeg_fail;
    error.manager.output_message = jukebox_jpeg_quiet;
    error.message = text;
    if (setjmp(error.escape)) {
        snprintf(message, message_size, "%s", text);
        free(pixels);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    if ((long)info.image_width * (long)info.image_height > max_pixels) {
        snprintf(message, message_size, "%ux%u is too large (at most %ld pixels)", info.image_width, info.image_height, max_pixels);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    // The smallest of 1/8, 1/4, 1/2, 1 that keeps the shorter side at least min_side:
    // most of a large cover is never decoded.
    unsigned shorter = info.image_width < info.image_height ? info.image_width : info.image_height;
    info.scale_num = 1;
    info.scale_denom = 1;
    for (unsigned denom = 8; denom > 1; denom /= 2) {
        if (shorter / denom >= (unsigned)min_side) { info.scale_denom = denom; break; }
    }
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    size_t row = (size_t)info.output_width * 3;
    pixels = malloc(row * info.output_height);
    if (!pixels) {
        snprintf(message, message_size, "out of memory");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW line = pixels + row * info.output_scanline;
        jpeg_read_scanlines(&info, &line, 1);
    }
    jpeg_finish_decompress(&info);
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    *out = pixels;
    jpeg_destroy_decompress(&info);
    return 0;
}
