// See terrapin_png.h: setjmp lives here so libpng's longjmp never crosses Swift frames.
#include "terrapin_png.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// First member of every context handed to libpng as its error pointer.
typedef struct tp_error_context {
    char message[TP_PNG_MESSAGE_SIZE];
} tp_error_context;

static void tp_on_error(png_structp png, png_const_charp message) {
    tp_error_context *context = (tp_error_context *)png_get_error_ptr(png);
    if (context != NULL) {
        snprintf(context->message, sizeof context->message, "%s", message ? message : "unknown libpng error");
    }
    png_longjmp(png, 1);
}

static void tp_on_warning(png_structp png, png_const_charp message) {
    // Warnings (e.g. a bad CRC on an ancillary chunk, which libpng then discards) are not fatal.
    (void)png;
    (void)message;
}

// MARK: - Reading

struct tp_png_reader {
    tp_error_context error;  // must stay first
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t position;
};

static void tp_read_bytes(png_structp png, png_bytep out, size_t length) {
    tp_png_reader *reader = (tp_png_reader *)png_get_io_ptr(png);
    if (length > reader->size - reader->position) {
        png_error(png, "unexpected end of file (the PNG is truncated)");
    }
    memcpy(out, reader->data + reader->position, length);
    reader->position += length;
}

tp_png_reader *tp_png_reader_create(const uint8_t *data, size_t size) {
    tp_png_reader *reader = (tp_png_reader *)calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    reader->data = data;
    reader->size = size;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->error, tp_on_error, tp_on_warning);
    if (reader->png == NULL) {
        free(reader);
        return NULL;
    }
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL) {
        png_destroy_read_struct(&reader->png, NULL, NULL);
        free(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, reader, tp_read_bytes);
    // Ancillary chunks (text, ICC profiles) may not make libpng allocate without bound.
    png_set_chunk_malloc_max(reader->png, 8u << 20);
    png_set_chunk_cache_max(reader->png, 1000);
    return reader;
}

const char *tp_png_reader_message(const tp_png_reader *reader) {
    return reader->error.message;
}

int tp_png_reader_read_header(tp_png_reader *reader, tp_png_header *header) {
    if (setjmp(png_jmpbuf(reader->png))) return 0;
    png_read_info(reader->png, reader->info);
    header->width = png_get_image_width(reader->png, reader->info);
    header->height = png_get_image_height(reader->png, reader->info);
    header->bit_depth = png_get_bit_depth(reader->png, reader->info);
    header->color_type = png_get_color_type(reader->png, reader->info);
    header->interlaced = png_get_interlace_type(reader->png, reader->info) == PNG_INTERLACE_ADAM7;
    header->has_trns = png_get_valid(reader->png, reader->info, PNG_INFO_tRNS) != 0;
    return 1;
}

int tp_png_reader_read_rgba8(tp_png_reader *reader, uint8_t *dst, size_t stride) {
    png_structp png = reader->png;
    png_infop info = reader->info;
    if (setjmp(png_jmpbuf(png))) return 0;

    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);

    // Every colour type and depth becomes 8-bit RGBA. Colour-space chunks (gAMA, cHRM,
    // sRGB, iCCP) are deliberately not applied: samples are taken as sRGB values.
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);  // round(v * 255 / 65535)
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "internal: unexpected row size after transformation to RGBA");
    }
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < height; y++) {
            png_read_row(png, dst + (size_t)y * stride, NULL);
        }
    }
    png_read_end(png, NULL);
    return 1;
}

void tp_png_reader_destroy(tp_png_reader *reader) {
    if (reader == NULL) return;
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader);
}

// MARK: - Writing

typedef struct tp_writer_context {
    tp_error_context error;  // must stay first
    tp_png_buffer *buffer;
} tp_writer_context;

static void tp_write_bytes(png_structp png, png_bytep bytes, size_t length) {
    tp_writer_context *context = (tp_writer_context *)png_get_io_ptr(png);
    tp_png_buffer *buffer = context->buffer;
    if (length > buffer->capacity - buffer->size) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (length > capacity - buffer->size) {
            if (capacity > SIZE_MAX / 2) png_error(png, "out of memory");
            capacity *= 2;
        }
        uint8_t *grown = (uint8_t *)realloc(buffer->data, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, length);
    buffer->size += length;
}

static void tp_flush(png_structp png) { (void)png; }

int tp_png_encode(const tp_png_encode_params *params, tp_png_buffer *out,
                  char *message, size_t message_size) {
    tp_writer_context context;
    memset(&context, 0, sizeof context);
    context.buffer = out;
    png_text *texts = NULL;
    if (params->text_count > 0) {
        texts = (png_text *)calloc((size_t)params->text_count, sizeof *texts);
        if (texts == NULL) {
            snprintf(message, message_size, "out of memory");
            return 0;
        }
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, tp_on_error, tp_on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, &info);
        free(texts);
        snprintf(message, message_size, "out of memory");
        return 0;
    }
    if (setjmp(png_jmpbuf(png))) {
        snprintf(message, message_size, "%s", context.error.message);
        png_destroy_write_struct(&png, &info);
        free(texts);
        return 0;
    }
    png_set_write_fn(png, &context, tp_write_bytes, tp_flush);
    png_set_compression_level(png, params->compression_level);
    png_set_compression_strategy(png, params->strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, params->filters);
    png_set_IHDR(png, info, params->width, params->height, 8,
                 params->channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    for (int i = 0; i < params->text_count; i++) {
        texts[i].key = (png_charp)params->texts[i].key;
        texts[i].text = (png_charp)params->texts[i].value;
        texts[i].compression = params->texts[i].international ? PNG_ITXT_COMPRESSION_NONE : PNG_TEXT_COMPRESSION_NONE;
    }
    if (params->text_count > 0) png_set_text(png, info, texts, params->text_count);
    png_write_info(png, info);
    for (png_uint_32 y = 0; y < params->height; y++) {
        png_write_row(png, (png_const_bytep)(params->pixels + (size_t)y * params->stride));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(texts);
    return 1;
}

void tp_png_buffer_free(tp_png_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}

uint32_t tp_crc32(uint32_t crc, const uint8_t *data, size_t size) {
    while (size > 0) {
        uInt step = size > 0x40000000u ? 0x40000000u : (uInt)size;
        crc = (uint32_t)crc32(crc, data, step);
        data += step;
        size -= step;
    }
    return crc;
}
