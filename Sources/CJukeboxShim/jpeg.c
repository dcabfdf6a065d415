#include "CJukeboxShim.h"
#include "cover_square.h"
#include <stdarg.h>
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
    char message[JMSG_LENGTH_MAX + 80];
};

static void jukebox_jpeg_fail(j_common_ptr info) {
    struct jukebox_jpeg_error *error = (struct jukebox_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->escape, 1);
}

static void jukebox_jpeg_give_up(j_common_ptr info, const char *format, ...) {
    struct jukebox_jpeg_error *error = (struct jukebox_jpeg_error *)info->err;
    va_list args;
    va_start(args, format);
    vsnprintf(error->message, sizeof error->message, format, args);
    va_end(args);
    longjmp(error->escape, 1);
}

// Warnings (a truncated file, say) are not printed: the image decodes as far as it goes.
static void jukebox_jpeg_quiet(j_common_ptr info) { (void)info; }

// libjpeg calls this between rows and scans: each scan of a progressive file costs a pass
// over the whole picture, so a file of a few KB with hundreds of scans (repeated scans are
// only a warning to libjpeg) would cost seconds. The same guard libjpeg-turbo's djpeg
// -maxscans shows, with a CPU budget beside it.
struct jukebox_jpeg_guard {
    struct jpeg_progress_mgr manager;
    const struct jukebox_cover_limits *limits;
    long started_ms;
};

static void jukebox_jpeg_progress(j_common_ptr info) {
    struct jukebox_jpeg_guard *guard = (struct jukebox_jpeg_guard *)info->progress;
    j_decompress_ptr decompress = (j_decompress_ptr)info;
    if (decompress->input_scan_number > guard->limits->max_scans)
        jukebox_jpeg_give_up(info, "more than %d scans (a progressive JPEG has about 10)", guard->limits->max_scans);
    long used = jukebox_thread_cpu_ms() - guard->started_ms;
    if (used > guard->limits->max_cpu_ms)
        jukebox_jpeg_give_up(info, "took more than %ld ms of CPU to decode", guard->limits->max_cpu_ms);
}

// The memory the coefficients of a multi-scan (progressive) file take: libjpeg keeps every
// block of the picture at full size until the last scan, whatever the output scale.
static size_t jukebox_jpeg_coefficient_bytes(j_decompress_ptr info) {
    if (!jpeg_has_multiple_scans(info)) return 0;
    size_t total = 0;
    for (int i = 0; i < info->num_components; i++) {
        jpeg_component_info *c = &info->comp_info[i];
        size_t across = (c->width_in_blocks + c->h_samp_factor - 1) / c->h_samp_factor * c->h_samp_factor;
        size_t down = (c->height_in_blocks + c->v_samp_factor - 1) / c->v_samp_factor * c->v_samp_factor;
        total += across * down * sizeof(JBLOCK);
    }
    return total;
}

// libjpeg gives CMYK for CMYK and YCCK files alike, and does not convert it to RGB. Files
// with Adobe's marker (all YCCK ones, and Photoshop's) store it inverted: 255 is no ink.
static void jukebox_cmyk_to_rgb(JSAMPROW row, unsigned count, int inverted) {
    for (unsigned i = 0; i < count; i++) {
        unsigned c = row[i * 4], m = row[i * 4 + 1], y = row[i * 4 + 2], k = row[i * 4 + 3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        row[i * 3] = (JSAMPLE)(c * k / 255);
        row[i * 3 + 1] = (JSAMPLE)(m * k / 255);
        row[i * 3 + 2] = (JSAMPLE)(y * k / 255);
    }
}

int jukebox_jpeg_cover(const unsigned char *data, unsigned long size, const struct jukebox_cover_limits *limits,
                       unsigned char **out, int *side, char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    struct jukebox_jpeg_error error;
    struct jukebox_jpeg_guard guard = {.limits = limits, .started_ms = jukebox_thread_cpu_ms()};
    struct jukebox_square square = {0};
    JSAMPROW volatile row = NULL;
    *out = NULL;
    error.message[0] = 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = jukebox_jpeg_fail;
    error.manager.output_message = jukebox_jpeg_quiet;
    if (setjmp(error.escape)) {
        snprintf(message, message_size, "%s", error.message);
        free(row);
        jukebox_square_free(&square);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    jpeg_create_decompress(&info);
    guard.manager.progress_monitor = jukebox_jpeg_progress;
    info.progress = &guard.manager;
    // Only the coefficient arrays of a multi-scan file are counted by libjpeg; past this
    // it fails ("backing store not supported") instead of taking the memory.
    info.mem->max_memory_to_use = limits->max_bytes;
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);

    // The smallest M/8 (libjpeg scales while it decodes) whose shorter side still covers
    // the panel's cover: a 4000x4000 cover is decoded at 500x500, at a 64th of the work.
    unsigned shorter = info.image_width < info.image_height ? info.image_width : info.image_height;
    info.scale_num = 8;
    info.scale_denom = 8;
    for (unsigned m = 1; m < 8; m++) {
        if ((shorter * m + 7) / 8 >= (unsigned)limits->side) { info.scale_num = m; break; }
    }
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_calc_output_dimensions(&info);

    size_t coefficients = jukebox_jpeg_coefficient_bytes(&info);
    size_t rows = (size_t)info.output_width * info.output_components * 2 * DCTSIZE * info.max_v_samp_factor;
    // What the file makes libjpeg hold; the square's own memory follows the panel's side.
    size_t needed = coefficients + rows;
    if (needed > (size_t)limits->max_bytes) {
        snprintf(message, message_size, "%ux%u%s needs %zu MB to decode (at most %ld MB)", info.image_width, info.image_height,
                 coefficients ? " progressive JPEG" : "", needed >> 20, limits->max_bytes >> 20);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    jpeg_start_decompress(&info);

    // Only the centred square is drawn: the columns beside it are not decoded, the rows
    // above it are skipped, and the decode stops below it.
    unsigned height = info.output_height;
    if (jukebox_square_init(&square, info.output_width, height, limits->side) != 0)
        jukebox_jpeg_give_up((j_common_ptr)&info, "out of memory");
    JDIMENSION left = square.x0, across = square.span;
    if (across < info.output_width) jpeg_crop_scanline(&info, &left, &across);
    row = malloc((size_t)info.output_width * info.output_components);
    if (!row) jukebox_jpeg_give_up((j_common_ptr)&info, "out of memory");
    if (square.y0 > 0) jpeg_skip_scanlines(&info, square.y0);
    while (info.output_scanline < square.y0 + square.span && info.output_scanline < height) {
        unsigned y = info.output_scanline;
        JSAMPROW line = row;
        if (jpeg_read_scanlines(&info, &line, 1) != 1) break;
        if (cmyk) jukebox_cmyk_to_rgb(row, info.output_width, info.saw_Adobe_marker);
        jukebox_square_add(&square, y, left, 1, row, info.output_width, 3);
    }
    free(row);
    row = NULL;
    *side = (int)square.side;
    *out = jukebox_square_finish(&square);
    // Abandoned, not finished: the rows below the square are never decoded.
    jpeg_destroy_decompress(&info);
    if (!*out) {
        snprintf(message, message_size, "out of memory");
        return -1;
    }
    return 0;
}
