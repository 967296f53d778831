// PROJ, loaded when a scene first needs it: TerrapinTerrainData's Reprojection (a GeoTIFF in a
// projected CRS) is the only user, and linking PROJ would load it, libcurl, libtiff, SQLite
// and some forty libraries in all into every process at start. PROJ reports errors as values
// (an errno per context) and takes no callbacks here, so Swift calls its functions itself,
// through this table; their types are proj.h's own.
#ifndef TERRAPIN_PROJ_H
#define TERRAPIN_PROJ_H
#include <proj.h>

/// The table's members (as PROJ names them, without `proj_`) and the functions they hold.
#define TERRAPIN_PROJ_FUNCTIONS(X) X(context_create, proj_context_create) X(context_destroy, proj_context_destroy) \
    X(log_level, proj_log_level) X(context_errno, proj_context_errno) X(context_errno_string, proj_context_errno_string) \
    X(create_crs_to_crs, proj_create_crs_to_crs) X(normalize_for_visualization, proj_normalize_for_visualization) \
    X(destroy, proj_destroy) X(trans_generic, proj_trans_generic)
#define TERRAPIN_PROJ_FIELD(field, name) __typeof__(&name) _Nonnull field;
typedef struct terrapin_proj_functions {
    TERRAPIN_PROJ_FUNCTIONS(TERRAPIN_PROJ_FIELD)
} terrapin_proj_functions;

/// PROJ's functions, the library loaded on the first call (once per process, whichever thread
/// asks first); NULL when it cannot be loaded, and terrapin_proj_load_error says why.
const terrapin_proj_functions *_Nullable terrapin_proj(void);
const char *_Nonnull terrapin_proj_load_error(void);
#endif
