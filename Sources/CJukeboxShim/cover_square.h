#ifndef JUKEBOX_COVER_SQUARE_H
#define JUKEBOX_COVER_SQUARE_H

#include <stddef.h>
#include <stdint.h>
#include "CJukeboxShim.h"

// The centred square of a picture, box-filtered down to the cover's side while the
// decoder hands over rows (in any order: an interlaced PNG sends its passes), so no
// decoder ever holds the whole picture. Each source pixel lands in the one output pixel
// it falls in; a 32-bit sum cannot overflow while a bucket spans at most 4096x4096
// pixels, which JPEG's and our PNG limit (65535 a side) keep with side >= 16.
struct jukebox_square {
    unsigned x0, y0, span;  // the square, in source pixels
    unsigned side;          // the output's side (at most span)
    uint32_t *sums;         // side * side * 4: red, green, blue, pixels
};

/// 0, or -1 when out of memory.
int jukebox_square_init(struct jukebox_square *square, unsigned width, unsigned height, unsigned side);
/// Adds `count` pixels of source row `y` at x = first, first + step, ...; `channels` is 3
/// (RGB) or 4 (RGBA, composed over black as the screen's background is).
void jukebox_square_add(struct jukebox_square *square, unsigned y, unsigned first, unsigned step,
                        const unsigned char *pixels, unsigned count, unsigned channels);
/// The averaged RGB pixels (malloc'd, side * side * 3: the caller frees them), or NULL when
/// out of memory. Frees the sums either way.
unsigned char *jukebox_square_finish(struct jukebox_square *square);
void jukebox_square_free(struct jukebox_square *square);

/// Picks the centred square's output side: the cover's side, never larger than the square.
unsigned jukebox_square_side(unsigned width, unsigned height, unsigned side);

/// CPU time this thread has used, in ms: a decode's time budget is CPU, not wall clock,
/// so a busy box does not turn a good cover away.
long jukebox_thread_cpu_ms(void);

#endif

