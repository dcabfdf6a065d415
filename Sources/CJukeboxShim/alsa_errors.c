#include "CJukeboxShim.h"
#include <alsa/asoundlib.h>

static void jukebox_alsa_drop_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void jukebox_alsa_silence_errors(void) {
    snd_lib_error_set_handler(jukebox_alsa_drop_error);
}
