// HarfBuzz's public header, for TerrapinTypography only.
#include <hb.h>
#include <hb-ot.h>
