#include "CJukeboxShim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// FFmpeg (libavformat for MP4, libavcodec for AAC and ALAC) is loaded on the first MP4
// file, not linked: its three libraries and theirs (codecs, x264, libdrm, ...) would cost
// every start and megabytes of memory on a box that plays only FLAC and MP3 (figures in
// docs/benchmarks.md). The sonames are Debian 12's (FFmpeg 5.1), the same on arm64;
// the structures the jukebox reads are laid out as the headers it was built with say.
static struct {
    AVFormatContext *(*format_alloc_context)(void);
    int (*format_open_input)(AVFormatContext **, const char *, const AVInputFormat *, AVDictionary **);
    const AVInputFormat *(*find_input_format)(const char *);
    int (*format_find_stream_info)(AVFormatContext *, AVDictionary **);
    void (*format_close_input)(AVFormatContext **);
    int (*read_frame)(AVFormatContext *, AVPacket *);
    int (*seek_frame)(AVFormatContext *, int, int64_t, int);
    AVIOContext *(*io_alloc_context)(unsigned char *, int, int, void *,
                                     int (*)(void *, uint8_t *, int),
                                     int (*)(void *, uint8_t *, int),
                                     int64_t (*)(void *, int64_t, int));
    void (*io_context_free)(AVIOContext **);
    const AVCodec *(*find_decoder)(enum AVCodecID);
    AVCodecContext *(*codec_alloc_context)(const AVCodec *);
    int (*parameters_to_context)(AVCodecContext *, const AVCodecParameters *);
    int (*codec_open)(AVCodecContext *, const AVCodec *, AVDictionary **);
    void (*codec_free_context)(AVCodecContext **);
    int (*send_packet)(AVCodecContext *, const AVPacket *);
    int (*receive_frame)(AVCodecContext *, AVFrame *);
    void (*flush_buffers)(AVCodecContext *);
    AVPacket *(*packet_alloc)(void);
    void (*packet_free)(AVPacket **);
    void (*packet_unref)(AVPacket *);
    AVFrame *(*frame_alloc)(void);
    void (*frame_free)(AVFrame **);
    void *(*malloc)(size_t);
    void (*free)(void *);
    void (*max_alloc)(size_t);
    int (*strerror)(int, char *, size_t);
    AVDictionaryEntry *(*dict_get)(const AVDictionary *, const char *, const AVDictionaryEntry *, int);
    int (*dict_set)(AVDictionary **, const char *, const char *, int);
    void (*dict_free)(AVDictionary **);
    void (*log_set_level)(int);
} av;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[256] = "not loaded";

static void load(void) {
    static const char *names[] = {"libavutil.so.57", "libavcodec.so.59", "libavformat.so.59"};
    void *libraries[3];
    for (int i = 0; i < 3; i++) {
        if (!(libraries[i] = dlopen(names[i], RTLD_NOW | RTLD_LOCAL))) {
            snprintf(failure, sizeof failure, "%s", dlerror());
            return;
        }
    }
#define TAKE(lib, field, name) \
    if (!(*(void **)&av.field = dlsym(libraries[lib], name))) { \
        snprintf(failure, sizeof failure, "%s has no %s", names[lib], name); \
        return; \
    }
    TAKE(2, format_alloc_context, "avformat_alloc_context")
    TAKE(2, format_open_input, "avformat_open_input")
    TAKE(2, find_input_format, "av_find_input_format")
    TAKE(2, format_find_stream_info, "avformat_find_stream_info")
    TAKE(2, format_close_input, "avformat_close_input")
    TAKE(2, read_frame, "av_read_frame")
    TAKE(2, seek_frame, "av_seek_frame")
    TAKE(2, io_alloc_context, "avio_alloc_context")
    TAKE(2, io_context_free, "avio_context_free")
    TAKE(1, find_decoder, "avcodec_find_decoder")
    TAKE(1, codec_alloc_context, "avcodec_alloc_context3")
    TAKE(1, parameters_to_context, "avcodec_parameters_to_context")
    TAKE(1, codec_open, "avcodec_open2")
    TAKE(1, codec_free_context, "avcodec_free_context")
    TAKE(1, send_packet, "avcodec_send_packet")
    TAKE(1, receive_frame, "avcodec_receive_frame")
    TAKE(1, flush_buffers, "avcodec_flush_buffers")
    TAKE(1, packet_alloc, "av_packet_alloc")
    TAKE(1, packet_free, "av_packet_free")
    TAKE(1, packet_unref, "av_packet_unref")
    TAKE(0, frame_alloc, "av_frame_alloc")
    TAKE(0, frame_free, "av_frame_free")
    TAKE(0, malloc, "av_malloc")
    TAKE(0, free, "av_free")
    TAKE(0, max_alloc, "av_max_alloc")
    TAKE(0, strerror, "av_strerror")
    TAKE(0, dict_get, "av_dict_get")
    TAKE(0, dict_set, "av_dict_set")
    TAKE(0, dict_free, "av_dict_free")
    TAKE(0, log_set_level, "av_log_set_level")
#undef TAKE
    // The jukebox reports what goes wrong itself, naming the file; FFmpeg's own lines on
    // stderr would only repeat it without the name.
    av.log_set_level(AV_LOG_QUIET);
    failure[0] = 0;
}

int jukebox_ffmpeg_load(char *message, size_t size) {
    pthread_once(&once, load);
    if (failure[0]) {
        snprintf(message, size, "%s", failure);
        return -1;
    }
    return 0;
}

void jukebox_av_max_alloc(size_t max) { av.max_alloc(max); }
AVFormatContext *jukebox_avformat_alloc_context(void) { return av.format_alloc_context(); }
int jukebox_avformat_open_input(AVFormatContext **context, const char *format, AVDictionary **options) {
    return av.format_open_input(context, NULL, av.find_input_format(format), options);
}
int jukebox_avformat_find_stream_info(AVFormatContext *context) { return av.format_find_stream_info(context, NULL); }
void jukebox_avformat_close_input(AVFormatContext **context) { av.format_close_input(context); }
int jukebox_av_read_frame(AVFormatContext *context, AVPacket *packet) { return av.read_frame(context, packet); }
int jukebox_av_seek_frame(AVFormatContext *context, int stream, int64_t timestamp, int flags) {
    return av.seek_frame(context, stream, timestamp, flags);
}
AVIOContext *jukebox_avio_alloc_context(int buffer_size, void *opaque,
                                        int (*read)(void *, uint8_t *, int),
                                        int64_t (*seek)(void *, int64_t, int)) {
    unsigned char *buffer = av.malloc((size_t)buffer_size);
    if (!buffer) return NULL;
    AVIOContext *io = av.io_alloc_context(buffer, buffer_size, 0, opaque, read, NULL, seek);
    if (!io) av.free(buffer);
    return io;
}
void jukebox_avio_context_free(AVIOContext **io) {
    if (*io) av.free((*io)->buffer);
    av.io_context_free(io);
}
const AVCodec *jukebox_avcodec_find_decoder(enum AVCodecID id) { return av.find_decoder(id); }
AVCodecContext *jukebox_avcodec_alloc_context(const AVCodec *codec) { return av.codec_alloc_context(codec); }
int jukebox_avcodec_parameters_to_context(AVCodecContext *context, const AVCodecParameters *parameters) {
    return av.parameters_to_context(context, parameters);
}
int jukebox_avcodec_open(AVCodecContext *context, const AVCodec *codec) { return av.codec_open(context, codec, NULL); }
void jukebox_avcodec_free_context(AVCodecContext **context) { av.codec_free_context(context); }
int jukebox_avcodec_send_packet(AVCodecContext *context, const AVPacket *packet) { return av.send_packet(context, packet); }
int jukebox_avcodec_receive_frame(AVCodecContext *context, AVFrame *frame) { return av.receive_frame(context, frame); }
void jukebox_avcodec_flush_buffers(AVCodecContext *context) { av.flush_buffers(context); }
AVPacket *jukebox_av_packet_alloc(void) { return av.packet_alloc(); }
void jukebox_av_packet_free(AVPacket **packet) { av.packet_free(packet); }
void jukebox_av_packet_unref(AVPacket *packet) { av.packet_unref(packet); }
AVFrame *jukebox_av_frame_alloc(void) { return av.frame_alloc(); }
void jukebox_av_frame_free(AVFrame **frame) { av.frame_free(frame); }
int jukebox_av_strerror(int code, char *buffer, size_t size) { return av.strerror(code, buffer, size); }
const char *jukebox_av_dict_value(const AVDictionary *dictionary, const char *key) {
    AVDictionaryEntry *entry = av.dict_get(dictionary, key, NULL, 0);
    return entry ? entry->value : NULL;
}
const AVDictionaryEntry *jukebox_av_dict_next(const AVDictionary *dictionary, const AVDictionaryEntry *previous) {
    return av.dict_get(dictionary, "", previous, AV_DICT_IGNORE_SUFFIX);
}
int jukebox_av_dict_set(AVDictionary **dictionary, const char *key, const char *value) {
    return av.dict_set(dictionary, key, value, 0);
}
void jukebox_av_dict_free(AVDictionary **dictionary) { av.dict_free(dictionary); }
