// The one C file between libmicrohttpd and Swift (TerrapinServe's HTTPServer).
//
// libmicrohttpd calls its access handler several times per request (headers, each piece of
// the body, the end) and frees per-request state in a completion callback. This file keeps
// that state: it gathers the body up to a limit (a larger Content-Length is answered at once,
// without reading the body), collects the query arguments, and calls the Swift handler once
// per request, from the connection's own thread, with an exchange to read and answer.
#ifndef TERRAPIN_HTTP_H
#define TERRAPIN_HTTP_H

#include <stddef.h>
#include <stdint.h>

typedef struct tp_http_server tp_http_server;
typedef struct tp_http_exchange tp_http_exchange;
typedef struct tp_http_response tp_http_response;

/// Called once per request; must answer with tp_http_respond (else the connection closes).
typedef void (*tp_http_handler)(void *context, tp_http_exchange *exchange);

typedef struct tp_http_config {
    const char *host;             // numeric IPv4 or IPv6 address to listen on
    uint16_t port;                // 0: an ephemeral port (tp_http_port says which)
    unsigned connection_limit;    // open connections at most; more are refused by the kernel backlog
    unsigned idle_timeout;        // seconds a keep-alive connection may stay idle
    size_t body_limit;            // largest request body read
    size_t connection_memory;     // per-connection buffer for the request line and headers
} tp_http_config;

#define TP_HTTP_ERROR_SIZE 256

/// Starts listening; NULL with a message in `error` on failure.
tp_http_server *tp_http_start(const tp_http_config *config, tp_http_handler handler, void *context,
                              char error[TP_HTTP_ERROR_SIZE]);
uint16_t tp_http_port(const tp_http_server *server);
/// Requests begun whose answer is not yet sent (nor their connection gone).
long tp_http_active(tp_http_server *server);
/// Stops accepting connections (closes the listening socket); open connections go on.
void tp_http_quiesce(tp_http_server *server);
/// Closes every connection, waits for their threads and frees the server.
void tp_http_stop(tp_http_server *server);

// Inside the handler:
const char *tp_http_method(const tp_http_exchange *exchange);
/// The path, percent-decoded, without the query.
const char *tp_http_path(const tp_http_exchange *exchange);
/// A request header (case-insensitive name), NULL when absent.
const char *tp_http_header(const tp_http_exchange *exchange, const char *name);
/// Query arguments in request order, percent-decoded; a key without '=' has the value "".
size_t tp_http_argument_count(const tp_http_exchange *exchange);
const char *tp_http_argument_key(const tp_http_exchange *exchange, size_t index);
const char *tp_http_argument_value(const tp_http_exchange *exchange, size_t index);
/// 1 when the query had more arguments than this file keeps (TP_HTTP_MAX_ARGUMENTS).
int tp_http_arguments_truncated(const tp_http_exchange *exchange);
#define TP_HTTP_MAX_ARGUMENTS 512

enum { TP_HTTP_BODY_OK = 0, TP_HTTP_BODY_TOO_LARGE = 1, TP_HTTP_BODY_NO_MEMORY = 2 };
/// The request body (NULL when empty or not kept) and whether it was kept whole.
const uint8_t *tp_http_body(const tp_http_exchange *exchange, size_t *length, int *state);
/// The client's address as text ("127.0.0.1"), or "-".
const char *tp_http_client(tp_http_exchange *exchange);

/// A response whose body is copied from `body`; headers added one by one, then queued.
tp_http_response *tp_http_response_new(const void *body, size_t length);
void tp_http_response_header(tp_http_response *response, const char *name, const char *value);
/// Queues the response (and frees it). 0 when the connection is already gone.
int tp_http_respond(tp_http_exchange *exchange, unsigned status, tp_http_response *response);

#endif
