/// @file api.h
/// ZENO_API marks the declarations the shared library exports. libzeno is
/// built with hidden symbol visibility, so everything else (the layers'
/// private helpers) stays inside it; programs see only the public API.
#ifndef ZENO_API_H
#define ZENO_API_H

#if defined(__GNUC__) || defined(__clang__)
#define ZENO_API __attribute__((visibility("default")))
#else
#define ZENO_API
#endif

#endif
