// PROJ, loaded when a scene first needs it: TerrapinTerrainData's Reprojection (a GeoTIFF in a
// projected CRS) is the only user, and linking PROJ would load it, libcurl, libtiff, SQLite
// and some forty libraries in all into every process at start. PROJ reports errors as values
// (an errno per context) and takes no callbacks here, so Swift calls its functions itself,
// through this table; their types are proj.h's own.
#ifndef TERRAPIN_PROJ_H
#define TERRAPIN_PROJ_H
#include <proj.h>

typedef struct terrapin_proj_functions {
    __typeof__(&proj_context_create) _Nonnull context_create;
    __typeof__(&proj_context_destroy) _Nonnull context_destroy;
    __typeof__(&proj_log_level) _Nonnull log_level;
    __typeof__(&proj_context_errno) _Nonnull context_errno;
    __typeof__(&proj_context_errno_string) _Nonnull context_errno_string;
    __typeof__(&proj_create_crs_to_crs) _Nonnull create_crs_to_crs;
    __typeof__(&proj_normalize_for_visualization) _Nonnull normalize_for_visualization;
    __typeof__(&proj_destroy) _Nonnull destroy;
    __typeof__(&proj_trans_generic) _Nonnull trans_generic;
} terrapin_proj_functions;

/// PROJ's functions, the library loaded on the first call (once per process, whichever thread
/// asks first); NULL when it cannot be loaded, and terrapin_proj_load_error says why.
const terrapin_proj_functions *_Nullable terrapin_proj(void);
const char *_Nonnull terrapin_proj_load_error(void);
#endif
