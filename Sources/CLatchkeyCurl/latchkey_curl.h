// libcurl, loaded at run time: the few entry points LatchkeyRuntime's Linux transport calls.
//
// No libcurl header or development package is needed to build, and nothing links against libcurl: the
// library is opened with dlopen("libcurl.so.4") when the first transport is created (FoundationNetworking
// needs the same library, so it is present wherever URLSession works). The types and option numbers below
// are libcurl's documented, stable ABI (curl/curl.h); they are declared here, not copied.
#ifndef LATCHKEY_CURL_H
#define LATCHKEY_CURL_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

typedef void latchkey_curl_handle;
typedef struct latchkey_curl_slist latchkey_curl_slist;

/// size_t callback(char *bytes, size_t size, size_t count, void *context): the header and write callbacks.
typedef size_t (*latchkey_curl_data_callback)(char *, size_t, size_t, void *);
/// int callback(void *context, curl_off_t, curl_off_t, curl_off_t, curl_off_t): the transfer-info callback.
typedef int (*latchkey_curl_xferinfo_callback)(void *, int64_t, int64_t, int64_t, int64_t);

typedef int (*latchkey_curl_global_init_fn)(long);
typedef latchkey_curl_handle *(*latchkey_curl_easy_init_fn)(void);
typedef void (*latchkey_curl_easy_cleanup_fn)(latchkey_curl_handle *);
typedef void (*latchkey_curl_easy_reset_fn)(latchkey_curl_handle *);
typedef int (*latchkey_curl_easy_perform_fn)(latchkey_curl_handle *);
typedef int (*latchkey_curl_easy_setopt_fn)(latchkey_curl_handle *, int, ...);
typedef latchkey_curl_slist *(*latchkey_curl_slist_append_fn)(latchkey_curl_slist *, const char *);
typedef void (*latchkey_curl_slist_free_all_fn)(latchkey_curl_slist *);

/// The entry points, resolved once.
typedef struct latchkey_curl_api {
    latchkey_curl_easy_init_fn easy_init;
    latchkey_curl_easy_cleanup_fn easy_cleanup;
    latchkey_curl_easy_reset_fn easy_reset;
    latchkey_curl_easy_perform_fn easy_perform;
    latchkey_curl_easy_setopt_fn easy_setopt;
    latchkey_curl_slist_append_fn slist_append;
    latchkey_curl_slist_free_all_fn slist_free_all;
} latchkey_curl_api;

/// Opens `library` and resolves every entry point; returns 0 and fills `api` on success, -1 otherwise (the
/// library is then closed again). Calls curl_global_init(CURL_GLOBAL_ALL) once on success (it counts its callers).
static inline int latchkey_curl_load(const char *library, latchkey_curl_api *api) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return -1;
    latchkey_curl_global_init_fn global_init = (latchkey_curl_global_init_fn)dlsym(handle, "curl_global_init");
    api->easy_init = (latchkey_curl_easy_init_fn)dlsym(handle, "curl_easy_init");
    api->easy_cleanup = (latchkey_curl_easy_cleanup_fn)dlsym(handle, "curl_easy_cleanup");
    api->easy_reset = (latchkey_curl_easy_reset_fn)dlsym(handle, "curl_easy_reset");
    api->easy_perform = (latchkey_curl_easy_perform_fn)dlsym(handle, "curl_easy_perform");
    api->easy_setopt = (latchkey_curl_easy_setopt_fn)dlsym(handle, "curl_easy_setopt");
    api->slist_append = (latchkey_curl_slist_append_fn)dlsym(handle, "curl_slist_append");
    api->slist_free_all = (latchkey_curl_slist_free_all_fn)dlsym(handle, "curl_slist_free_all");
    if (global_init == NULL || api->easy_init == NULL || api->easy_cleanup == NULL || api->easy_reset == NULL
        || api->easy_perform == NULL || api->easy_setopt == NULL
        || api->slist_append == NULL || api->slist_free_all == NULL || global_init(3L) != 0) {
        dlclose(handle);
        return -1;
    }
    return 0;
}

// curl_easy_setopt is variadic: Swift cannot call it, and the argument must have the type the option's
// number announces (long, pointer, function pointer, curl_off_t). One wrapper per type.

static inline int latchkey_curl_setopt_long(const latchkey_curl_api *api, latchkey_curl_handle *h, int option,
                                            long value) {
    return api->easy_setopt(h, option, value);
}

static inline int latchkey_curl_setopt_pointer(const latchkey_curl_api *api, latchkey_curl_handle *h, int option,
                                               const void *value) {
    return api->easy_setopt(h, option, value);
}

static inline int latchkey_curl_setopt_list(const latchkey_curl_api *api, latchkey_curl_handle *h, int option,
                                            latchkey_curl_slist *value) {
    return api->easy_setopt(h, option, value);
}

static inline int latchkey_curl_setopt_offset(const latchkey_curl_api *api, latchkey_curl_handle *h, int option,
                                              int64_t value) {
    return api->easy_setopt(h, option, value);
}

static inline int latchkey_curl_setopt_data_callback(const latchkey_curl_api *api, latchkey_curl_handle *h,
                                                     int option, latchkey_curl_data_callback value) {
    return api->easy_setopt(h, option, value);
}

static inline int latchkey_curl_setopt_xferinfo_callback(const latchkey_curl_api *api, latchkey_curl_handle *h,
                                                         int option, latchkey_curl_xferinfo_callback value) {
    return api->easy_setopt(h, option, value);
}

#endif
