#ifndef CJUKEBOX_SHIM_H
#define CJUKEBOX_SHIM_H

/// alsa-lib prints its own error messages to stderr through a variadic callback, which
/// Swift cannot define. The jukebox reports ALSA errors itself (with the device and what
/// it was doing), so this installs a handler that drops alsa-lib's copies.
void jukebox_alsa_silence_errors(void);

#endif
