#include <SoundTouch.h>
