// Cover pictures through the daemon's own decoders (CJukeboxShim's jpeg.c and png.c, on
// the system's libjpeg-turbo and libpng): libFuzzer mutates small JPEG and PNG covers,
// headers first (the dictionary holds their markers and chunk names). The process's peak
// RSS is checked after every input: a decode that took it past the daemon's 64 MB is a
// crash, however briefly it held the memory (libFuzzer's -rss_limit_mb only samples it
// once a second, and its malloc limit needs a sanitizer's allocator).
#include "CJukeboxShim.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static const long peak_bound_kib = 64 * 1024;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    // The screen's own limits (CoverLimits), on an 800x480 panel's cover side.
    struct jukebox_cover_limits limits = {.side = 360, .max_bytes = 16 << 20, .max_scans = 64, .max_cpu_ms = 3000};
    unsigned char *out = NULL;
    int side = 0;
    char message[256];
    int status = size >= 4 && data[0] == 0x89 ? jukebox_png_cover(data, size, &limits, &out, &side, message, sizeof message)
                                              : jukebox_jpeg_cover(data, size, &limits, &out, &side, message, sizeof message);
    if (status == 0 && (side <= 0 || side > limits.side)) abort();
    free(out);
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0 && usage.ru_maxrss > peak_bound_kib) {
        fprintf(stderr, "peak RSS %ld KiB is over the bound of %ld KiB\n", usage.ru_maxrss, peak_bound_kib);
        abort();
    }
    return 0;
}
