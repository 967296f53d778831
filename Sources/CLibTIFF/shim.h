// libtiff's public header, for the C shim in CTerrapinTIFF. Swift code never imports this.
#include <tiffio.h>
