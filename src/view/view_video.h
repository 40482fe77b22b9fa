// The MP4 writer (view_mp4.c) is a module of its own, zeno-video.so, that
// the viewer module dlopen()s from its own directory only when a recording
// is named .mp4: FFmpeg's libraries (and the ~100 they load, cairo and a
// CPU-probing codec among them) stay out of every other `view` and
// `replay`. It depends on FFmpeg and libc alone: frames come as 32-bit ARGB
// words in the machine's byte order (SDL's ARGB8888), rows `pitch` bytes
// apart. Built when meson finds libavformat, libavcodec and libswscale.
#ifndef ZENO_VIEW_VIEW_VIDEO_H
#define ZENO_VIEW_VIEW_VIDEO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/// The table's layout; bump on any change.
#define ZENO_VIDEO_MODULE_ABI 2
/// The module's file name and its one exported symbol.
#define ZENO_VIDEO_MODULE_FILE "zeno-video.so"
#define ZENO_VIDEO_MODULE_SYMBOL "zeno_video_module_get"

typedef struct view_mp4 view_mp4;

typedef struct zeno_video_module {
  int abi;              ///< ZENO_VIDEO_MODULE_ABI
  const char *version;  ///< the zeno version it was built with
  /// Starts an MP4 (H.264 by libx264, or MPEG-4 Part 2 where libavcodec
  /// lacks it; yuv420p) for frames of width x height (odd sides lose their
  /// last column or row) at `fps` frames per second, written into `stream`
  /// (the caller's, seekable: the container's index is written at the
  /// end and the media's size patched in front; left open) and named
  /// `path` in messages. NULL with a message.
  view_mp4 *(*create)(FILE *stream, const char *path, int width, int height, int fps, char *message,
                      size_t message_size);
  /// Appends a frame of ARGB words, rows `pitch` bytes apart.
  bool (*frame)(view_mp4 *mp4, const void *argb, int pitch, char *message, size_t message_size);
  /// Flushes the encoder, writes the container's trailer (its index: an MP4
  /// without it does not play) into the stream and frees the writer (false
  /// with a message unless message is NULL); NULL is ignored.
  bool (*close)(view_mp4 *mp4, char *message, size_t message_size);
} zeno_video_module;

/// The exported entry: the table when the module provides ABI `abi`, else
/// NULL.
__attribute__((visibility("default"))) const zeno_video_module *zeno_video_module_get(int abi);

typedef const zeno_video_module *(*zeno_video_module_get_fn)(int abi);

#endif
