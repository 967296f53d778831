// librsvg behind three calls: open, render, close (see include/terrapin_svg.h). librsvg, and
// cairo and GLib through it, are loaded (dlopen) when the first SVG is opened, not linked: most
// processes draw no SVG, and the libraries cost every process some 5 ms at start. Their
// declarations are in rsvg_declarations.h, checked against their own headers by a test.
#include "terrapin_svg.h"
#include "rsvg_declarations.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "terrapin_library.h"

#define SVG_FUNCTIONS(X) X(rsvg_handle_new_from_data) X(rsvg_handle_get_intrinsic_size_in_pixels) \
    X(rsvg_handle_get_intrinsic_dimensions) X(rsvg_handle_render_document) X(g_error_free) X(g_object_unref) \
    X(cairo_image_surface_create) X(cairo_surface_status) X(cairo_status_to_string) X(cairo_surface_destroy) \
    X(cairo_create) X(cairo_destroy) X(cairo_surface_flush) X(cairo_image_surface_get_data) X(cairo_image_surface_get_stride)
TP_LIBRARY(SVG_FUNCTIONS);
// Debian's librsvg2-2; cairo's and GLib's functions are found through it (its dependencies).
static const char *const sonames[] = { "librsvg-2.so.2", NULL };
static char load_error[256];
static int loaded;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    loaded = tp_library_load(sonames, tp_symbols, tp_table.any, "librsvg", "librsvg2-2 (2.52 or later)", load_error, sizeof load_error);
}

struct tp_svg {
    RsvgHandle *handle;
};

static void copy_message(char *message, size_t size, const char *prefix, GError *error) {
    if (message == NULL || size == 0) { if (error) lib->p_g_error_free(error); return; }
    snprintf(message, size, "%s%s", prefix, error && error->message ? error->message : "unknown error");
    if (error) lib->p_g_error_free(error);
}

int tp_svg_load(char *message, size_t message_size) {
    pthread_once(&load_once, load);
    if (!loaded && message && message_size) snprintf(message, message_size, "%s", load_error);
    return loaded;
}

tp_svg *tp_svg_open(const uint8_t *data, size_t length, double *width, double *height, char *message, size_t message_size) {
    *width = 0;
    *height = 0;
    if (!tp_svg_load(message, message_size)) return NULL;
    GError *error = NULL;
    RsvgHandle *handle = lib->p_rsvg_handle_new_from_data(data, length, &error);
    if (handle == NULL) {
        copy_message(message, message_size, "", error);
        return NULL;
    }
    gdouble w = 0, h = 0;
    if (!lib->p_rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h)) {
        gboolean has_width, has_height, has_viewbox;
        RsvgLength lw, lh;
        RsvgRectangle viewbox;
        lib->p_rsvg_handle_get_intrinsic_dimensions(handle, &has_width, &lw, &has_height, &lh, &has_viewbox, &viewbox);
        if (has_viewbox) { w = viewbox.width; h = viewbox.height; }
    }
    tp_svg *svg = malloc(sizeof(tp_svg));
    if (svg == NULL) {
        lib->p_g_object_unref(handle);
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    svg->handle = handle;
    *width = w;
    *height = h;
    return svg;
}

int tp_svg_render(tp_svg *svg, int width, int height, uint8_t *dst, char *message, size_t message_size) {
    cairo_surface_t *surface = lib->p_cairo_image_surface_create(TP_CAIRO_FORMAT_ARGB32, width, height);
    if (lib->p_cairo_surface_status(surface) != TP_CAIRO_STATUS_SUCCESS) {
        snprintf(message, message_size, "cairo: %s", lib->p_cairo_status_to_string(lib->p_cairo_surface_status(surface)));
        lib->p_cairo_surface_destroy(surface);
        return 0;
    }
    cairo_t *cr = lib->p_cairo_create(surface);
    RsvgRectangle viewport = { 0, 0, width, height };
    GError *error = NULL;
    gboolean ok = lib->p_rsvg_handle_render_document(svg->handle, cr, &viewport, &error);
    lib->p_cairo_destroy(cr);
    if (!ok) {
        copy_message(message, message_size, "", error);
        lib->p_cairo_surface_destroy(surface);
        return 0;
    }
    lib->p_cairo_surface_flush(surface);
    // cairo's ARGB32 is premultiplied, one native-endian 32-bit word a pixel.
    const unsigned char *src = lib->p_cairo_image_surface_get_data(surface);
    int stride = lib->p_cairo_image_surface_get_stride(surface);
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(src + (size_t)y * stride);
        uint8_t *out = dst + (size_t)y * width * 4;
        for (int x = 0; x < width; x++) {
            uint32_t p = row[x];
            out[x * 4] = (p >> 16) & 0xFF;
            out[x * 4 + 1] = (p >> 8) & 0xFF;
            out[x * 4 + 2] = p & 0xFF;
            out[x * 4 + 3] = p >> 24;
        }
    }
    lib->p_cairo_surface_destroy(surface);
    return 1;
}

void tp_svg_close(tp_svg *svg) {
    if (svg == NULL) return;
    lib->p_g_object_unref(svg->handle);
    free(svg);
}
