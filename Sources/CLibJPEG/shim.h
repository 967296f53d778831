// libjpeg-turbo's public header, for the C shim in CTerrapinJPEG. Swift code never imports this.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
