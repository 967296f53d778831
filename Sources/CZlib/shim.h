// zlib's public header, for gzip and zlib streams inside tile archives (TerrapinCodecs).
#include <zlib.h>
