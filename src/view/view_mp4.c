// The video module zeno-video.so (view_video.h): MP4 with Debian's FFmpeg
// libraries (libavformat, libavcodec, libswscale): H.264 (libx264 when the
// build of libavcodec has it, else FFmpeg's own MPEG-4 Part 2 encoder) in
// an MP4 container, one frame per canvas, a constant frame rate, yuv420p
// (what players expect). yuv420p needs even sides: an odd width or height
// loses its last column or row.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

struct view_mp4 {
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
    if (m->format->pb) avio_closep(&m->format->pb);
    avformat_free_context(m->format);
  }
  free(m);
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

static view_mp4 *mp4_create(const char *path, int width, int height, int fps, char *message,
                            size_t size) {
  // FFmpeg's own notes (encoder statistics) would fill the terminal.
  av_log_set_level(AV_LOG_ERROR);
  view_mp4 *m = calloc(1, sizeof *m);
  if (m == NULL) return av_fail(message, size, "out of memory", path, 0), NULL;
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
  bool opened = false;
  if (ok && (code = avio_open(&m->format->pb, path, AVIO_FLAG_WRITE)) < 0)
    ok = av_fail(message, size, "cannot open it", path, code);
  opened = ok;
  if (ok && (code = avformat_write_header(m->format, NULL)) < 0)
    ok = av_fail(message, size, "cannot write the MP4 header", path, code);
  if (!ok) {
    mp4_free(m);
    if (opened) unlink(path);  // no half-written file
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
  const char *path = m->format->url;
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
  bool ok = encode(m, NULL, m->format->url, message, size);
  if (m->header_written) {
    const int code = av_write_trailer(m->format);
    if (ok && code < 0) ok = av_fail(message, size, "cannot finish it", m->format->url, code);
  }
  if (m->format->pb && avio_closep(&m->format->pb) < 0 && ok)
    ok = av_fail(message, size, "cannot close it", m->format->url, 0);
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
