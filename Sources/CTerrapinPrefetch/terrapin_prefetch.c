// The prefetch hint is an inline function of the header; this file gives the target a source.
#include "terrapin_prefetch.h"
