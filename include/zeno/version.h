/// @file version.h
/// The library's version.
#ifndef ZENO_VERSION_H
#define ZENO_VERSION_H

#include "zeno/api.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Library version string, e.g. "0.1.0".
ZENO_API const char *zeno_version(void);

#ifdef __cplusplus
}
#endif
#endif
