// libcurl's multi interface, loaded at run time (dlopen "libcurl.so.4"), without curl's headers.
//
// The build machine has only the runtime library FoundationNetworking itself loads, not
// libcurl4-openssl-dev, so this header declares the few types and constants it needs. Every
// number below is ABI-stable and was checked against curl 7.88.1's headers
// (include/curl/curl.h: CURLOPTTYPE_*, CURLOPT_*, CURLINFO_*, CURLcode, CURLPROTO_*,
// CURL_GLOBAL_*, CURL_VERSION_*, struct curl_version_info_data; include/curl/multi.h:
// CURLMOPT_*, CURLMcode, CURLMSG, struct CURLMsg, struct curl_waitfd).
// Only MediaCurl imports this module. Swift cannot call C variadic functions, so
// curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt get typed, non-variadic wrappers.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>

/// Names the calling thread (prctl PR_SET_NAME; the kernel keeps the first 15 bytes), so the engine
/// thread shows as such in `top -H` instead of inheriting its creator's name. 0 on success.
static inline int ccurl_set_current_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

typedef void CCURL;   // CURL
typedef void CCURLM;  // CURLM
struct ccurl_slist;   // struct curl_slist
typedef int CCURLcode;
typedef int CCURLMcode;
typedef int64_t ccurl_off_t;

// curl.h: CURLOPTTYPE_LONG 0, CURLOPTTYPE_OBJECTPOINT 10000, CURLOPTTYPE_FUNCTIONPOINT 20000,
// CURLOPTTYPE_OFF_T 30000 (STRINGPOINT, SLISTPOINT and CBPOINT are OBJECTPOINT; VALUES is LONG).
enum {
    CCURLOPT_WRITEDATA = 10000 + 1,
    CCURLOPT_URL = 10000 + 2,
    CCURLOPT_ERRORBUFFER = 10000 + 10,
    CCURLOPT_WRITEFUNCTION = 20000 + 11,
    CCURLOPT_POSTFIELDS = 10000 + 15,
    CCURLOPT_HTTPHEADER = 10000 + 23,
    CCURLOPT_HEADERDATA = 10000 + 29,
    CCURLOPT_CUSTOMREQUEST = 10000 + 36,
    CCURLOPT_NOBODY = 0 + 44,
    CCURLOPT_FOLLOWLOCATION = 0 + 52,
    CCURLOPT_HEADERFUNCTION = 20000 + 79,
    CCURLOPT_HTTPGET = 0 + 80,
    CCURLOPT_NOSIGNAL = 0 + 99,
    CCURLOPT_ACCEPT_ENCODING = 10000 + 102,
    CCURLOPT_PRIVATE = 10000 + 103,
    CCURLOPT_POSTFIELDSIZE_LARGE = 30000 + 120,
    CCURLOPT_TCP_NODELAY = 0 + 121,
    CCURLOPT_TIMEOUT_MS = 0 + 155,
    CCURLOPT_CONNECTTIMEOUT_MS = 0 + 156,
    CCURLOPT_HTTP_CONTENT_DECODING = 0 + 158,
    CCURLOPT_PATH_AS_IS = 0 + 234,
    CCURLOPT_SUPPRESS_CONNECT_HEADERS = 0 + 265,
    CCURLOPT_PROTOCOLS_STR = 10000 + 318,
};

// curl.h: CURLINFO_LONG 0x200000.
enum {
    CCURLINFO_RESPONSE_CODE = 0x200000 + 2,
};

// curl.h: CURLcode values.
enum {
    CCURLE_OK = 0,
    CCURLE_UNSUPPORTED_PROTOCOL = 1,
    CCURLE_URL_MALFORMAT = 3,
    CCURLE_COULDNT_RESOLVE_PROXY = 5,
    CCURLE_COULDNT_RESOLVE_HOST = 6,
    CCURLE_COULDNT_CONNECT = 7,
    CCURLE_WEIRD_SERVER_REPLY = 8,
    CCURLE_PARTIAL_FILE = 18,
    CCURLE_WRITE_ERROR = 23,
    CCURLE_OUT_OF_MEMORY = 27,
    CCURLE_OPERATION_TIMEDOUT = 28,
    CCURLE_SSL_CONNECT_ERROR = 35,
    CCURLE_ABORTED_BY_CALLBACK = 42,
    CCURLE_GOT_NOTHING = 52,
    CCURLE_SEND_ERROR = 55,
    CCURLE_RECV_ERROR = 56,
    CCURLE_SSL_CERTPROBLEM = 58,
    CCURLE_SSL_CIPHER = 59,
    CCURLE_PEER_FAILED_VERIFICATION = 60,
    CCURLE_BAD_CONTENT_ENCODING = 61,
    CCURLE_SSL_CACERT_BADFILE = 77,
    CCURLE_SSL_SHUTDOWN_FAILED = 80,
    CCURLE_SSL_CRL_BADFILE = 82,
    CCURLE_SSL_ISSUER_ERROR = 83,
    CCURLE_SSL_PINNEDPUBKEYNOTMATCH = 90,
    CCURLE_SSL_INVALIDCERTSTATUS = 91,
    CCURLE_SSL_CLIENTCERT = 98,
    CCURLE_TOO_LARGE = 100,
};

// multi.h: CURLMOPT_MAXCONNECTS (LONG 6), CURLMOPT_MAX_HOST_CONNECTIONS (LONG 7),
// CURLMOPT_MAX_TOTAL_CONNECTIONS (LONG 13); CURLMcode CURLM_OK 0; CURLMSG_DONE 1.
enum {
    CCURLMOPT_MAXCONNECTS = 0 + 6,
    CCURLMOPT_MAX_HOST_CONNECTIONS = 0 + 7,
    CCURLMOPT_MAX_TOTAL_CONNECTIONS = 0 + 13,
    CCURLM_OK = 0,
    CCURLMSG_DONE = 1,
};

// curl.h: CURL_GLOBAL_ALL (1<<0 | 1<<1), CURL_VERSION_IPV6 (1<<0), CURL_VERSION_THREADSAFE (1<<30);
// CURLVERSION_TENTH = 9 (any age ≥ FIRST has the fields below).
enum {
    CCURL_GLOBAL_ALL = 3,
    CCURL_VERSION_IPV6 = 1 << 0,
    CCURL_VERSION_THREADSAFE = 1 << 30,
    CCURLVERSION_TENTH = 9,
};

// multi.h: struct CURLMsg { CURLMSG msg; CURL *easy_handle; union { void *whatever; CURLcode result; } data; }.
struct ccurl_msg {
    int msg;
    CCURL *easy_handle;
    union { void *whatever; CCURLcode result; } data;
};

// multi.h: struct curl_waitfd (only passed as NULL here).
struct ccurl_waitfd {
    int fd;
    short events;
    short revents;
};

// curl.h: the leading fields of struct curl_version_info_data (unchanged since CURLVERSION_FIRST).
struct ccurl_version_info_prefix {
    int age;
    const char *version;
    unsigned int version_num;
    const char *host;
    int features;
};

// curl.h: curl_write_callback (also the header callback's type).
typedef size_t (*ccurl_write_callback)(char *buffer, size_t size, size_t nitems, void *userdata);

/// The libcurl functions, resolved by ccurl_load.
struct ccurl_api {
    CCURLcode (*global_init)(long flags);
    struct ccurl_version_info_prefix *(*version_info)(int age);
    const char *(*easy_strerror)(CCURLcode code);
    CCURL *(*easy_init)(void);
    void (*easy_cleanup)(CCURL *handle);
    void (*easy_reset)(CCURL *handle);
    CCURLcode (*easy_setopt)(CCURL *handle, int option, ...);
    CCURLcode (*easy_getinfo)(CCURL *handle, int info, ...);
    struct ccurl_slist *(*slist_append)(struct ccurl_slist *list, const char *line);
    void (*slist_free_all)(struct ccurl_slist *list);
    CCURLM *(*multi_init)(void);
    CCURLMcode (*multi_cleanup)(CCURLM *multi);
    CCURLMcode (*multi_setopt)(CCURLM *multi, int option, ...);
    CCURLMcode (*multi_add_handle)(CCURLM *multi, CCURL *handle);
    CCURLMcode (*multi_remove_handle)(CCURLM *multi, CCURL *handle);
    CCURLMcode (*multi_perform)(CCURLM *multi, int *running);
    CCURLMcode (*multi_poll)(CCURLM *multi, struct ccurl_waitfd *extra, unsigned int count, int timeout_ms, int *numfds);
    CCURLMcode (*multi_wakeup)(CCURLM *multi);
    struct ccurl_msg *(*multi_info_read)(CCURLM *multi, int *queued);
};

/// Opens `library` (e.g. "libcurl.so.4") and resolves every function of `api`.
/// Returns 0, or -1 with a message in `error` (the library is then closed again).
static inline int ccurl_load(const char *library, struct ccurl_api *api, char *error, size_t error_size) {
    void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        const char *reason = dlerror();
        snprintf(error, error_size, "%s", reason ? reason : "dlopen failed");
        return -1;
    }
#define CCURL_SYM(field, name) \
    *(void **)(&api->field) = dlsym(lib, name); \
    if (api->field == NULL) { snprintf(error, error_size, "%s: symbol %s not found", library, name); dlclose(lib); return -1; }
    CCURL_SYM(global_init, "curl_global_init")
    CCURL_SYM(version_info, "curl_version_info")
    CCURL_SYM(easy_strerror, "curl_easy_strerror")
    CCURL_SYM(easy_init, "curl_easy_init")
    CCURL_SYM(easy_cleanup, "curl_easy_cleanup")
    CCURL_SYM(easy_reset, "curl_easy_reset")
    CCURL_SYM(easy_setopt, "curl_easy_setopt")
    CCURL_SYM(easy_getinfo, "curl_easy_getinfo")
    CCURL_SYM(slist_append, "curl_slist_append")
    CCURL_SYM(slist_free_all, "curl_slist_free_all")
    CCURL_SYM(multi_init, "curl_multi_init")
    CCURL_SYM(multi_cleanup, "curl_multi_cleanup")
    CCURL_SYM(multi_setopt, "curl_multi_setopt")
    CCURL_SYM(multi_add_handle, "curl_multi_add_handle")
    CCURL_SYM(multi_remove_handle, "curl_multi_remove_handle")
    CCURL_SYM(multi_perform, "curl_multi_perform")
    CCURL_SYM(multi_poll, "curl_multi_poll")
    CCURL_SYM(multi_wakeup, "curl_multi_wakeup")
    CCURL_SYM(multi_info_read, "curl_multi_info_read")
#undef CCURL_SYM
    return 0;
}

// Non-variadic wrappers (the option's type decides the wrapper: LONG → long, OBJECTPOINT → pointer,
// FUNCTIONPOINT → callback, OFF_T → curl_off_t).
static inline CCURLcode ccurl_easy_setopt_long(const struct ccurl_api *api, CCURL *h, int option, long value) {
    return api->easy_setopt(h, option, value);
}
static inline CCURLcode ccurl_easy_setopt_pointer(const struct ccurl_api *api, CCURL *h, int option, const void *value) {
    return api->easy_setopt(h, option, value);
}
static inline CCURLcode ccurl_easy_setopt_callback(const struct ccurl_api *api, CCURL *h, int option, ccurl_write_callback value) {
    return api->easy_setopt(h, option, value);
}
static inline CCURLcode ccurl_easy_setopt_off_t(const struct ccurl_api *api, CCURL *h, int option, ccurl_off_t value) {
    return api->easy_setopt(h, option, value);
}
static inline CCURLcode ccurl_easy_getinfo_long(const struct ccurl_api *api, CCURL *h, int info, long *value) {
    return api->easy_getinfo(h, info, value);
}
static inline CCURLMcode ccurl_multi_setopt_long(const struct ccurl_api *api, CCURLM *m, int option, long value) {
    return api->multi_setopt(m, option, value);
}
#endif
