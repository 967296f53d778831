// See terrapin_jpeg.h: every libjpeg call is guarded by this file's setjmp.
#include "terrapin_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

typedef struct tp_jpeg_error {
    struct jpeg_error_mgr mgr;   // first: libjpeg casts the pointer back
    jmp_buf jump;
    char message[TP_JPEG_MESSAGE_SIZE];
} tp_jpeg_error;

typedef struct tp_jpeg_progress {
    struct jpeg_progress_mgr mgr;  // first: libjpeg casts the pointer back
    int max_scans;
} tp_jpeg_progress;

struct tp_jpeg_reader {
    struct jpeg_decompress_struct info;
    tp_jpeg_error error;
    tp_jpeg_progress progress;
    const uint8_t *data;
    size_t size;
    int created;
};

static void tp_error_exit(j_common_ptr info) {
    tp_jpeg_error *error = (tp_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

// A warning (level -1) means corrupt data libjpeg would fill in: fail instead.
static void tp_emit_message(j_common_ptr info, int level) {
    if (level < 0) tp_error_exit(info);
}

static void tp_output_message(j_common_ptr info) { (void)info; }

static void tp_progress(j_common_ptr info) {
    tp_jpeg_progress *progress = (tp_jpeg_progress *)info->progress;
    if (info->is_decompressor) {
        j_decompress_ptr d = (j_decompress_ptr)info;
        if (d->input_scan_number > progress->max_scans) {
            tp_jpeg_error *error = (tp_jpeg_error *)info->err;
            snprintf(error->message, sizeof error->message, "more than %d scans", progress->max_scans);
            longjmp(error->jump, 1);
        }
    }
}

static void tp_install_errors(struct jpeg_error_mgr *mgr) {
    jpeg_std_error(mgr);
    mgr->error_exit = tp_error_exit;
    mgr->emit_message = tp_emit_message;
    mgr->output_message = tp_output_message;
}

tp_jpeg_reader *tp_jpeg_reader_create(const uint8_t *data, size_t size, int max_scans) {
    tp_jpeg_reader *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    reader->data = data;
    reader->size = size;
    reader->progress.max_scans = max_scans > 0 ? max_scans : 1;
    reader->progress.mgr.progress_monitor = tp_progress;
    reader->info.err = &reader->error.mgr;
    tp_install_errors(&reader->error.mgr);
    if (setjmp(reader->error.jump)) {
        jpeg_destroy_decompress(&reader->info);
        free(reader);
        return NULL;
    }
    jpeg_create_decompress(&reader->info);
    reader->created = 1;
    reader->info.progress = &reader->progress.mgr;
    return reader;
}

const char *tp_jpeg_reader_message(const tp_jpeg_reader *reader) { return reader->error.message; }

int tp_jpeg_reader_read_header(tp_jpeg_reader *reader, tp_jpeg_header *header) {
    if (setjmp(reader->error.jump)) return 0;
    if (reader->size > (size_t)0xFFFFFFFFu) {
        snprintf(reader->error.message, sizeof reader->error.message, "larger than 4 GiB");
        return 0;
    }
    jpeg_mem_src(&reader->info, reader->data, (unsigned long)reader->size);
    if (jpeg_read_header(&reader->info, TRUE) != JPEG_HEADER_OK) {
        snprintf(reader->error.message, sizeof reader->error.message, "no image in the file (tables only)");
        return 0;
    }
    header->width = reader->info.image_width;
    header->height = reader->info.image_height;
    header->components = reader->info.num_components;
    header->progressive = reader->info.progressive_mode ? 1 : 0;
    header->cmyk = (reader->info.jpeg_color_space == JCS_CMYK || reader->info.jpeg_color_space == JCS_YCCK) ? 1 : 0;
    return 1;
}

int tp_jpeg_reader_read_rgba8(tp_jpeg_reader *reader, uint8_t *dst, size_t stride) {
    if (setjmp(reader->error.jump)) return 0;
    struct jpeg_decompress_struct *info = &reader->info;
    int cmyk = info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK;
    int gray = info->jpeg_color_space == JCS_GRAYSCALE;
    info->out_color_space = cmyk ? JCS_CMYK : (gray ? JCS_GRAYSCALE : JCS_EXT_RGBA);
    info->dct_method = JDCT_ISLOW;   // the exact IDCT: same pixels on every machine
    info->do_fancy_upsampling = TRUE;
    jpeg_start_decompress(info);
    const uint32_t width = info->output_width;
    while (info->output_scanline < info->output_height) {
        uint8_t *row = dst + (size_t)info->output_scanline * stride;
        JSAMPROW rows[1] = { row };
        if (jpeg_read_scanlines(info, rows, 1) != 1) {
            snprintf(reader->error.message, sizeof reader->error.message, "the image data ends early");
            return 0;
        }
        if (cmyk || gray) {
            // Expand in place from the right, so no sample is overwritten before it is read.
            for (uint32_t x = width; x-- > 0;) {
                uint8_t r, g, b;
                if (cmyk) {
                    // Adobe writes inverted CMYK: each byte is 255 - ink; RGB = (255-ink)(255-K)/255.
                    unsigned c = row[x * 4], m = row[x * 4 + 1], y = row[x * 4 + 2], k = row[x * 4 + 3];
                    if (!info->saw_Adobe_marker) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                    r = (uint8_t)((c * k + 127) / 255);
                    g = (uint8_t)((m * k + 127) / 255);
                    b = (uint8_t)((y * k + 127) / 255);
                } else {
                    r = g = b = row[x];
                }
                row[x * 4] = r; row[x * 4 + 1] = g; row[x * 4 + 2] = b; row[x * 4 + 3] = 255;
            }
        }
    }
    jpeg_finish_decompress(info);
    return 1;
}

void tp_jpeg_reader_destroy(tp_jpeg_reader *reader) {
    if (!reader) return;
    if (reader->created) jpeg_destroy_decompress(&reader->info);
    free(reader);
}

int tp_jpeg_encode_rgb(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int quality,
                       uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    struct jpeg_compress_struct info;
    tp_jpeg_error error;
    memset(&info, 0, sizeof info);
    memset(&error, 0, sizeof error);
    *out = NULL;
    *out_size = 0;
    unsigned long size = 0;
    unsigned char *buffer = NULL;
    info.err = &error.mgr;
    tp_install_errors(&error.mgr);
    if (setjmp(error.jump)) {
        snprintf(message, message_size, "%s", error.message);
        jpeg_destroy_compress(&info);
        *out = buffer;   // freed by the caller through tp_jpeg_free
        return 0;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &buffer, &size);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    info.optimize_coding = TRUE;
    info.dct_method = JDCT_ISLOW;
    if (quality >= 90) {
        for (int i = 0; i < info.num_components; i++) { info.comp_info[i].h_samp_factor = 1; info.comp_info[i].v_samp_factor = 1; }
    }
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < height) {
        JSAMPROW rows[1] = { (JSAMPROW)(pixels + (size_t)info.next_scanline * stride) };
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *out = buffer;
    *out_size = size;
    return 1;
}

void tp_jpeg_free(void *pointer) { free(pointer); }
