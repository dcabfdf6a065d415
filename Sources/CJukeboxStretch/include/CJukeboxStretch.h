#ifndef CJUKEBOX_STRETCH_H
#define CJUKEBOX_STRETCH_H

// SoundTouch's time stretch (tempo changed, pitch kept) behind a C API, since its own is
// C++ only. Samples are interleaved floats. One stretch per thread at a time.

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jukebox_stretch jukebox_stretch;

// NULL when it cannot be made (no memory, a channel count SoundTouch refuses).
jukebox_stretch *jukebox_stretch_new(unsigned channels, unsigned sample_rate);
void jukebox_stretch_free(jukebox_stretch *stretch);
// 1.0 is the original tempo; 1.25 plays a quarter faster.
void jukebox_stretch_set_tempo(jukebox_stretch *stretch, double tempo);
void jukebox_stretch_put(jukebox_stretch *stretch, const float *samples, unsigned frames);
// Moves at most `max_frames` ready frames into `out`; returns how many.
unsigned jukebox_stretch_receive(jukebox_stretch *stretch, float *out, unsigned max_frames);
// Frames ready to receive.
unsigned jukebox_stretch_ready(const jukebox_stretch *stretch);
// Pushes what it holds out (padded with silence), for the end of the audio.
void jukebox_stretch_flush(jukebox_stretch *stretch);
// Forgets everything put and not received (a seek).
void jukebox_stretch_clear(jukebox_stretch *stretch);

#ifdef __cplusplus
}
#endif

#endif
