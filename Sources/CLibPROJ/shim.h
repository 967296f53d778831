// PROJ's public header (TerrapinTerrain's Reprojection). PROJ reports errors as values (an
// errno per context) and takes no callbacks here, so Swift calls it directly.
#include <proj.h>
