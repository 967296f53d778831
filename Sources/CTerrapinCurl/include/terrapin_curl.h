// One HTTP request through libcurl, as a plain call: libcurl reports the body and headers
// through callbacks, which live here; Swift (TerrapinNet's HTTPClient) sees a request in and a
// result out. libcurl is loaded (dlopen) on the first call, not linked. Every limit is checked in the callbacks, so a body larger than asked for is
// refused as it arrives (and before, by its Content-Length), never buffered whole.
#ifndef TERRAPIN_CURL_H
#define TERRAPIN_CURL_H
#include <stddef.h>

typedef struct terrapin_curl_request {
    const char *url;
    /// "Name: value" lines, header_count of them.
    const char *const *headers;
    int header_count;
    /// "first-last" (bytes) or NULL for the whole resource.
    const char *range;
    const char *user_agent;
    long connect_timeout_ms;
    /// The whole transfer's limit.
    long timeout_ms;
    /// Fewer than low_speed_bytes a second for low_speed_seconds aborts (a stalled body).
    long low_speed_bytes;
    long low_speed_seconds;
    /// Most body bytes accepted (after content decoding).
    size_t max_bytes;
} terrapin_curl_request;

typedef struct terrapin_curl_result {
    /// CURLcode: 0 when the transfer completed.
    int code;
    /// The HTTP status of the final response (0 when none arrived).
    long status;
    /// Set when the body exceeded max_bytes (the transfer was stopped).
    int too_large;
    unsigned char *body;
    size_t body_length, body_capacity;
    /// The final response's header block ("Name: value\r\n" lines), at most 64 KiB.
    char *headers;
    size_t headers_length, headers_capacity;
    char error[256];
} terrapin_curl_result;

/// Loads libcurl and starts it (curl_global_init), once per process, whichever thread asks
/// first; later calls answer at once. 0 on success; otherwise terrapin_curl_load_error says why.
/// terrapin_curl_handle (which every request needs), code_text and version call it.
int terrapin_curl_init(void);
/// Why libcurl could not be loaded or started ("" when it was).
const char *terrapin_curl_load_error(void);
/// An easy handle to reuse (its connection cache keeps connections open between requests), or
/// NULL (libcurl not loaded, or out of memory).
void *terrapin_curl_handle(void);
void terrapin_curl_handle_free(void *handle);
/// Performs the request on `handle` (reset first). Fills `out`, which the caller frees with
/// terrapin_curl_result_free whatever the return; returns out->code.
int terrapin_curl_perform(void *handle, const terrapin_curl_request *request, terrapin_curl_result *out);
void terrapin_curl_result_free(terrapin_curl_result *result);
/// libcurl's text for a CURLcode.
const char *terrapin_curl_code_text(int code);
/// The libcurl version string ("libcurl/7.88.1 GnuTLS/… nghttp2/…").
const char *terrapin_curl_version(void);
#endif
