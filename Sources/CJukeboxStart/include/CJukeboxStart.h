#pragma once

/// Whether `jukebox run` held its signals before the program's own code ran (start.c).
int jukebox_start_held_signals(void);
