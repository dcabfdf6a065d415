#include "CJukeboxShim.h"
#include <linux/uinput.h>
#include <string.h>
#include <sys/ioctl.h>

int jukebox_evdev_name(int fd, char *buffer, size_t size) { return ioctl(fd, EVIOCGNAME(size), buffer); }
int jukebox_evdev_set_clock(int fd, int clock_id) { return ioctl(fd, EVIOCSCLOCKID, &clock_id); }
int jukebox_evdev_bits(int fd, int type, unsigned char *bits, size_t size) { return ioctl(fd, EVIOCGBIT(type, size), bits); }
int jukebox_evdev_key_state(int fd, unsigned char *bits, size_t size) { return ioctl(fd, EVIOCGKEY(size), bits); }
int jukebox_evdev_grab(int fd, int grab) { return ioctl(fd, EVIOCGRAB, (unsigned long)grab); }

int jukebox_evdev_abs_value(int fd, int code, int *value) {
    struct input_absinfo info;
    int result = ioctl(fd, EVIOCGABS(code), &info);
    if (result >= 0) *value = info.value;
    return result;
}

// The names come from the kernel's header by stringifying each macro, so the values are
// the kernel's own. The list holds what a jukebox's inputs plausibly send.
#define CODE(type, name) { #name, type, name }
static const struct { const char *name; int type; int code; } codes[] = {
    CODE(EV_KEY, KEY_PLAYPAUSE), CODE(EV_KEY, KEY_PLAY), CODE(EV_KEY, KEY_PAUSE), CODE(EV_KEY, KEY_PLAYCD),
    CODE(EV_KEY, KEY_PAUSECD), CODE(EV_KEY, KEY_STOP), CODE(EV_KEY, KEY_STOPCD), CODE(EV_KEY, KEY_NEXTSONG),
    CODE(EV_KEY, KEY_PREVIOUSSONG), CODE(EV_KEY, KEY_NEXT), CODE(EV_KEY, KEY_PREVIOUS),
    CODE(EV_KEY, KEY_FASTFORWARD), CODE(EV_KEY, KEY_REWIND), CODE(EV_KEY, KEY_FORWARD), CODE(EV_KEY, KEY_BACK),
    CODE(EV_KEY, KEY_VOLUMEUP), CODE(EV_KEY, KEY_VOLUMEDOWN), CODE(EV_KEY, KEY_MUTE), CODE(EV_KEY, KEY_SHUFFLE),
    CODE(EV_KEY, KEY_MEDIA), CODE(EV_KEY, KEY_MEDIA_REPEAT), CODE(EV_KEY, KEY_SELECT), CODE(EV_KEY, KEY_OK),
    CODE(EV_KEY, KEY_ENTER), CODE(EV_KEY, KEY_SPACE), CODE(EV_KEY, KEY_ESC), CODE(EV_KEY, KEY_POWER),
    CODE(EV_KEY, KEY_UP), CODE(EV_KEY, KEY_DOWN), CODE(EV_KEY, KEY_LEFT), CODE(EV_KEY, KEY_RIGHT),
    CODE(EV_KEY, KEY_PAGEUP), CODE(EV_KEY, KEY_PAGEDOWN), CODE(EV_KEY, KEY_HOME), CODE(EV_KEY, KEY_END),
    CODE(EV_KEY, KEY_0), CODE(EV_KEY, KEY_1), CODE(EV_KEY, KEY_2), CODE(EV_KEY, KEY_3), CODE(EV_KEY, KEY_4),
    CODE(EV_KEY, KEY_5), CODE(EV_KEY, KEY_6), CODE(EV_KEY, KEY_7), CODE(EV_KEY, KEY_8), CODE(EV_KEY, KEY_9),
    CODE(EV_KEY, KEY_KP0), CODE(EV_KEY, KEY_KP1), CODE(EV_KEY, KEY_KP2), CODE(EV_KEY, KEY_KP3), CODE(EV_KEY, KEY_KP4),
    CODE(EV_KEY, KEY_KP5), CODE(EV_KEY, KEY_KP6), CODE(EV_KEY, KEY_KP7), CODE(EV_KEY, KEY_KP8), CODE(EV_KEY, KEY_KP9),
    CODE(EV_KEY, KEY_KPENTER), CODE(EV_KEY, KEY_LEFTSHIFT), CODE(EV_KEY, KEY_RIGHTSHIFT),
    CODE(EV_KEY, KEY_A), CODE(EV_KEY, KEY_B), CODE(EV_KEY, KEY_C), CODE(EV_KEY, KEY_D), CODE(EV_KEY, KEY_E),
    CODE(EV_KEY, KEY_F), CODE(EV_KEY, KEY_M), CODE(EV_KEY, KEY_N), CODE(EV_KEY, KEY_P), CODE(EV_KEY, KEY_Q),
    CODE(EV_KEY, KEY_R), CODE(EV_KEY, KEY_S), CODE(EV_KEY, KEY_X), CODE(EV_KEY, KEY_Y), CODE(EV_KEY, KEY_Z),
    CODE(EV_KEY, KEY_F1), CODE(EV_KEY, KEY_F2), CODE(EV_KEY, KEY_F3), CODE(EV_KEY, KEY_F4), CODE(EV_KEY, KEY_F5),
    CODE(EV_KEY, KEY_F6), CODE(EV_KEY, KEY_F7), CODE(EV_KEY, KEY_F8), CODE(EV_KEY, KEY_F9), CODE(EV_KEY, KEY_F10),
    CODE(EV_KEY, BTN_0), CODE(EV_KEY, BTN_1), CODE(EV_KEY, BTN_2), CODE(EV_KEY, BTN_3), CODE(EV_KEY, BTN_4),
    CODE(EV_KEY, BTN_5), CODE(EV_KEY, BTN_6), CODE(EV_KEY, BTN_7), CODE(EV_KEY, BTN_8), CODE(EV_KEY, BTN_9),
    CODE(EV_KEY, BTN_LEFT), CODE(EV_KEY, BTN_RIGHT), CODE(EV_KEY, BTN_MIDDLE),
    CODE(EV_KEY, BTN_SOUTH), CODE(EV_KEY, BTN_EAST), CODE(EV_KEY, BTN_NORTH), CODE(EV_KEY, BTN_WEST),
    CODE(EV_KEY, BTN_START), CODE(EV_KEY, BTN_SELECT), CODE(EV_KEY, BTN_TRIGGER_HAPPY1),
    CODE(EV_KEY, BTN_TRIGGER_HAPPY2), CODE(EV_KEY, BTN_TRIGGER_HAPPY3), CODE(EV_KEY, BTN_TRIGGER_HAPPY4),
    CODE(EV_REL, REL_X), CODE(EV_REL, REL_Y), CODE(EV_REL, REL_Z), CODE(EV_REL, REL_DIAL), CODE(EV_REL, REL_WHEEL),
    CODE(EV_REL, REL_HWHEEL), CODE(EV_REL, REL_MISC),
    CODE(EV_ABS, ABS_X), CODE(EV_ABS, ABS_Y), CODE(EV_ABS, ABS_Z), CODE(EV_ABS, ABS_WHEEL), CODE(EV_ABS, ABS_VOLUME),
    CODE(EV_ABS, ABS_MISC),
};

int jukebox_evdev_code_named(const char *name, int *type, int *code) {
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        if (strcmp(codes[i].name, name) == 0) { *type = codes[i].type; *code = codes[i].code; return 1; }
    }
    return 0;
}

const char *jukebox_evdev_code_name(int type, int code) {
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        if (codes[i].type == type && codes[i].code == code) return codes[i].name;
    }
    return NULL;
}

int jukebox_uinput_create(int fd, const char *name, const int *keys, int key_count, const int *rels, int rel_count) {
    if (key_count > 0 && ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0) return -1;
    for (int i = 0; i < key_count; i++) if (ioctl(fd, UI_SET_KEYBIT, keys[i]) < 0) return -1;
    if (rel_count > 0 && ioctl(fd, UI_SET_EVBIT, EV_REL) < 0) return -1;
    for (int i = 0; i < rel_count; i++) if (ioctl(fd, UI_SET_RELBIT, rels[i]) < 0) return -1;
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x4a42;  /* "JB" */
    setup.id.product = 1;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) return -1;
    return ioctl(fd, UI_DEV_CREATE);
}

int jukebox_uinput_destroy(int fd) { return ioctl(fd, UI_DEV_DESTROY); }
