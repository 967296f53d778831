// See terrapin_http.h: libmicrohttpd's callbacks, and the per-request state they share.
#include "terrapin_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <pthread.h>
#include <microhttpd.h>
#include "terrapin_library.h"

// libmicrohttpd is loaded when a server starts (tp_http_start), not linked (CTerrapinLibrary says
// why; only `terrapin serve` listens). The functions' types come from microhttpd.h, the library
// from Debian's libmicrohttpd12.
#define MHD_FUNCTIONS(X) X(MHD_start_daemon) X(MHD_stop_daemon) X(MHD_quiesce_daemon) X(MHD_get_daemon_info) \
    X(MHD_get_connection_values) X(MHD_lookup_connection_value) X(MHD_get_connection_info) \
    X(MHD_create_response_from_buffer) X(MHD_add_response_header) X(MHD_queue_response) X(MHD_destroy_response)
TP_LIBRARY(MHD_FUNCTIONS);
static const char *const sonames[] = { "libmicrohttpd.so.12", NULL };
static char load_error[TP_HTTP_ERROR_SIZE];
static int loaded;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    loaded = tp_library_load(sonames, tp_symbols, tp_table.any, "libmicrohttpd", "libmicrohttpd12", load_error, sizeof load_error);
}

struct tp_http_server {
    struct MHD_Daemon *daemon;
    tp_http_handler handler;
    void *context;
    size_t body_limit;
    uint16_t port;
    int quiesced;
    long active;       // requests begun and not yet completed (answer sent or connection gone)
};

struct tp_http_exchange {
    tp_http_server *server;
    struct MHD_Connection *connection;
    const char *method;
    const char *path;
    uint8_t *body;
    size_t length, capacity;
    int body_state;
    int handled;       // the handler ran (once per request)
    int queued;        // a response was queued
    size_t argument_count;
    int arguments_collected, arguments_truncated;
    const char *keys[TP_HTTP_MAX_ARGUMENTS];
    const char *values[TP_HTTP_MAX_ARGUMENTS];
    char client[INET6_ADDRSTRLEN];
};

struct tp_http_response {
    struct MHD_Response *response;
};

static void tp_log(void *context, const char *format, va_list arguments) {
    (void)context;
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
    fprintf(stderr, "terrapin serve: libmicrohttpd: %s\n", line);
}

static enum MHD_Result tp_collect_argument(void *context, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    tp_http_exchange *exchange = context;
    if (exchange->argument_count == TP_HTTP_MAX_ARGUMENTS) {
        exchange->arguments_truncated = 1;
        return MHD_NO;
    }
    exchange->keys[exchange->argument_count] = key ? key : "";
    exchange->values[exchange->argument_count] = value ? value : "";
    exchange->argument_count += 1;
    return MHD_YES;
}

static void tp_handle(tp_http_exchange *exchange) {
    if (exchange->handled) return;
    exchange->handled = 1;
    if (!exchange->arguments_collected) {
        exchange->arguments_collected = 1;
        lib->p_MHD_get_connection_values(exchange->connection, MHD_GET_ARGUMENT_KIND, tp_collect_argument, exchange);
    }
    exchange->server->handler(exchange->server->context, exchange);
}

/// Appends a piece of the body, growing the buffer by doubling up to the limit.
static void tp_append(tp_http_exchange *exchange, const char *data, size_t size) {
    if (exchange->body_state != TP_HTTP_BODY_OK) return;
    size_t limit = exchange->server->body_limit;
    if (size > limit || exchange->length > limit - size) {
        exchange->body_state = TP_HTTP_BODY_TOO_LARGE;
        free(exchange->body);
        exchange->body = NULL;
        exchange->length = exchange->capacity = 0;
        return;
    }
    size_t needed = exchange->length + size;
    if (needed > exchange->capacity) {
        size_t capacity = exchange->capacity ? exchange->capacity : 16384;
        while (capacity < needed) capacity = capacity > limit / 2 ? limit : capacity * 2;
        uint8_t *grown = realloc(exchange->body, capacity);
        if (!grown) {
            exchange->body_state = TP_HTTP_BODY_NO_MEMORY;
            free(exchange->body);
            exchange->body = NULL;
            exchange->length = exchange->capacity = 0;
            return;
        }
        exchange->body = grown;
        exchange->capacity = capacity;
    }
    memcpy(exchange->body + exchange->length, data, size);
    exchange->length = needed;
}

static enum MHD_Result tp_on_request(void *context, struct MHD_Connection *connection, const char *url, const char *method,
                                     const char *version, const char *upload_data, size_t *upload_data_size, void **request_context) {
    (void)version;
    tp_http_server *server = context;
    tp_http_exchange *exchange = *request_context;
    if (!exchange) {
        exchange = calloc(1, sizeof *exchange);
        if (!exchange) return MHD_NO;
        exchange->server = server;
        exchange->connection = connection;
        exchange->method = method;
        exchange->path = url;
        *request_context = exchange;
        __atomic_add_fetch(&server->active, 1, __ATOMIC_SEQ_CST);
        // A body declared larger than the limit is answered now, before it is read.
        const char *declared = lib->p_MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (declared) {
            char *end = NULL;
            unsigned long long n = strtoull(declared, &end, 10);
            if (end != declared && (n > server->body_limit)) {
                exchange->body_state = TP_HTTP_BODY_TOO_LARGE;
                tp_handle(exchange);
                return exchange->queued ? MHD_YES : MHD_NO;
            }
        }
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        if (!exchange->handled) tp_append(exchange, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    tp_handle(exchange);
    return exchange->queued ? MHD_YES : MHD_NO;
}

static void tp_on_completed(void *context, struct MHD_Connection *connection, void **request_context,
                            enum MHD_RequestTerminationCode code) {
    (void)connection; (void)code;
    tp_http_server *server = context;
    tp_http_exchange *exchange = *request_context;
    if (!exchange) return;
    __atomic_sub_fetch(&server->active, 1, __ATOMIC_SEQ_CST);
    free(exchange->body);
    free(exchange);
    *request_context = NULL;
}

tp_http_server *tp_http_start(const tp_http_config *config, tp_http_handler handler, void *context, char error[TP_HTTP_ERROR_SIZE]) {
    error[0] = 0;
    pthread_once(&load_once, load);
    if (!loaded) {
        snprintf(error, TP_HTTP_ERROR_SIZE, "%s", load_error);
        return NULL;
    }
    struct sockaddr_storage address;
    memset(&address, 0, sizeof address);
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (inet_pton(AF_INET, config->host, &((struct sockaddr_in *)&address)->sin_addr) == 1) {
        struct sockaddr_in *v4 = (struct sockaddr_in *)&address;
        v4->sin_family = AF_INET;
        v4->sin_port = htons(config->port);
    } else if (inet_pton(AF_INET6, config->host, &((struct sockaddr_in6 *)&address)->sin6_addr) == 1) {
        struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&address;
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(config->port);
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(error, TP_HTTP_ERROR_SIZE, "'%s' is not a numeric IPv4 or IPv6 address (e.g. 127.0.0.1, 0.0.0.0, ::)", config->host);
        return NULL;
    }
    tp_http_server *server = calloc(1, sizeof *server);
    if (!server) {
        snprintf(error, TP_HTTP_ERROR_SIZE, "out of memory");
        return NULL;
    }
    server->handler = handler;
    server->context = context;
    server->body_limit = config->body_limit;
    server->daemon = lib->p_MHD_start_daemon(flags, config->port, NULL, NULL, tp_on_request, server,
                                             MHD_OPTION_EXTERNAL_LOGGER, tp_log, (void *)NULL,
                                             MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                             MHD_OPTION_CONNECTION_LIMIT, (unsigned)config->connection_limit,
                                             MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)config->idle_timeout,
                                             MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)config->connection_memory,
                                             MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)128,
                                             MHD_OPTION_NOTIFY_COMPLETED, tp_on_completed, (void *)server,
                                             MHD_OPTION_END);
    if (!server->daemon) {
        snprintf(error, TP_HTTP_ERROR_SIZE, "cannot listen on %s port %u (in use, or not allowed)", config->host, (unsigned)config->port);
        free(server);
        return NULL;
    }
    const union MHD_DaemonInfo *info = lib->p_MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    server->port = info ? info->port : config->port;
    return server;
}

uint16_t tp_http_port(const tp_http_server *server) { return server->port; }

long tp_http_active(tp_http_server *server) { return __atomic_load_n(&server->active, __ATOMIC_SEQ_CST); }

void tp_http_quiesce(tp_http_server *server) {
    if (server->quiesced) return;
    server->quiesced = 1;
    MHD_socket listening = lib->p_MHD_quiesce_daemon(server->daemon);
    if (listening != MHD_INVALID_SOCKET) close(listening);
}

void tp_http_stop(tp_http_server *server) {
    lib->p_MHD_stop_daemon(server->daemon);
    free(server);
}

const char *tp_http_method(const tp_http_exchange *exchange) { return exchange->method; }
const char *tp_http_path(const tp_http_exchange *exchange) { return exchange->path; }

const char *tp_http_header(const tp_http_exchange *exchange, const char *name) {
    return lib->p_MHD_lookup_connection_value(exchange->connection, MHD_HEADER_KIND, name);
}

size_t tp_http_argument_count(const tp_http_exchange *exchange) { return exchange->argument_count; }
const char *tp_http_argument_key(const tp_http_exchange *exchange, size_t index) {
    return index < exchange->argument_count ? exchange->keys[index] : "";
}
const char *tp_http_argument_value(const tp_http_exchange *exchange, size_t index) {
    return index < exchange->argument_count ? exchange->values[index] : "";
}
int tp_http_arguments_truncated(const tp_http_exchange *exchange) { return exchange->arguments_truncated; }

const uint8_t *tp_http_body(const tp_http_exchange *exchange, size_t *length, int *state) {
    *length = exchange->length;
    *state = exchange->body_state;
    return exchange->body;
}

const char *tp_http_client(tp_http_exchange *exchange) {
    if (exchange->client[0]) return exchange->client;
    strcpy(exchange->client, "-");
    const union MHD_ConnectionInfo *info = lib->p_MHD_get_connection_info(exchange->connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info && info->client_addr) {
        const struct sockaddr *address = info->client_addr;
        if (address->sa_family == AF_INET) {
            inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, exchange->client, sizeof exchange->client);
        } else if (address->sa_family == AF_INET6) {
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, exchange->client, sizeof exchange->client);
        }
    }
    return exchange->client;
}

tp_http_response *tp_http_response_new(const void *body, size_t length) {
    tp_http_response *response = malloc(sizeof *response);
    if (!response) return NULL;
    response->response = lib->p_MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!response->response) {
        free(response);
        return NULL;
    }
    return response;
}

void tp_http_response_header(tp_http_response *response, const char *name, const char *value) {
    if (response) lib->p_MHD_add_response_header(response->response, name, value);
}

int tp_http_respond(tp_http_exchange *exchange, unsigned status, tp_http_response *response) {
    if (!response) return 0;
    enum MHD_Result result = lib->p_MHD_queue_response(exchange->connection, status, response->response);
    lib->p_MHD_destroy_response(response->response);
    free(response);
    if (result == MHD_YES) exchange->queued = 1;
    return result == MHD_YES;
}
