// SQLite's public header, for MBTiles archives (TerrapinTiles). Read-only, no callbacks.
#include <sqlite3.h>
