// The few types and functions of librsvg, cairo and GLib that terrapin_svg.c uses, declared as
// their own headers declare them: the shim loads these libraries when the first SVG is opened
// instead of linking them (about twenty libraries, some 5 ms of every process's start), and
// their headers, outside the default include path, would bring the link back with pkg-config.
//
// Checked against the real headers: compiled with TERRAPIN_SVG_CHECK after <librsvg/rsvg.h>
// and <cairo.h> (SVGDeclarationTests, in `make test`), each prototype below must agree with the
// library's own declaration, and each struct's size and field offsets and each constant with
// the library's.
#ifndef TERRAPIN_RSVG_DECLARATIONS_H
#define TERRAPIN_RSVG_DECLARATIONS_H
#include <stddef.h>
#include <stdint.h>

#define TP_GERROR_FIELDS uint32_t domain; int code; char *message;
#define TP_RSVG_RECTANGLE_FIELDS double x; double y; double width; double height;
#define TP_RSVG_LENGTH_FIELDS double length; int unit;
#define TP_CAIRO_FORMAT_ARGB32 0
#define TP_CAIRO_STATUS_SUCCESS 0

#ifndef TERRAPIN_SVG_CHECK
typedef int gboolean;
typedef double gdouble;
typedef unsigned char guint8;
typedef size_t gsize;
typedef void *gpointer;
typedef char gchar;
typedef struct _GError { TP_GERROR_FIELDS } GError;
typedef struct _RsvgHandle RsvgHandle;
typedef struct { TP_RSVG_RECTANGLE_FIELDS } RsvgRectangle;
typedef struct { TP_RSVG_LENGTH_FIELDS } RsvgLength;
typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;
typedef int cairo_format_t;
typedef int cairo_status_t;
#else
struct tp_check_GError { TP_GERROR_FIELDS };
struct tp_check_RsvgRectangle { TP_RSVG_RECTANGLE_FIELDS };
struct tp_check_RsvgLength { TP_RSVG_LENGTH_FIELDS };
_Static_assert(sizeof(struct tp_check_GError) == sizeof(GError) && offsetof(struct tp_check_GError, domain) == offsetof(GError, domain)
               && offsetof(struct tp_check_GError, code) == offsetof(GError, code) && offsetof(struct tp_check_GError, message) == offsetof(GError, message), "GError");
_Static_assert(sizeof(struct tp_check_RsvgRectangle) == sizeof(RsvgRectangle) && offsetof(struct tp_check_RsvgRectangle, height) == offsetof(RsvgRectangle, height), "RsvgRectangle");
_Static_assert(sizeof(struct tp_check_RsvgLength) == sizeof(RsvgLength) && offsetof(struct tp_check_RsvgLength, unit) == offsetof(RsvgLength, unit)
               && sizeof(((RsvgLength *)0)->unit) == sizeof(int), "RsvgLength");
_Static_assert(TP_CAIRO_FORMAT_ARGB32 == CAIRO_FORMAT_ARGB32 && TP_CAIRO_STATUS_SUCCESS == CAIRO_STATUS_SUCCESS, "cairo constants");
_Static_assert(sizeof(cairo_format_t) == sizeof(int) && sizeof(cairo_status_t) == sizeof(int), "cairo enums");
#endif

// librsvg 2.52 and later
RsvgHandle *rsvg_handle_new_from_data(const guint8 *data, gsize data_len, GError **error);
gboolean rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, gdouble *out_width, gdouble *out_height);
void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle, gboolean *out_has_width, RsvgLength *out_width, gboolean *out_has_height,
                                          RsvgLength *out_height, gboolean *out_has_viewbox, RsvgRectangle *out_viewbox);
gboolean rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);
// GLib
void g_error_free(GError *error);
void g_object_unref(gpointer object);
// cairo
cairo_surface_t *cairo_image_surface_create(cairo_format_t format, int width, int height);
cairo_status_t cairo_surface_status(cairo_surface_t *surface);
const char *cairo_status_to_string(cairo_status_t status);
void cairo_surface_destroy(cairo_surface_t *surface);
cairo_t *cairo_create(cairo_surface_t *target);
void cairo_destroy(cairo_t *cr);
void cairo_surface_flush(cairo_surface_t *surface);
unsigned char *cairo_image_surface_get_data(cairo_surface_t *surface);
int cairo_image_surface_get_stride(cairo_surface_t *surface);
#endif
