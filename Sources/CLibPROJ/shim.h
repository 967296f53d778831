// PROJ's public header, for the loader in CTerrapinPROJ (which gives Reprojection PROJ's
// functions once it has loaded the library). Swift code never imports this.
#include <proj.h>
