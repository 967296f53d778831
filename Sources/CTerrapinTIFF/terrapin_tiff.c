// See terrapin_tiff.h.
#include "terrapin_tiff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include <tiffio.h>

struct tp_tiff_reader {
    TIFF *tif;
    char message[TP_TIFF_MESSAGE_SIZE];
};

static int tp_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif;
    char *message = user;
    if (message && message[0] == 0) {
        char text[TP_TIFF_MESSAGE_SIZE];
        vsnprintf(text, sizeof text, fmt, ap);
        snprintf(message, TP_TIFF_MESSAGE_SIZE, "%s%s%s", module ? module : "", module ? ": " : "", text);
    }
    return 1;
}

static int tp_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)user; (void)module; (void)fmt; (void)ap;
    return 1;   // warnings (unknown tags, odd values) are not errors
}

// The GeoTIFF tags, so libtiff reads them as typed fields.
static const TIFFFieldInfo tp_geo_fields[] = {
    {33550, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1, "ModelPixelScale"},
    {33922, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1, "ModelTiepoint"},
    {34264, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1, "ModelTransformation"},
    {34735, -1, -1, TIFF_SHORT, FIELD_CUSTOM, 1, 1, "GeoKeyDirectory"},
    {34736, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1, "GeoDoubleParams"},
    {34737, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0, "GeoASCIIParams"},
    {42113, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0, "GDALNoData"},
};

static TIFFExtendProc tp_parent_extender = NULL;
static void tp_extender(TIFF *tif) {
    TIFFMergeFieldInfo(tif, tp_geo_fields, sizeof tp_geo_fields / sizeof tp_geo_fields[0]);
    if (tp_parent_extender) tp_parent_extender(tif);
}
static pthread_once_t tp_extender_once = PTHREAD_ONCE_INIT;
static void tp_install_extender(void) { tp_parent_extender = TIFFSetTagExtender(tp_extender); }

tp_tiff_reader *tp_tiff_open(int fd, const char *name, size_t max_alloc, char *message, size_t message_size) {
    pthread_once(&tp_extender_once, tp_install_extender);
    tp_tiff_reader *reader = calloc(1, sizeof *reader);
    if (!reader) { snprintf(message, message_size, "out of memory"); return NULL; }
    int copy = dup(fd);
    if (copy < 0) { free(reader); snprintf(message, message_size, "cannot duplicate the file descriptor"); return NULL; }
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_alloc);
    TIFFOpenOptionsSetErrorHandlerExtR(options, tp_error, reader->message);
    TIFFOpenOptionsSetWarningHandlerExtR(options, tp_warning, NULL);
    reader->tif = TIFFFdOpenExt(copy, name, "rm", options);
    TIFFOpenOptionsFree(options);
    if (!reader->tif) {
        close(copy);
        snprintf(message, message_size, "%s", reader->message[0] ? reader->message : "not a TIFF file");
        free(reader);
        return NULL;
    }
    return reader;
}

const char *tp_tiff_message(const tp_tiff_reader *reader) { return reader->message[0] ? reader->message : "unknown libtiff error"; }

int tp_tiff_read_info(tp_tiff_reader *reader, tp_tiff_info *info) {
    TIFF *tif = reader->tif;
    memset(info, 0, sizeof *info);
    info->directories = TIFFNumberOfDirectories(tif);
    TIFFSetDirectory(tif, 0);
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &info->width) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &info->height)) {
        snprintf(reader->message, sizeof reader->message, "no image width or height");
        return 0;
    }
    TIFFGetField(tif, TIFFTAG_TILEWIDTH, &info->tile_width);
    TIFFGetField(tif, TIFFTAG_TILELENGTH, &info->tile_height);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &info->samples_per_pixel);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &info->bits_per_sample);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &info->sample_format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &info->compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PHOTOMETRIC, &info->photometric);
    uint32_t count = 0;
    double *values = NULL;
    if (TIFFGetField(tif, 33550, &count, &values) && count >= 2 && values) {
        info->has_scale = 1;
        for (uint32_t i = 0; i < 3 && i < count; i++) info->scale[i] = values[i];
    }
    if (TIFFGetField(tif, 33922, &count, &values) && count >= 6 && values) {
        info->has_tiepoint = 1;
        for (int i = 0; i < 6; i++) info->tiepoint[i] = values[i];
    }
    uint16_t *keys = NULL;
    if (TIFFGetField(tif, 34735, &count, &keys) && count >= 4 && keys) {
        // Header (version, revision, minor, number of keys), then 4 shorts per key.
        uint32_t n = keys[3];
        for (uint32_t k = 0; k < n && 4 + 4 * k + 3 < count; k++) {
            uint16_t id = keys[4 + 4 * k], location = keys[5 + 4 * k], value = keys[7 + 4 * k];
            if (location != 0) continue;   // stored elsewhere: not a code
            if (id == 1025) info->raster_is_point = value == 2;
            if (id == 3072 && value != 32767) info->epsg = value;                    // ProjectedCSTypeGeoKey
            if (id == 2048 && value != 32767 && info->epsg == 0) info->epsg = value; // GeographicTypeGeoKey
        }
    }
    char *nodata = NULL;
    if (TIFFGetField(tif, 42113, &nodata) && nodata) {
        char *end = NULL;
        double v = strtod(nodata, &end);
        if (end != nodata) { info->has_nodata = 1; info->nodata = v; }
    }
    return 1;
}

/* The largest tile or strip read at once: 64 MiB (a 4096² tile of 32-bit floats). A small file
   can declare tiles or strips of gigabytes (huge tile sizes, thousands of samples a pixel), and
   libtiff allocates one before reading it. */
#define TP_MAX_BLOCK_BYTES ((tmsize_t)64 << 20)

static int tp_block_fits(tp_tiff_reader *reader) {
    TIFF *tif = reader->tif;
    tmsize_t size = TIFFIsTiled(tif) ? TIFFTileSize(tif) : TIFFStripSize(tif);
    if (size <= 0) { snprintf(reader->message, sizeof reader->message, "no tile or strip size"); return 0; }
    if (size > TP_MAX_BLOCK_BYTES) {
        snprintf(reader->message, sizeof reader->message, "its %s are %lld bytes each, more than the %lld MiB Terrapin reads at once; "
                 "write it with smaller tiles or strips (gdal_translate -co TILED=YES)", TIFFIsTiled(tif) ? "tiles" : "strips",
                 (long long)size, (long long)(TP_MAX_BLOCK_BYTES >> 20));
        return 0;
    }
    return 1;
}

int tp_tiff_read_rgba(tp_tiff_reader *reader, uint8_t *dst) {
    TIFFSetDirectory(reader->tif, 0);
    if (!tp_block_fits(reader)) return 0;
    uint32_t w = 0, h = 0;
    TIFFGetField(reader->tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(reader->tif, TIFFTAG_IMAGELENGTH, &h);
    if (!TIFFReadRGBAImageOriented(reader->tif, w, h, (uint32_t *)dst, ORIENTATION_TOPLEFT, 1)) {
        if (!reader->message[0]) snprintf(reader->message, sizeof reader->message, "libtiff could not read the image as RGBA");
        return 0;
    }
    return 1;   // ABGR words on a little-endian machine are R, G, B, A bytes
}

static int tp_select(tp_tiff_reader *reader, int directory) {
    if (directory < 0 || directory > 0xFFFF) { snprintf(reader->message, sizeof reader->message, "no image %d", directory); return 0; }
    if (TIFFCurrentDirectory(reader->tif) == (tdir_t)directory) return 1;
    if (!TIFFSetDirectory(reader->tif, (tdir_t)directory)) {
        if (!reader->message[0]) snprintf(reader->message, sizeof reader->message, "image %d cannot be read", directory);
        return 0;
    }
    return 1;
}

int tp_tiff_level_info(tp_tiff_reader *reader, int directory, tp_tiff_level *level) {
    memset(level, 0, sizeof *level);
    if (!tp_select(reader, directory)) return 0;
    TIFF *tif = reader->tif;
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &level->width) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &level->height)) {
        snprintf(reader->message, sizeof reader->message, "image %d has no width or height", directory);
        return 0;
    }
    TIFFGetFieldDefaulted(tif, TIFFTAG_SUBFILETYPE, &level->subfile_type);
    if (TIFFIsTiled(tif)) {
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &level->block_width);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &level->block_height);
    } else {
        uint32_t rows = 0;
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows);
        level->block_width = level->width;
        level->block_height = rows == 0 || rows > level->height ? level->height : rows;
    }
    if (level->block_width == 0 || level->block_height == 0) {
        snprintf(reader->message, sizeof reader->message, "image %d has blocks of %ux%u", directory, level->block_width, level->block_height);
        return 0;
    }
    return tp_block_fits(reader);
}

int tp_tiff_read_rgba_region(tp_tiff_reader *reader, int directory, uint32_t x, uint32_t y, uint32_t width, uint32_t height, uint8_t *dst) {
    if (!tp_select(reader, directory) || !tp_block_fits(reader)) return 0;
    TIFF *tif = reader->tif;
    uint32_t w = 0, h = 0;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h);
    if (width == 0 || height == 0 || x >= w || y >= h || width > w - x || height > h - y) {
        snprintf(reader->message, sizeof reader->message, "the rectangle %u,%u %ux%u is outside the %ux%u image", x, y, width, height, w, h);
        return 0;
    }
    // A block the file leaves out (offset and byte count 0: GDAL's sparse files) is
    // transparent, as GDAL reads it, rather than an error. (The region is one block here.)
    uint32_t block = TIFFIsTiled(tif) ? TIFFComputeTile(tif, x, y, 0, 0) : TIFFComputeStrip(tif, y, 0);
    uint32_t blocks = TIFFIsTiled(tif) ? TIFFNumberOfTiles(tif) : TIFFNumberOfStrips(tif);
    if (block < blocks && TIFFGetStrileByteCount(tif, block) == 0 && TIFFGetStrileOffset(tif, block) == 0) {
        memset(dst, 0, (size_t)width * height * 4);
        return 1;
    }
    char why[1024] = {0};
    TIFFRGBAImage image;
    if (!TIFFRGBAImageOK(tif, why) || !TIFFRGBAImageBegin(&image, tif, 1, why)) {
        if (!reader->message[0]) snprintf(reader->message, sizeof reader->message, "libtiff cannot read it as RGBA: %s", why);
        return 0;
    }
    image.req_orientation = ORIENTATION_TOPLEFT;
    image.row_offset = (int)y;
    image.col_offset = (int)x;
    int ok = TIFFRGBAImageGet(&image, (uint32_t *)dst, width, height);
    TIFFRGBAImageEnd(&image);
    if (!ok && !reader->message[0]) snprintf(reader->message, sizeof reader->message, "a block of image %d cannot be decoded", directory);
    return ok;   // ABGR words on a little-endian machine are R, G, B, A bytes
}

static double tp_sample(const uint8_t *p, int bits, int format) {
    switch (format == SAMPLEFORMAT_IEEEFP ? 100 + bits : (format == SAMPLEFORMAT_INT ? 200 + bits : bits)) {
    case 8: return *p;
    case 16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case 208: return (int8_t)*p;
    case 216: { int16_t v; memcpy(&v, p, 2); return v; }
    case 232: { int32_t v; memcpy(&v, p, 4); return v; }
    case 132: { float v; memcpy(&v, p, 4); return v; }
    case 164: { double v; memcpy(&v, p, 8); return v; }
    default: return 0;
    }
}

int tp_tiff_read_samples(tp_tiff_reader *reader, float *dst) {
    TIFF *tif = reader->tif;
    TIFFSetDirectory(tif, 0);
    uint32_t w = 0, h = 0, tw = 0, th = 0, rows_per_strip = 0;
    uint16_t spp = 1, bits = 8, format = SAMPLEFORMAT_UINT, planar = PLANARCONFIG_CONTIG;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    if (!(bits == 8 || bits == 16 || bits == 32 || (bits == 64 && format == SAMPLEFORMAT_IEEEFP)) || spp < 1) {
        snprintf(reader->message, sizeof reader->message, "%u-bit samples (format %u) are not heights Terrapin reads", bits, format);
        return 0;
    }
    const int bytes = bits / 8;
    const size_t stride = planar == PLANARCONFIG_CONTIG ? (size_t)spp * bytes : (size_t)bytes;
    if (!tp_block_fits(reader)) return 0;
    tmsize_t size = TIFFIsTiled(tif) ? TIFFTileSize(tif) : TIFFStripSize(tif);
    if (TIFFIsTiled(tif)) {
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tw);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &th);
        if (tw == 0 || th == 0) { snprintf(reader->message, sizeof reader->message, "a tile size of %ux%u", tw, th); return 0; }
    }
    uint8_t *buffer = _TIFFmalloc(size);
    if (!buffer) { snprintf(reader->message, sizeof reader->message, "out of memory"); return 0; }
    int ok = 1;
    if (TIFFIsTiled(tif)) {
        for (uint32_t ty = 0; ok && ty < h; ty += th) {
            for (uint32_t tx = 0; ok && tx < w; tx += tw) {
                if (TIFFReadTile(tif, buffer, tx, ty, 0, 0) < 0) { ok = 0; break; }
                for (uint32_t y = 0; y < th && ty + y < h; y++)
                    for (uint32_t x = 0; x < tw && tx + x < w; x++)
                        dst[(size_t)(ty + y) * w + tx + x] = (float)tp_sample(buffer + ((size_t)y * tw + x) * stride, bits, format);
            }
        }
    } else {
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
        if (rows_per_strip == 0 || rows_per_strip > h) rows_per_strip = h;
        for (uint32_t row = 0; ok && row < h; row += rows_per_strip) {
            tstrip_t strip = TIFFComputeStrip(tif, row, 0);
            if (TIFFReadEncodedStrip(tif, strip, buffer, size) < 0) { ok = 0; break; }
            for (uint32_t y = 0; y < rows_per_strip && row + y < h; y++)
                for (uint32_t x = 0; x < w; x++)
                    dst[(size_t)(row + y) * w + x] = (float)tp_sample(buffer + ((size_t)y * w + x) * stride, bits, format);
        }
    }
    _TIFFfree(buffer);
    if (!ok && !reader->message[0]) snprintf(reader->message, sizeof reader->message, "a tile or strip cannot be decoded");
    return ok;
}

void tp_tiff_close(tp_tiff_reader *reader) {
    if (!reader) return;
    if (reader->tif) TIFFClose(reader->tif);
    free(reader);
}
