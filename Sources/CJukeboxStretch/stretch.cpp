// The C face of SoundTouch (see CJukeboxStretch.h). No exception crosses into Swift:
// SoundTouch throws on a channel count it does not take, and `new` on no memory.
#include "CJukeboxStretch.h"
#include <SoundTouch.h>
#include <new>

struct jukebox_stretch {
    soundtouch::SoundTouch touch;
};

extern "C" jukebox_stretch *jukebox_stretch_new(unsigned channels, unsigned sample_rate) {
    try {
        auto *stretch = new jukebox_stretch();
        stretch->touch.setChannels(channels);
        stretch->touch.setSampleRate(sample_rate);
        // The quick search for the overlap point costs a third of the full one, and the
        // difference is not heard in speech (a Pi Zero's CPU is what counts).
        stretch->touch.setSetting(SETTING_USE_QUICKSEEK, 1);
        // The anti-alias filter is for a change of rate; a change of tempo alone has
        // none, and the filter would cost as much as the stretch.
        stretch->touch.setSetting(SETTING_USE_AA_FILTER, 0);
        return stretch;
    } catch (...) {
        return nullptr;
    }
}

extern "C" void jukebox_stretch_free(jukebox_stretch *stretch) { delete stretch; }

extern "C" void jukebox_stretch_set_tempo(jukebox_stretch *stretch, double tempo) { stretch->touch.setTempo(tempo); }

extern "C" void jukebox_stretch_put(jukebox_stretch *stretch, const float *samples, unsigned frames) {
    stretch->touch.putSamples(samples, frames);
}

extern "C" unsigned jukebox_stretch_receive(jukebox_stretch *stretch, float *out, unsigned max_frames) {
    return stretch->touch.receiveSamples(out, max_frames);
}

extern "C" unsigned jukebox_stretch_ready(const jukebox_stretch *stretch) { return stretch->touch.numSamples(); }

extern "C" void jukebox_stretch_flush(jukebox_stretch *stretch) { stretch->touch.flush(); }

extern "C" void jukebox_stretch_clear(jukebox_stretch *stretch) { stretch->touch.clear(); }
