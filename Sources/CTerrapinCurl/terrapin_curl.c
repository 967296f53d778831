#include "terrapin_curl.h"
#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "terrapin_library.h"

#define MAX_HEADER_BYTES (64 * 1024)

// libcurl is loaded on the first request, not linked (CTerrapinLibrary says why): the functions'
// types come from curl.h, the library from Debian's libcurl3-gnutls (the soname the -dev package
// links against).
#define CURL_FUNCTIONS(X) X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_strerror) \
    X(curl_version) X(curl_easy_reset) X(curl_slist_append) X(curl_slist_free_all) X(curl_easy_setopt) \
    X(curl_easy_perform) X(curl_easy_getinfo)
TP_LIBRARY(CURL_FUNCTIONS);
static const char *const sonames[] = { "libcurl-gnutls.so.4", "libcurl.so.4", "libcurl.so", NULL };
static char load_error[512];
static int loaded;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    if (!tp_library_load(sonames, tp_symbols, tp_table.any, "libcurl", "libcurl3-gnutls", load_error, sizeof load_error)) return;
    if (lib->p_curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl could not start (curl_global_init failed)");
        return;
    }
    loaded = 1;
}

int terrapin_curl_init(void) {
    pthread_once(&load_once, load);
    return loaded ? 0 : -1;
}
const char *terrapin_curl_load_error(void) { return load_error; }
void *terrapin_curl_handle(void) { return terrapin_curl_init() == 0 ? lib->p_curl_easy_init() : NULL; }
void terrapin_curl_handle_free(void *handle) { if (handle && loaded) lib->p_curl_easy_cleanup((CURL *)handle); }
const char *terrapin_curl_code_text(int code) { return terrapin_curl_init() == 0 ? lib->p_curl_easy_strerror((CURLcode)code) : load_error; }
const char *terrapin_curl_version(void) { return terrapin_curl_init() == 0 ? lib->p_curl_version() : "libcurl not loaded"; }

typedef struct context {
    const terrapin_curl_request *request;
    terrapin_curl_result *result;
} context;

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    context *c = (context *)user;
    terrapin_curl_result *r = c->result;
    size_t n = size * count;
    if (n > c->request->max_bytes || r->body_length > c->request->max_bytes - n) { r->too_large = 1; return 0; }
    if (r->body_length + n > r->body_capacity) {
        size_t capacity = r->body_capacity ? r->body_capacity : 16384;
        while (capacity < r->body_length + n) capacity *= 2;
        if (capacity > c->request->max_bytes) capacity = c->request->max_bytes;
        unsigned char *grown = realloc(r->body, capacity);
        if (!grown) { r->too_large = 1; return 0; }
        r->body = grown;
        r->body_capacity = capacity;
    }
    memcpy(r->body + r->body_length, data, n);
    r->body_length += n;
    return n;
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
    context *c = (context *)user;
    terrapin_curl_result *r = c->result;
    size_t n = size * count;
    // A status line starts a response's headers (after a 100 Continue, say): keep the last only.
    if (n >= 5 && memcmp(data, "HTTP/", 5) == 0) r->headers_length = 0;
    if (r->headers_length + n + 1 > MAX_HEADER_BYTES) return n;  // Beyond 64 KiB: dropped, not stored.
    if (r->headers_length + n + 1 > r->headers_capacity) {
        size_t capacity = r->headers_capacity ? r->headers_capacity : 2048;
        while (capacity < r->headers_length + n + 1) capacity *= 2;
        char *grown = realloc(r->headers, capacity);
        if (!grown) return n;
        r->headers = grown;
        r->headers_capacity = capacity;
    }
    memcpy(r->headers + r->headers_length, data, n);
    r->headers_length += n;
    r->headers[r->headers_length] = 0;
    return n;
}

int terrapin_curl_perform(void *handle, const terrapin_curl_request *request, terrapin_curl_result *out) {
    memset(out, 0, sizeof *out);
    CURL *curl = (CURL *)handle;
    lib->p_curl_easy_reset(curl);
    context c = { request, out };
    struct curl_slist *headers = NULL;
    for (int i = 0; i < request->header_count; i++) {
        struct curl_slist *next = lib->p_curl_slist_append(headers, request->headers[i]);
        if (!next) { lib->p_curl_slist_free_all(headers); out->code = CURLE_OUT_OF_MEMORY; return out->code; }
        headers = next;
    }
    lib->p_curl_easy_setopt(curl, CURLOPT_URL, request->url);
    lib->p_curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    // Redirects are followed by the caller, which checks each new host against its allow-list.
    lib->p_curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    lib->p_curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    lib->p_curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
    lib->p_curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    lib->p_curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (request->range) lib->p_curl_easy_setopt(curl, CURLOPT_RANGE, request->range);
    if (request->user_agent) lib->p_curl_easy_setopt(curl, CURLOPT_USERAGENT, request->user_agent);
    lib->p_curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
    lib->p_curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    lib->p_curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, request->low_speed_bytes);
    lib->p_curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, request->low_speed_seconds);
    // A declared body over the limit is refused before a byte of it arrives (CURLE_FILESIZE_EXCEEDED).
    lib->p_curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)request->max_bytes);
    lib->p_curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    lib->p_curl_easy_setopt(curl, CURLOPT_WRITEDATA, &c);
    lib->p_curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    lib->p_curl_easy_setopt(curl, CURLOPT_HEADERDATA, &c);
    lib->p_curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, out->error);
    out->error[0] = 0;
    CURLcode code = lib->p_curl_easy_perform(curl);
    lib->p_curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
    lib->p_curl_easy_setopt(curl, CURLOPT_HTTPHEADER, NULL);
    lib->p_curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, NULL);
    lib->p_curl_slist_free_all(headers);
    out->code = (int)code;
    return out->code;
}

void terrapin_curl_result_free(terrapin_curl_result *result) {
    free(result->body);
    free(result->headers);
    result->body = NULL;
    result->headers = NULL;
    result->body_length = result->body_capacity = result->headers_length = result->headers_capacity = 0;
}
