// libbrotlidec, for brotli-compressed PMTiles (TerrapinCodecs). Errors are return values.
#include <brotli/decode.h>
