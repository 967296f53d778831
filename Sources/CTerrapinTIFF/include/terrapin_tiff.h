// The C side of Terrapin's GeoTIFF reader: the only code that calls libtiff.
//
// libtiff reports errors through handler callbacks: the handlers here (per open file, libtiff
// 4.5's TIFFOpenOptions) copy the first message into the reader, so errors come back as a 0
// return and a message; no callback calls into Swift. The GeoTIFF tags (pixel scale, tie
// point, geokeys, GDAL's nodata) are registered with libtiff so they read as typed fields.
#ifndef TERRAPIN_TIFF_H
#define TERRAPIN_TIFF_H

#include <stddef.h>
#include <stdint.h>

#define TP_TIFF_MESSAGE_SIZE 256

typedef struct tp_tiff_reader tp_tiff_reader;

typedef struct tp_tiff_info {
    uint32_t width, height;
    uint32_t tile_width, tile_height;   // 0 when striped
    uint16_t samples_per_pixel, bits_per_sample, sample_format, compression, photometric;
    int has_scale, has_tiepoint;
    double scale[3];                    // ModelPixelScale
    double tiepoint[6];                 // ModelTiepoint (I, J, K, X, Y, Z)
    int epsg;                           // from the geokeys: projected or geographic CRS; 0 unknown
    int raster_is_point;                // GTRasterTypeGeoKey == PixelIsPoint
    int has_nodata;
    double nodata;
    int directories;                    // IFDs in the file (full resolution and overviews)
} tp_tiff_info;

/// Opens a TIFF from a file descriptor (duplicated: the caller keeps its own), refusing any
/// single allocation over `max_alloc` bytes. NULL with `message` filled on failure.
tp_tiff_reader *tp_tiff_open(int fd, const char *name, size_t max_alloc, char *message, size_t message_size);
const char *tp_tiff_message(const tp_tiff_reader *reader);
int tp_tiff_read_info(tp_tiff_reader *reader, tp_tiff_info *info);
/// The whole first image as opaque-or-alpha RGBA8 rows, top row first (any compression and
/// photometric libtiff's RGBA interface reads). `dst` holds width × height × 4 bytes.
int tp_tiff_read_rgba(tp_tiff_reader *reader, uint8_t *dst);
/// The first image's first sample as floats, top row first (8/16/32-bit integers, signed or
/// not, 32/64-bit floats; tiled or striped). `dst` holds width × height floats.
int tp_tiff_read_samples(tp_tiff_reader *reader, float *dst);
/// One image (IFD) of the file: its size, its blocks (tiles, or strips the width of the image),
/// and its NewSubfileType (bit 0: a reduced-resolution overview; bit 2: a transparency mask).
typedef struct tp_tiff_level {
    uint32_t width, height;
    uint32_t block_width, block_height;
    uint32_t subfile_type;
} tp_tiff_level;
int tp_tiff_level_info(tp_tiff_reader *reader, int directory, tp_tiff_level *level);
/// The rectangle (x, y, width, height) of image `directory` as RGBA8 rows, top row first, into
/// `dst` (width × height × 4 bytes); the rectangle must lie inside the image.
int tp_tiff_read_rgba_region(tp_tiff_reader *reader, int directory, uint32_t x, uint32_t y, uint32_t width, uint32_t height, uint8_t *dst);
void tp_tiff_close(tp_tiff_reader *reader);

#endif
