#include "CJukeboxShim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libnfc (the PN532 card reader) is loaded when a PN532 reader starts, not linked: it
// brings libusb-0.1 along, and a box without a PN532 (most of them) should load neither
// at every start. Only a handful of calls are needed, taken once into this table.
static struct {
    void (*init)(nfc_context **);
    nfc_device *(*open)(nfc_context *, const nfc_connstring);
    void (*close)(nfc_device *);
    int (*initiator_init)(nfc_device *);
    int (*set_property_bool)(nfc_device *, const nfc_property, const bool);
    int (*select_passive_target)(nfc_device *, const nfc_modulation, const uint8_t *, const size_t, nfc_target *);
    const char *(*strerror)(const nfc_device *);
    int (*last_error)(const nfc_device *);
} nfc;

// One context for the process: nfc_init writes LIBNFC_LOG_LEVEL into the environment
// (setenv) each time it runs, so it runs once, under pthread_once.
static nfc_context *context;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[256] = "not loaded";

static void load(void) {
    void *library = dlopen("libnfc.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "%s", dlerror());
        return;
    }
#define TAKE(field, name) \
    if (!(*(void **)&nfc.field = dlsym(library, name))) { \
        snprintf(failure, sizeof failure, "libnfc.so.6 has no %s", name); \
        return; \
    }
    TAKE(init, "nfc_init")
    TAKE(open, "nfc_open")
    TAKE(close, "nfc_close")
    TAKE(initiator_init, "nfc_initiator_init")
    TAKE(set_property_bool, "nfc_device_set_property_bool")
    TAKE(select_passive_target, "nfc_initiator_select_passive_target")
    TAKE(strerror, "nfc_strerror")
    TAKE(last_error, "nfc_device_get_last_error")
#undef TAKE
    // libnfc prints its errors on stderr, one line per failed frame: a reader that is
    // unplugged would fill the log with them while the jukebox says once what is wrong.
    // An environment that sets the level already (debugging a reader) keeps it.
    setenv("LIBNFC_LOG_LEVEL", "0", 0);
    nfc.init(&context);
    if (!context) {
        snprintf(failure, sizeof failure, "nfc_init failed (out of memory)");
        return;
    }
    failure[0] = 0;
}

int jukebox_nfc_load(char *message, size_t size) {
    pthread_once(&once, load);
    if (failure[0]) {
        snprintf(message, size, "%s", failure);
        return -1;
    }
    return 0;
}

nfc_device *jukebox_nfc_open(const char *connection) {
    // nfc_connstring is a fixed-size array: a longer string is not a device libnfc knows.
    nfc_connstring connstring;
    if (strlen(connection) >= sizeof connstring) return NULL;
    snprintf(connstring, sizeof connstring, "%s", connection);
    return nfc.open(context, connstring);
}

void jukebox_nfc_close(nfc_device *device) { nfc.close(device); }
int jukebox_nfc_initiator_init(nfc_device *device) { return nfc.initiator_init(device); }
int jukebox_nfc_set_property_bool(nfc_device *device, nfc_property property, bool enable) {
    return nfc.set_property_bool(device, property, enable);
}
const char *jukebox_nfc_strerror(const nfc_device *device) { return nfc.strerror(device); }

int jukebox_nfc_select_iso14443a(nfc_device *device, uint8_t *uid, size_t *uid_length) {
    const nfc_modulation modulation = { .nmt = NMT_ISO14443A, .nbr = NBR_106 };
    nfc_target target;
    int found = nfc.select_passive_target(device, modulation, NULL, 0, &target);
    if (found <= 0) return found;
    size_t length = target.nti.nai.szUidLen;
    if (length > *uid_length) length = *uid_length;
    memcpy(uid, target.nti.nai.abtUid, length);
    *uid_length = length;
    return found;
}
