// The C side of Terrapin's JPEG codec: the only code that calls libjpeg(-turbo).
//
// libjpeg reports errors by longjmp from its error manager. Every function here that calls
// libjpeg owns its own setjmp, so a longjmp never crosses a Swift frame: errors come back as a
// 0 return and a NUL-terminated message. Warnings (corrupt data libjpeg would paper over) are
// errors too. No libjpeg callback ever calls into Swift.
#ifndef TERRAPIN_JPEG_H
#define TERRAPIN_JPEG_H

#include <stddef.h>
#include <stdint.h>

#define TP_JPEG_MESSAGE_SIZE 200

typedef struct tp_jpeg_reader tp_jpeg_reader;

typedef struct tp_jpeg_header {
    uint32_t width;
    uint32_t height;
    int components;    // 1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK
    int progressive;   // 1 for progressive (multi-scan) JPEG
    int cmyk;          // 1 when the image is CMYK or YCCK
} tp_jpeg_header;

/// Starts reading a JPEG held in memory (not copied: `data` must outlive the reader), with at
/// most `max_scans` scans (progressive files can carry thousands, each a full pass).
/// Returns NULL only when memory runs out.
tp_jpeg_reader *tp_jpeg_reader_create(const uint8_t *data, size_t size, int max_scans);
const char *tp_jpeg_reader_message(const tp_jpeg_reader *reader);
/// Reads the markers up to the first scan. Allocates nothing proportional to the image.
int tp_jpeg_reader_read_header(tp_jpeg_reader *reader, tp_jpeg_header *header);
/// Decodes into opaque RGBA8 rows (height rows of `stride` bytes, stride >= width * 4).
/// CMYK (Adobe's inverted form, as Photoshop writes it) is converted to RGB.
int tp_jpeg_reader_read_rgba8(tp_jpeg_reader *reader, uint8_t *dst, size_t stride);
void tp_jpeg_reader_destroy(tp_jpeg_reader *reader);

/// Encodes RGB8 rows (`stride` bytes apart) as a baseline JPEG, 4:2:0 below quality 90 and
/// 4:4:4 from 90, optimised Huffman tables. `*out` is malloc'd: free it with tp_jpeg_free
/// (also after a failure).
int tp_jpeg_encode_rgb(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int quality,
                       uint8_t **out, size_t *out_size, char *message, size_t message_size);
void tp_jpeg_free(void *pointer);

#endif
