#ifndef CJPEG_FIXTURES_H
#define CJPEG_FIXTURES_H

/// libjpeg's encoder, for the tests' own JPEG covers: baseline or progressive, RGB or
/// grayscale, and CMYK or YCCK as scanned artwork comes. Nothing the daemon ships.

enum jukebox_fixture_space { JUKEBOX_FIXTURE_RGB, JUKEBOX_FIXTURE_GRAY, JUKEBOX_FIXTURE_CMYK, JUKEBOX_FIXTURE_YCCK };

/// Encodes `pixels` (width * height pixels: RGB for RGB and gray, else CMYK as written to
/// the file) at quality 90; `adobe` 0 leaves the Adobe marker out of a CMYK file. Returns
/// the malloc'd bytes in *out (the caller frees them) and 0, or -1.
int jukebox_fixture_jpeg(const unsigned char *pixels, int width, int height, int space, int progressive, int adobe,
                         unsigned char **out, unsigned long *size);

#endif
