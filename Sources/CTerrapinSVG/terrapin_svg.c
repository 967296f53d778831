// librsvg behind three calls: open, render, close (see include/terrapin_svg.h).
#include "terrapin_svg.h"

#include <librsvg/rsvg.h>
#include <cairo.h>
#include <stdio.h>
#include <string.h>

struct tp_svg {
    RsvgHandle *handle;
};

static void copy_message(char *message, size_t size, const char *prefix, GError *error) {
    if (message == NULL || size == 0) { if (error) g_error_free(error); return; }
    snprintf(message, size, "%s%s", prefix, error && error->message ? error->message : "unknown error");
    if (error) g_error_free(error);
}

tp_svg *tp_svg_open(const uint8_t *data, size_t length, double *width, double *height, char *message, size_t message_size) {
    *width = 0;
    *height = 0;
    GError *error = NULL;
    RsvgHandle *handle = rsvg_handle_new_from_data(data, length, &error);
    if (handle == NULL) {
        copy_message(message, message_size, "", error);
        return NULL;
    }
    gdouble w = 0, h = 0;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h)) {
        gboolean has_width, has_height, has_viewbox;
        RsvgLength lw, lh;
        RsvgRectangle viewbox;
        rsvg_handle_get_intrinsic_dimensions(handle, &has_width, &lw, &has_height, &lh, &has_viewbox, &viewbox);
        if (has_viewbox) { w = viewbox.width; h = viewbox.height; }
    }
    tp_svg *svg = g_malloc(sizeof(tp_svg));
    svg->handle = handle;
    *width = w;
    *height = h;
    return svg;
}

int tp_svg_render(tp_svg *svg, int width, int height, uint8_t *dst, char *message, size_t message_size) {
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        snprintf(message, message_size, "cairo: %s", cairo_status_to_string(cairo_surface_status(surface)));
        cairo_surface_destroy(surface);
        return 0;
    }
    cairo_t *cr = cairo_create(surface);
    RsvgRectangle viewport = { 0, 0, width, height };
    GError *error = NULL;
    gboolean ok = rsvg_handle_render_document(svg->handle, cr, &viewport, &error);
    cairo_destroy(cr);
    if (!ok) {
        copy_message(message, message_size, "", error);
        cairo_surface_destroy(surface);
        return 0;
    }
    cairo_surface_flush(surface);
    // cairo's ARGB32 is premultiplied, one native-endian 32-bit word a pixel.
    const unsigned char *src = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
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
    cairo_surface_destroy(surface);
    return 1;
}

void tp_svg_close(tp_svg *svg) {
    if (svg == NULL) return;
    g_object_unref(svg->handle);
    g_free(svg);
}
