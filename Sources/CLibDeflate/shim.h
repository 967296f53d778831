// libdeflate, the PNG encoder's deflate (TerrapinPNG): whole-buffer compression, errors as
// return values, no callbacks.
#include <libdeflate.h>
