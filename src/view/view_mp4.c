// The video module zeno-video.so (view_video.h): MP4 with Debian's FFmpeg
// libraries (libavformat, libavcodec, libswscale): H.264 (libx264 when the
// build of libavcodec has it, else FFmpeg's own MPEG-4 Part 2 encoder) in
// an MP4 container, one frame per canvas, a constant frame rate, yuv420p
// (what players expect). yuv420p needs even sides: an odd width or height
// loses its last column or row.
//
// The bytes go to a stream the caller owns (view_record.c: a file written
// aside and renamed into place) through an I/O context of our own: FFmpeg's
// file protocol would open the final name and leave half a video there.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

#include "view/view_video.h"

/// libx264's constant rate factor: 18 is visually lossless for the
/// viewer's flat colours and thin lines (0 lossless, 51 worst, 23 the
/// default).
#define X264_CRF "18"
/// MPEG-4 Part 2 fallback: a fixed quantiser, 2 the finest but one (1..31).
#define MPEG4_QSCALE 2
/// Bytes FFmpeg gathers before it hands them to the stream (its own file
/// protocol's buffer size).
#define IO_BUFFER_SIZE 32768

// FFmpeg 7 (libavformat 61) passes the bytes to write as const.
#if LIBAVFORMAT_VERSION_MAJOR >= 61
typedef const uint8_t io_bytes;
#else
typedef uint8_t io_bytes;
#endif

struct view_mp4 {
  FILE *file;        ///< the caller's stream, where the bytes go
  const char *path;  ///< its name in messages (the caller's)
  AVFormatContext *format;
  AVCodecContext *codec;
  AVStream *stream;
  struct SwsContext *scale;
  AVFrame *frame;
  AVPacket *packet;
  int width, height;  ///< encoded (even) sides
  long frames;
  bool header_written;
};

static bool av_fail(char *message, size_t size, const char *what, const char *path, int code) {
  char reason[AV_ERROR_MAX_STRING_SIZE] = "";
  if (code < 0) av_strerror(code, reason, sizeof reason);
  snprintf(message, size, "cannot write '%s': %s%s%s", path, what, reason[0] ? ": " : "", reason);
  return false;
}

static void mp4_free(view_mp4 *m) {
  if (m == NULL) return;
  sws_freeContext(m->scale);
  av_frame_free(&m->frame);
  av_packet_free(&m->packet);
  avcodec_free_context(&m->codec);
  if (m->format) {
    if (m->format->pb) {
      av_freep(&m->format->pb->buffer);
      avio_context_free(&m->format->pb);
    }
    avformat_free_context(m->format);
  }
  free(m);
}

// The I/O context's writer: FFmpeg's buffer into the stream; a short write
// (a full disk) is the errno's error, which the muxer reports.
static int write_out(void *opaque, io_bytes *bytes, int length) {
  view_mp4 *m = opaque;
  if (fwrite(bytes, 1, (size_t)length, m->file) == (size_t)length) return length;
  return AVERROR(errno ? errno : EIO);
}

// The I/O context's seek (the MP4 muxer patches the media's size in front
// at the end); AVSEEK_SIZE asks for the stream's size.
static int64_t seek_to(void *opaque, int64_t offset, int whence) {
  view_mp4 *m = opaque;
  if (whence & AVSEEK_SIZE) {
    const off_t here = ftello(m->file);
    if (here < 0 || fseeko(m->file, 0, SEEK_END) != 0) return AVERROR(errno);
    const off_t size = ftello(m->file);
    if (fseeko(m->file, here, SEEK_SET) != 0) return AVERROR(errno);
    return size;
  }
  if (fseeko(m->file, (off_t)offset, whence & ~AVSEEK_FORCE) != 0) return AVERROR(errno);
  return ftello(m->file);
}

// The muxer's output: our I/O context over the stream.
static bool open_io(view_mp4 *m) {
  unsigned char *buffer = av_malloc(IO_BUFFER_SIZE);
  if (buffer == NULL) return false;
  m->format->pb = avio_alloc_context(buffer, IO_BUFFER_SIZE, 1, m, NULL, write_out, seek_to);
  if (m->format->pb == NULL) {
    av_free(buffer);
    return false;
  }
  m->format->flags |= AVFMT_FLAG_CUSTOM_IO;
  return true;
}

// The encoder: H.264 by libx264 when present, else MPEG-4 Part 2.
static const AVCodec *find_encoder(void) {
  const AVCodec *c = avcodec_find_encoder_by_name("libx264");
  return c ? c : avcodec_find_encoder(AV_CODEC_ID_MPEG4);
}

static bool open_codec(view_mp4 *m, const AVCodec *c, int fps, const char *path, char *message,
                       size_t size) {
  m->codec = avcodec_alloc_context3(c);
  if (m->codec == NULL) return av_fail(message, size, "out of memory", path, 0);
  m->codec->width = m->width;
  m->codec->height = m->height;
  m->codec->time_base = (AVRational){1, fps};
  m->codec->framerate = (AVRational){fps, 1};
  m->codec->pix_fmt = AV_PIX_FMT_YUV420P;
  m->codec->gop_size = fps;  // a key frame every second: seeking
  // One thread: the same frames give the same file.
  m->codec->thread_count = 1;
  if (strcmp(c->name, "libx264") == 0) {
    av_opt_set(m->codec->priv_data, "crf", X264_CRF, 0);
    av_opt_set(m->codec->priv_data, "preset", "medium", 0);
  } else {
    m->codec->flags |= AV_CODEC_FLAG_QSCALE;
    m->codec->global_quality = FF_QP2LAMBDA * MPEG4_QSCALE;
  }
  if (m->format->oformat->flags & AVFMT_GLOBALHEADER)
    m->codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  int code = avcodec_open2(m->codec, c, NULL);
  if (code < 0) return av_fail(message, size, "cannot start the video encoder", path, code);
  code = avcodec_parameters_from_context(m->stream->codecpar, m->codec);
  if (code < 0) return av_fail(message, size, "cannot set the stream", path, code);
  m->stream->time_base = m->codec->time_base;
  return true;
}

static view_mp4 *mp4_create(FILE *stream, const char *path, int width, int height, int fps,
                            char *message, size_t size) {
  // FFmpeg's own notes (encoder statistics) would fill the terminal.
  av_log_set_level(AV_LOG_ERROR);
  view_mp4 *m = calloc(1, sizeof *m);
  if (m == NULL) return av_fail(message, size, "out of memory", path, 0), NULL;
  m->file = stream;
  m->path = path;
  m->width = width & ~1;
  m->height = height & ~1;
  if (m->width < 2 || m->height < 2) {
    snprintf(message, size, "cannot write '%s': a video needs at least 2x2 pixels", path);
    free(m);
    return NULL;
  }
  const AVCodec *c = find_encoder();
  int code = avformat_alloc_output_context2(&m->format, NULL, "mp4", path);
  bool ok = code >= 0 && m->format != NULL;
  if (!ok) av_fail(message, size, "no MP4 muxer", path, code);
  if (ok && c == NULL) ok = av_fail(message, size, "no H.264 or MPEG-4 encoder", path, 0);
  if (ok && (m->stream = avformat_new_stream(m->format, NULL)) == NULL)
    ok = av_fail(message, size, "out of memory", path, 0);
  ok = ok && open_codec(m, c, fps, path, message, size);
  if (ok) {
    m->frame = av_frame_alloc();
    m->packet = av_packet_alloc();
    m->scale = sws_getContext(m->width, m->height, AV_PIX_FMT_RGB32, m->width, m->height,
                              AV_PIX_FMT_YUV420P, SWS_POINT, NULL, NULL, NULL);
    ok = m->frame && m->packet && m->scale;
    if (!ok) av_fail(message, size, "out of memory", path, 0);
  }
  if (ok) {
    m->frame->format = AV_PIX_FMT_YUV420P;
    m->frame->width = m->width;
    m->frame->height = m->height;
    code = av_frame_get_buffer(m->frame, 0);
    if (code < 0) ok = av_fail(message, size, "out of memory", path, code);
  }
  if (ok && !open_io(m)) ok = av_fail(message, size, "out of memory", path, 0);
  if (ok && (code = avformat_write_header(m->format, NULL)) < 0)
    ok = av_fail(message, size, "cannot write the MP4 header", path, code);
  if (!ok) {
    mp4_free(m);
    return NULL;
  }
  m->header_written = true;
  return m;
}

// Sends a frame (NULL: the end) and writes every packet the encoder gives.
static bool encode(view_mp4 *m, AVFrame *frame, const char *path, char *message, size_t size) {
  int code = avcodec_send_frame(m->codec, frame);
  if (code < 0) return av_fail(message, size, "cannot encode a frame", path, code);
  while ((code = avcodec_receive_packet(m->codec, m->packet)) >= 0) {
    // Every frame lasts 1/fps: without a duration the MP4's edit list would
    // end at the last frame's start and players would drop that frame.
    if (m->packet->duration == 0) m->packet->duration = 1;
    av_packet_rescale_ts(m->packet, m->codec->time_base, m->stream->time_base);
    m->packet->stream_index = m->stream->index;
    code = av_interleaved_write_frame(m->format, m->packet);
    if (code < 0) return av_fail(message, size, "cannot write a frame", path, code);
  }
  if (code != AVERROR(EAGAIN) && code != AVERROR_EOF)
    return av_fail(message, size, "cannot encode a frame", path, code);
  return true;
}

static bool mp4_frame(view_mp4 *m, const void *argb, int pitch, char *message, size_t size) {
  const char *path = m->path;
  int code = av_frame_make_writable(m->frame);
  if (code < 0) return av_fail(message, size, "out of memory", path, code);
  // A 32-bit ARGB word in the machine's byte order is FFmpeg's RGB32.
  const uint8_t *const source[1] = {argb};
  const int pitches[1] = {pitch};
  sws_scale(m->scale, source, pitches, 0, m->height, m->frame->data, m->frame->linesize);
  m->frame->pts = m->frames++;
  return encode(m, m->frame, path, message, size);
}

static bool mp4_close(view_mp4 *m, char *message, size_t size) {
  if (m == NULL) return true;
  char ignored[8];
  if (message == NULL) {
    message = ignored;
    size = sizeof ignored;
  }
  bool ok = encode(m, NULL, m->path, message, size);
  if (m->header_written) {
    const int code = av_write_trailer(m->format);
    if (ok && code < 0) ok = av_fail(message, size, "cannot finish it", m->path, code);
  }
  // The last bytes into the stream, and an error of an earlier write that
  // the muxer did not pass on.
  avio_flush(m->format->pb);
  if (ok && m->format->pb->error < 0)
    ok = av_fail(message, size, "cannot write it", m->path, m->format->pb->error);
  mp4_free(m);
  return ok;
}

static const zeno_video_module TABLE = {
    .abi = ZENO_VIDEO_MODULE_ABI,
    .version = ZENO_VERSION,
    .create = mp4_create,
    .frame = mp4_frame,
    .close = mp4_close,
};

const zeno_video_module *zeno_video_module_get(int abi) {
  return abi == ZENO_VIDEO_MODULE_ABI ? &TABLE : NULL;
}
