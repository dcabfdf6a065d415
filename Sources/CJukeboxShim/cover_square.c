#include "cover_square.h"
#include <stdlib.h>

unsigned jukebox_square_side(unsigned width, unsigned height, unsigned side) {
    unsigned span = width < height ? width : height;
    if (side < 16) side = 16;
    return side < span ? side : span;
}

int jukebox_square_init(struct jukebox_square *square, unsigned width, unsigned height, unsigned side) {
    square->span = width < height ? width : height;
    square->x0 = (width - square->span) / 2;
    square->y0 = (height - square->span) / 2;
    square->side = jukebox_square_side(width, height, side);
    square->sums = calloc((size_t)square->side * square->side * 4, sizeof(uint32_t));
    return square->sums ? 0 : -1;
}

void jukebox_square_add(struct jukebox_square *square, unsigned y, unsigned first, unsigned step,
                        const unsigned char *pixels, unsigned count, unsigned channels) {
    if (y < square->y0 || y >= square->y0 + square->span) return;
    uint64_t by = (uint64_t)(y - square->y0) * square->side / square->span;
    uint32_t *row = square->sums + by * square->side * 4;
    unsigned x = first;
    for (unsigned i = 0; i < count; i++, x += step, pixels += channels) {
        if (x < square->x0) continue;
        if (x >= square->x0 + square->span) break;
        uint32_t *bucket = row + (uint64_t)(x - square->x0) * square->side / square->span * 4;
        unsigned alpha = channels == 4 ? pixels[3] : 255;
        bucket[0] += pixels[0] * alpha / 255;
        bucket[1] += pixels[1] * alpha / 255;
        bucket[2] += pixels[2] * alpha / 255;
        bucket[3] += 1;
    }
}

unsigned char *jukebox_square_finish(struct jukebox_square *square) {
    size_t count = (size_t)square->side * square->side;
    unsigned char *out = malloc(count * 3);
    if (out) {
        for (size_t i = 0; i < count; i++) {
            const uint32_t *bucket = square->sums + i * 4;
            uint32_t n = bucket[3] ? bucket[3] : 1;
            for (int c = 0; c < 3; c++) out[i * 3 + c] = (unsigned char)((bucket[c] + n / 2) / n);
        }
    }
    jukebox_square_free(square);
    return out;
}

void jukebox_square_free(struct jukebox_square *square) {
    free(square->sums);
    square->sums = NULL;
}

#include <time.h>

long jukebox_thread_cpu_ms(void) {
    struct timespec now;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return 0;
    return (long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}
