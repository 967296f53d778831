// libwebp's decoder, encoder and animation encoder headers (TerrapinCodecs). libwebp reports
// errors as return values and never longjmps, so Swift calls it directly.
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/mux.h>
