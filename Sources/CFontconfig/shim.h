// fontconfig's public header, for TerrapinTypography only.
#include <fontconfig/fontconfig.h>
