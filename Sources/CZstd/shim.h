// libzstd, for zstd-compressed PMTiles (TerrapinCodecs). Errors are return values.
#include <zstd.h>
