#include "CJukeboxShim.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

// libcurl is loaded on the first URL, not linked: it and the libraries it needs (OpenSSL,
// GnuTLS, Kerberos, LDAP, SSH) cost every start and 3 MB of memory, which a box that plays
// only files should not pay. Its functions are taken once into this table.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

// Debian's libcurl brings GnuTLS along (librtmp and libldap need it), and GnuTLS starts
// itself (gnutls_global_init) in its constructor on load: 0.9 MB of a streaming box's
// memory, for protocols the box never allows (HTTPTransfer sets http and https only). GnuTLS asks this weak hook whether to skip that start
// (GNUTLS_SKIP_GLOBAL_INIT in gnutls.h); defined here, in the executable, it answers yes.
// A library that uses GnuTLS still calls gnutls_global_init itself, which works as usual.
int _gnutls_global_init_skip(void);
int _gnutls_global_init_skip(void) { return 1; }

int jukebox_curl_load(char *message, size_t size) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(message, size, "%s", dlerror());
        return -1;
    }
#define TAKE(field, name) \
    if (!(*(void **)&curl.field = dlsym(library, name))) { \
        snprintf(message, size, "libcurl.so.4 has no %s", name); \
        return -1; \
    }
    TAKE(global_init, "curl_global_init")
    TAKE(easy_init, "curl_easy_init")
    TAKE(easy_cleanup, "curl_easy_cleanup")
    TAKE(easy_perform, "curl_easy_perform")
    TAKE(easy_strerror, "curl_easy_strerror")
    TAKE(easy_setopt, "curl_easy_setopt")
    TAKE(easy_getinfo, "curl_easy_getinfo")
    TAKE(slist_append, "curl_slist_append")
    TAKE(slist_free_all, "curl_slist_free_all")
#undef TAKE
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(message, size, "curl_global_init failed");
        return -1;
    }
    return 0;
}

CURL *jukebox_curl_easy_init(void) { return curl.easy_init(); }
void jukebox_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode jukebox_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *jukebox_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *jukebox_curl_slist_append(struct curl_slist *list, const char *text) { return curl.slist_append(list, text); }
void jukebox_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

// Typed wrappers over libcurl's variadic option and info calls (see the header).

CURLcode jukebox_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode jukebox_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode jukebox_curl_set_write_function(CURL *handle, CURLoption option,
                                         size_t (*function)(char *, size_t, size_t, void *)) {
    return curl.easy_setopt(handle, option, function);
}

CURLcode jukebox_curl_set_progress_function(CURL *handle,
                                            int (*function)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

CURLcode jukebox_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode jukebox_curl_get_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode jukebox_curl_get_string(CURL *handle, CURLINFO info, const char **value) {
    return curl.easy_getinfo(handle, info, value);
}
