// The library's version (zeno/version.h), set by the build (meson.build).
#include "zeno/version.h"

#ifndef ZENO_VERSION
#define ZENO_VERSION "unknown"
#endif

const char *zeno_version(void) { return ZENO_VERSION; }
