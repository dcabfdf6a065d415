#include "CJPEGFixtures.h"
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <jpeglib.h>

struct fixture_error {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
};

static void fixture_fail(j_common_ptr info) { longjmp(((struct fixture_error *)info->err)->escape, 1); }

int jukebox_fixture_jpeg(const unsigned char *pixels, int width, int height, int space, int progressive, int adobe,
                         unsigned char **out, unsigned long *size) {
    struct jpeg_compress_struct info;
    struct fixture_error error;
    *out = NULL;
    *size = 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = fixture_fail;
    if (setjmp(error.escape)) {
        jpeg_destroy_compress(&info);
        free(*out);
        *out = NULL;
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, out, size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    int cmyk = space == JUKEBOX_FIXTURE_CMYK || space == JUKEBOX_FIXTURE_YCCK;
    info.input_components = cmyk ? 4 : 3;
    info.in_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, 90, TRUE);
    if (space == JUKEBOX_FIXTURE_GRAY) jpeg_set_colorspace(&info, JCS_GRAYSCALE);
    if (space == JUKEBOX_FIXTURE_CMYK) jpeg_set_colorspace(&info, JCS_CMYK);
    if (space == JUKEBOX_FIXTURE_YCCK) jpeg_set_colorspace(&info, JCS_YCCK);
    if (cmyk && !adobe) info.write_Adobe_marker = FALSE;
    if (progressive) jpeg_simple_progression(&info);
    jpeg_start_compress(&info, TRUE);
    size_t stride = (size_t)width * info.input_components;
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + stride * info.next_scanline);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    return 0;
}
