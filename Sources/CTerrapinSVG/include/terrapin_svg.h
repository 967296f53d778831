// The C side of Terrapin's SVG rasteriser: the only code that calls librsvg and cairo, which it
// loads when the first SVG is opened.
//
// librsvg reports errors as GError values: they are copied into the caller's message buffer
// and freed here, so Swift sees a status and a message, never a GLib type. Documents are
// parsed from memory with no base file, so librsvg loads no external resource (images, CSS,
// fonts by URL): an SVG icon draws only what it contains.
#ifndef TERRAPIN_SVG_H
#define TERRAPIN_SVG_H

#include <stddef.h>
#include <stdint.h>

#define TP_SVG_MESSAGE_SIZE 256

typedef struct tp_svg tp_svg;

/// Loads librsvg (once per process, whichever thread asks first; not linked). 1 when it is
/// loaded; 0 with `message` saying why not. tp_svg_open calls it too.
int tp_svg_load(char *message, size_t message_size);

/// Parses an SVG document. NULL with `message` filled on failure. `width` and `height` receive
/// its intrinsic size in CSS pixels (its width and height, else its viewBox); 0 when it has
/// neither.
tp_svg *tp_svg_open(const uint8_t *data, size_t length, double *width, double *height, char *message, size_t message_size);
/// Draws the document scaled to fit `width` × `height` pixels (aspect ratio kept, centred) into
/// `dst`: premultiplied RGBA8, `width × 4` bytes a row. 1 on success, 0 with `message` filled.
int tp_svg_render(tp_svg *svg, int width, int height, uint8_t *dst, char *message, size_t message_size);
void tp_svg_close(tp_svg *svg);

#endif
