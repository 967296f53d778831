// librsvg's and cairo's public headers, for the C shim in CTerrapinSVG. Swift code never imports this.
#include <librsvg/rsvg.h>
#include <cairo.h>
