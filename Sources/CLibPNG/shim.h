// libpng's public header, for the C shim in CTerrapinPNG. Swift code never imports this module.
#include <png.h>
