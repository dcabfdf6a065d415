#include "CJukeboxShim.h"
#include <sys/ioctl.h>

int jukebox_fb_get_variable(int fd, struct fb_var_screeninfo *info) { return ioctl(fd, FBIOGET_VSCREENINFO, info); }
int jukebox_fb_put_variable(int fd, struct fb_var_screeninfo *info) { return ioctl(fd, FBIOPUT_VSCREENINFO, info); }
int jukebox_fb_get_fixed(int fd, struct fb_fix_screeninfo *info) { return ioctl(fd, FBIOGET_FSCREENINFO, info); }
int jukebox_console_get_mode(int fd, int *mode) { return ioctl(fd, KDGETMODE, mode); }
int jukebox_console_set_mode(int fd, int mode) { return ioctl(fd, KDSETMODE, mode); }
