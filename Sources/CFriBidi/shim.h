// GNU FriBidi (the Unicode Bidirectional Algorithm), for TerrapinTypography only.
#include <fribidi.h>
