#include <opusfile.h>
#include <opus_defines.h>
