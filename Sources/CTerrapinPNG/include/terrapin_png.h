// The C side of Terrapin's PNG codec: the only code that calls libpng.
//
// libpng reports errors by longjmp. Every function here that calls libpng owns its own
// setjmp, so a longjmp never crosses a Swift frame: errors come back as a 0 return and a
// NUL-terminated message. No libpng callback ever calls into Swift.
#ifndef TERRAPIN_PNG_H
#define TERRAPIN_PNG_H

#include <stddef.h>
#include <stdint.h>

#define TP_PNG_MESSAGE_SIZE 256

typedef struct tp_png_reader tp_png_reader;

typedef struct tp_png_header {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;   // PNG colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
    int interlaced;   // 1 for Adam7
    int has_trns;
} tp_png_header;

/// Starts reading a PNG held in memory (not copied: `data` must outlive the reader).
/// Returns NULL only when memory runs out.
tp_png_reader *tp_png_reader_create(const uint8_t *data, size_t size);
/// The last error message, or "" when none.
const char *tp_png_reader_message(const tp_png_reader *reader);
/// Reads every chunk up to the first IDAT. Allocates nothing proportional to the image.
int tp_png_reader_read_header(tp_png_reader *reader, tp_png_header *header);
/// Decodes the image as 8-bit straight-alpha RGBA rows into `dst` (height rows of `stride`
/// bytes, stride >= width * 4), then reads and checks everything up to IEND.
int tp_png_reader_read_rgba8(tp_png_reader *reader, uint8_t *dst, size_t stride);
void tp_png_reader_destroy(tp_png_reader *reader);

typedef struct tp_png_text {
    const char *key;    // 1..79 Latin-1 bytes, checked by the caller
    const char *value;  // NUL-terminated
    int international;  // 1: iTXt (UTF-8), 0: tEXt (Latin-1)
} tp_png_text;

typedef struct tp_png_encode_params {
    const uint8_t *pixels;  // rows of straight-alpha samples
    uint32_t width;
    uint32_t height;
    size_t stride;          // bytes between rows
    int channels;           // 3 (RGB) or 4 (RGBA), 8 bits each
    int compression_level;  // zlib 0..9
    int filters;            // libpng PNG_FILTER_* mask
    int strategy;           // zlib strategy (0 default, 1 filtered, 3 RLE)
    const tp_png_text *texts;
    int text_count;
} tp_png_encode_params;

typedef struct tp_png_buffer {
    uint8_t *data;
    size_t size;
    size_t capacity;
} tp_png_buffer;

/// Encodes into `out` (malloc'd; free with tp_png_buffer_free, also after a failure).
int tp_png_encode(const tp_png_encode_params *params, tp_png_buffer *out,
                  char *message, size_t message_size);
void tp_png_buffer_free(tp_png_buffer *buffer);

/// zlib's CRC-32 (the PNG chunk checksum), continuing from `crc` (0 to start).
uint32_t tp_crc32(uint32_t crc, const uint8_t *data, size_t size);

#endif
