#include "CJukeboxShim.h"
#include "cover_square.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <png.h>

// A cover PNG is read a row at a time (libpng's row API) into the square scaler, so a
// 4000x4000 picture costs a row of it, not 64 MB. libpng's errors long-jump, as
// libjpeg's do, so the decode lives in C.

struct jukebox_png_reader {
    const unsigned char *data;
    size_t size, at;
    char message[200];
};

static void jukebox_png_read(png_structp png, png_bytep out, png_size_t count) {
    struct jukebox_png_reader *reader = png_get_io_ptr(png);
    if (count > reader->size - reader->at) png_error(png, "the file ends early");
    memcpy(out, reader->data + reader->at, count);
    reader->at += count;
}

static void jukebox_png_fail(png_structp png, png_const_charp text) {
    struct jukebox_png_reader *reader = png_get_error_ptr(png);
    snprintf(reader->message, sizeof reader->message, "%s", text);
    png_longjmp(png, 1);
}

static void jukebox_png_quiet(png_structp png, png_const_charp text) { (void)png; (void)text; }

// Whether every chunk's length, as its header claims it, fits in the file. libpng takes
// the claim to allocate the chunk (a claim past png_set_chunk_malloc_max is a benign
// error, a warning only): a 106-byte file claiming a 587 MB sPLT cost 600 MB.
static int jukebox_png_chunks_fit(const unsigned char *data, size_t size, char *message, size_t message_size) {
    size_t at = 8;
    while (size - at >= 8) {
        size_t length = (size_t)data[at] << 24 | (size_t)data[at + 1] << 16 | (size_t)data[at + 2] << 8 | data[at + 3];
        if (length > size - at - 8 || size - at - 8 - length < 4) {
            snprintf(message, message_size, "a chunk claims %zu bytes, more than the file holds", length);
            return 0;
        }
        if (memcmp(data + at + 4, "IEND", 4) == 0) break;  // what trails the image is not read
        at += 12 + length;
    }
    return 1;
}

int jukebox_png_cover(const unsigned char *data, unsigned long size, const struct jukebox_cover_limits *limits,
                      unsigned char **out, int *side, char *message, size_t message_size) {
    struct jukebox_png_reader reader = {.data = data, .size = size};
    struct jukebox_square square = {0};
    png_bytep volatile row = NULL;
    png_infop info = NULL;
    *out = NULL;
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        snprintf(message, message_size, "not a PNG");
        return -1;
    }
    if (!jukebox_png_chunks_fit(data, size, message, message_size)) return -1;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, jukebox_png_fail, jukebox_png_quiet);
    if (!png || !(info = png_create_info_struct(png))) {
        png_destroy_read_struct(&png, NULL, NULL);
        snprintf(message, message_size, "out of memory");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        snprintf(message, message_size, "%s", reader.message);
        free(row);
        jukebox_square_free(&square);
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_set_read_fn(png, &reader, jukebox_png_read);
    // Sides past 65535 are refused by libpng as it reads the header (and keep the
    // scaler's sums from overflowing); text and colour-profile chunks get 1 MB.
    png_set_user_limits(png, 65535, 65535);
    png_set_chunk_malloc_max(png, 1 << 20);
    png_read_info(png, info);
    // Every kind of PNG becomes 8-bit RGBA rows.
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    unsigned width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    if (png_get_channels(png, info) != 4 || row_bytes != (size_t)width * 4) {
        snprintf(reader.message, sizeof reader.message, "a PNG layout libpng does not turn into RGBA");
        png_longjmp(png, 1);
    }
    // libpng keeps two rows of the file as it is (up to 8 bytes a pixel) besides ours; the
    // square's own memory follows the panel's side.
    size_t needed = (size_t)width * 8 * 2 + row_bytes;
    if (needed > (size_t)limits->max_bytes) {
        snprintf(reader.message, sizeof reader.message, "%ux%u needs %zu MB to decode (at most %ld MB)", width, height, needed >> 20,
                 limits->max_bytes >> 20);
        png_longjmp(png, 1);
    }
    if (jukebox_square_init(&square, width, height, limits->side) != 0 || !(row = malloc(row_bytes))) {
        snprintf(reader.message, sizeof reader.message, "out of memory");
        png_longjmp(png, 1);
    }
    long started = jukebox_thread_cpu_ms();
    // An interlaced file comes pass by pass (each a sparse grid of the picture), which the
    // scaler takes as they are: no pass needs the others in memory.
    int interlaced = png_get_interlace_type(png, info) == PNG_INTERLACE_ADAM7;
    for (int pass = 0; pass < (interlaced ? 7 : 1); pass++) {
        unsigned across = interlaced ? PNG_PASS_COLS(width, pass) : width;
        unsigned down = interlaced ? PNG_PASS_ROWS(height, pass) : height;
        if (across == 0 || down == 0) continue;
        for (unsigned r = 0; r < down; r++) {
            png_read_row(png, row, NULL);
            unsigned y = interlaced ? PNG_ROW_FROM_PASS_ROW(r, pass) : r;
            unsigned x = interlaced ? PNG_COL_FROM_PASS_COL(0, pass) : 0;
            unsigned step = interlaced ? 1u << PNG_PASS_COL_SHIFT(pass) : 1;
            jukebox_square_add(&square, y, x, step, row, across, 4);
            if ((r & 15) == 0 && jukebox_thread_cpu_ms() - started > limits->max_cpu_ms) {
                snprintf(reader.message, sizeof reader.message, "took more than %ld ms of CPU to decode", limits->max_cpu_ms);
                png_longjmp(png, 1);
            }
        }
    }
    free(row);
    row = NULL;
    png_destroy_read_struct(&png, &info, NULL);
    *side = (int)square.side;
    *out = jukebox_square_finish(&square);
    if (!*out) {
        snprintf(message, message_size, "out of memory");
        return -1;
    }
    return 0;
}
