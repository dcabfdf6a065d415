#ifndef CJUKEBOX_SHIM_H
#define CJUKEBOX_SHIM_H

#include <stddef.h>
#include <linux/input.h>
#include <linux/netlink.h>
#include <linux/fb.h>
#include <linux/kd.h>
// malloc_trim is glibc's, declared in <malloc.h>, which Swift's Glibc module leaves out.
#include <malloc.h>

// The bytes a reader has not taken yet from a pipe (FIONREAD) or a peer has not
// acknowledged on a TCP socket (TIOCOUTQ), -1 on failure; a pipe's size in bytes (rounded
// up by the kernel), which returns the size set or -1 (pipe_queue.c says why here).
int jukebox_pipe_unread(int fd);
int jukebox_socket_unsent(int fd);
int jukebox_pipe_set_size(int fd, int bytes);

// Descriptors made non-blocking and closed on exec in one call (socket.c says why here).
#include <sys/socket.h>
/// accept4(2); returns what it returns (-1 with errno set on failure).
int jukebox_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
/// pipe2(2); returns what it returns.
int jukebox_pipe2(int fds[2], int flags);

/// renameat2(2) with RENAME_NOREPLACE: -1 with EEXIST when `to` exists, ENOSYS or EINVAL
/// where the kernel or file system cannot (rename.c says why it is here).
int jukebox_rename_noreplace(int from_dir, const char *from, int to_dir, const char *to);

/// alsa-lib prints its own error messages to stderr through a variadic callback, which
/// Swift cannot define. The jukebox reports ALSA errors itself (with the device and what
/// it was doing), so this installs a handler that drops alsa-lib's copies.
void jukebox_alsa_silence_errors(void);

// evdev and uinput ioctls are function-like macros, which Swift cannot import.
// Each returns what ioctl returns (-1 with errno set on failure).

/// The device's name (EVIOCGNAME).
int jukebox_evdev_name(int fd, char *buffer, size_t size);
/// Timestamps events on this clock (EVIOCSCLOCKID), e.g. CLOCK_MONOTONIC.
int jukebox_evdev_set_clock(int fd, int clock_id);
/// Which event types or codes of one type the device has (EVIOCGBIT).
int jukebox_evdev_bits(int fd, int type, unsigned char *bits, size_t size);
/// Which keys are down now (EVIOCGKEY), to resynchronise after SYN_DROPPED.
int jukebox_evdev_key_state(int fd, unsigned char *bits, size_t size);
/// An absolute axis's current value (EVIOCGABS).
int jukebox_evdev_abs_value(int fd, int code, int *value);
/// Takes the device for this descriptor alone (EVIOCGRAB; 0 lets go): a card reader's
/// digits reach no other reader of the device, nor the console. EBUSY: another holds it.
int jukebox_evdev_grab(int fd, int grab);

/// The kernel's own name for an event code, e.g. "KEY_PLAYPAUSE" -> (EV_KEY, 164);
/// returns 0 if the name is not one the jukebox knows.
int jukebox_evdev_code_named(const char *name, int *type, int *code);
/// The name of a code (NULL if not in the table).
const char *jukebox_evdev_code_name(int type, int code);

/// Creates a uinput device with these keys and relative axes (for tests and the virtual
/// board). Returns 0, or -1 with errno set.
int jukebox_uinput_create(int fd, const char *name, const int *keys, int key_count, const int *rels, int rel_count);
int jukebox_uinput_destroy(int fd);

// Framebuffer and console ioctls, kept here with the evdev ones so every ioctl of the
// project goes through C with its request number checked by the kernel headers.

/// The framebuffer's variable screen info (FBIOGET_VSCREENINFO) and setting it
/// (FBIOPUT_VSCREENINFO: a DRM driver's fbdev emulation lights the panel up only then).
int jukebox_fb_get_variable(int fd, struct fb_var_screeninfo *info);
int jukebox_fb_put_variable(int fd, struct fb_var_screeninfo *info);
/// Its fixed info: memory length and row stride (FBIOGET_FSCREENINFO).
int jukebox_fb_get_fixed(int fd, struct fb_fix_screeninfo *info);
/// The console's mode, KD_TEXT or KD_GRAPHICS (KDGETMODE, KDSETMODE): in graphics mode
/// the kernel stops drawing text and the cursor over the framebuffer.
int jukebox_console_get_mode(int fd, int *mode);
int jukebox_console_set_mode(int fd, int mode);

/// What decoding one cover may cost. A cover is drawn as the centred square of the
/// picture at `side` pixels, so that is all a decode keeps.
struct jukebox_cover_limits {
    int side;          // the panel's cover side, in pixels
    long max_bytes;    // memory the file may make the decoder hold, checked from the header
                       // first (the square itself, 19 bytes a pixel of it, comes on top)
    int max_scans;     // scans of a progressive JPEG
    long max_cpu_ms;   // CPU time the decode may take
};

/// Decodes the centred square of a JPEG held in memory to 8-bit RGB, `*side` pixels a
/// side (at most limits->side; *out is malloc'd: the caller frees it). libjpeg scales it
/// down while decoding, CMYK and YCCK are converted, and a picture that would take more
/// than the limits is refused from its header where it can be. Returns 0, or -1 with
/// the reason in message. libjpeg's errors long-jump, which Swift cannot do, so the
/// decode is here.
int jukebox_jpeg_cover(const unsigned char *data, unsigned long size, const struct jukebox_cover_limits *limits,
                       unsigned char **out, int *side, char *message, size_t message_size);

/// The same for a PNG, read a row at a time through libpng (max_scans is not used).
int jukebox_png_cover(const unsigned char *data, unsigned long size, const struct jukebox_cover_limits *limits,
                      unsigned char **out, int *side, char *message, size_t message_size);

// libcurl is loaded with dlopen on the first URL (curl.c says why), so every call to it
// goes through here; curl_easy_setopt and curl_easy_getinfo are variadic besides, which
// Swift cannot call: one typed entry point per argument kind. Each returns what libcurl
// returns.
#include <curl/curl.h>

/// Loads libcurl.so.4 and starts it (curl_global_init), once, before any other call
/// here; 0, or -1 with the reason in message.
int jukebox_curl_load(char *message, size_t size);
CURL *jukebox_curl_easy_init(void);
void jukebox_curl_easy_cleanup(CURL *handle);
CURLcode jukebox_curl_easy_perform(CURL *handle);
const char *jukebox_curl_easy_strerror(CURLcode code);
struct curl_slist *jukebox_curl_slist_append(struct curl_slist *list, const char *text);
void jukebox_curl_slist_free_all(struct curl_slist *list);

CURLcode jukebox_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode jukebox_curl_set_pointer(CURL *handle, CURLoption option, void *value);
/// For the callback options: a function pointer is not a void pointer in C.
CURLcode jukebox_curl_set_write_function(CURL *handle, CURLoption option,
                                         size_t (*function)(char *, size_t, size_t, void *));
CURLcode jukebox_curl_set_progress_function(CURL *handle,
                                            int (*function)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode jukebox_curl_get_long(CURL *handle, CURLINFO info, long *value);
/// For the `_T` infos: curl_off_t is 64 bits where long is 32 (a 32-bit Pi).
CURLcode jukebox_curl_get_off(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode jukebox_curl_get_string(CURL *handle, CURLINFO info, const char **value);

// FFmpeg's libavformat, libavcodec and libavutil are loaded with dlopen on the first MP4
// file (ffmpeg.c says why), so every call to them goes through here. Each returns what
// FFmpeg returns; the structures themselves are read directly.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>

/// Loads the three libraries, once for the process (any thread may call it, any number of
/// times); 0, or -1 with the reason (the dynamic linker's words) in message.
int jukebox_ffmpeg_load(char *message, size_t size);
/// The largest block FFmpeg may allocate (av_max_alloc): a cover atom claiming 200 MB is
/// then refused instead of read into memory.
void jukebox_av_max_alloc(size_t max);
AVFormatContext *jukebox_avformat_alloc_context(void);
/// avformat_open_input on a context whose `pb` is already set, as the demuxer named
/// `format` (e.g. "mov"): the sniffer has decided the format, FFmpeg does not guess again.
int jukebox_avformat_open_input(AVFormatContext **context, const char *format, AVDictionary **options);
int jukebox_avformat_find_stream_info(AVFormatContext *context);
void jukebox_avformat_close_input(AVFormatContext **context);
int jukebox_av_read_frame(AVFormatContext *context, AVPacket *packet);
int jukebox_av_seek_frame(AVFormatContext *context, int stream, int64_t timestamp, int flags);
/// A read-only AVIOContext over callbacks, with an av_malloc'd buffer of buffer_size.
AVIOContext *jukebox_avio_alloc_context(int buffer_size, void *opaque,
                                        int (*read)(void *, uint8_t *, int),
                                        int64_t (*seek)(void *, int64_t, int));
/// Frees the context and its (possibly reallocated) buffer.
void jukebox_avio_context_free(AVIOContext **io);
const AVCodec *jukebox_avcodec_find_decoder(enum AVCodecID id);
AVCodecContext *jukebox_avcodec_alloc_context(const AVCodec *codec);
int jukebox_avcodec_parameters_to_context(AVCodecContext *context, const AVCodecParameters *parameters);
int jukebox_avcodec_open(AVCodecContext *context, const AVCodec *codec);
void jukebox_avcodec_free_context(AVCodecContext **context);
int jukebox_avcodec_send_packet(AVCodecContext *context, const AVPacket *packet);
int jukebox_avcodec_receive_frame(AVCodecContext *context, AVFrame *frame);
void jukebox_avcodec_flush_buffers(AVCodecContext *context);
AVPacket *jukebox_av_packet_alloc(void);
void jukebox_av_packet_free(AVPacket **packet);
void jukebox_av_packet_unref(AVPacket *packet);
AVFrame *jukebox_av_frame_alloc(void);
void jukebox_av_frame_free(AVFrame **frame);
int jukebox_av_strerror(int code, char *buffer, size_t size);
/// A dictionary's value for `key` (exact, case-insensitive), or NULL.
const char *jukebox_av_dict_value(const AVDictionary *dictionary, const char *key);
/// Walks every entry: NULL first, then the previous entry; NULL at the end.
const AVDictionaryEntry *jukebox_av_dict_next(const AVDictionary *dictionary, const AVDictionaryEntry *previous);
int jukebox_av_dict_set(AVDictionary **dictionary, const char *key, const char *value);
void jukebox_av_dict_free(AVDictionary **dictionary);

// libnfc is loaded with dlopen when a PN532 reader starts (nfc.c says why), so every call
// to it goes through here. Each returns what libnfc returns.
#include <nfc/nfc.h>

/// Loads libnfc.so.6 and makes the process's one libnfc context (its own log kept quiet),
/// once for the process; 0, or -1 with the reason (the dynamic linker's words) in message.
int jukebox_nfc_load(char *message, size_t size);
/// nfc_open on a connection string such as "pn532_uart:/dev/ttyS1"; NULL when it fails.
nfc_device *jukebox_nfc_open(const char *connection);
void jukebox_nfc_close(nfc_device *device);
int jukebox_nfc_initiator_init(nfc_device *device);
int jukebox_nfc_set_property_bool(nfc_device *device, nfc_property property, bool enable);
const char *jukebox_nfc_strerror(const nfc_device *device);
/// One ISO14443A 106 kbps select (nfc_initiator_select_passive_target): 1 with the
/// card's UID in uid (at most *uid_length bytes, *uid_length set to its length), 0 for
/// an empty field, or libnfc's negative error.
int jukebox_nfc_select_iso14443a(nfc_device *device, uint8_t *uid, size_t *uid_length);

#endif
