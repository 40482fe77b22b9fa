// Located error reports of the scene loader (yaml_tree.h): a file position
// for nodes of the scene file, the whole override quoted for nodes an
// override made, and text cut to fit with a visible mark.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scene/yaml_tree.h"

/// Ends text that had to be cut (see yt_text_fits).
#define CUT_MARK "..."

bool yt_text_fits(char *out, size_t size, int written) {
  if (written >= 0 && (size_t)written < size) return true;
  if (written < 0 && size > 0) out[0] = '\0';  // encoding error: no text
  if (written >= 0 && size >= sizeof CUT_MARK)
    memcpy(out + size - sizeof CUT_MARK, CUT_MARK, sizeof CUT_MARK);
  return false;
}

// The path part of an override "path=VALUE" without surrounding blanks:
// *start and its length. `equals` points at the '='.
size_t yt_override_path_span(const char *text, const char *equals, const char **start) {
  const char *end = equals;
  *start = text;
  while (*start < end && (**start == ' ' || **start == '\t')) (*start)++;
  while (end > *start && (end[-1] == ' ' || end[-1] == '\t')) end--;
  return (size_t)(end - *start);
}

// Whether an error's parameter lies strictly below the path the override
// sets ("paper.alpha" for `--set paper={alpha: x}`): the override text then
// does not name the parameter, so the message must.
static bool param_below_override(const char *origin, const char *param) {
  const char *equals = strchr(origin, '=');
  if (param == NULL || equals == NULL) return false;
  const char *path;
  size_t length = yt_override_path_span(origin, equals, &path);
  return strncmp(param, path, length) == 0 && param[length] == '.';
}

// An error inside an override has no file position: the file is "--set",
// the line 0, and the message quotes the whole override (and the parameter
// when the override does not name it), so that it is complete on its own.
static zeno_status report_override(const yt_loader *ld, const char *origin, zeno_status code,
                                   const char *param, const char *message) {
  char text[sizeof ld->error->message];
  int written = param_below_override(origin, param)
                    ? snprintf(text, sizeof text, ZENO_OVERRIDE_FILE " %s: %s: %s", origin, param,
                               message)
                    : snprintf(text, sizeof text, ZENO_OVERRIDE_FILE " %s: %s", origin, message);
  yt_text_fits(text, sizeof text, written);
  return zeno_fail_at(ld->error, code, ZENO_OVERRIDE_FILE, 0, 0, param, "%s", text);
}

// Fills the error at a file position, or as an override error when
// `origin` (the --set text) is given.
static zeno_status report_v(const yt_loader *ld, const char *origin, int line, int column,
                            zeno_status code, const char *param, const char *fmt, va_list ap) {
  char message[sizeof ld->error->message];
  int written = vsnprintf(message, sizeof message, fmt, ap);
  yt_text_fits(message, sizeof message, written);
  if (origin != NULL) return report_override(ld, origin, code, param, message);
  return zeno_fail_at(ld->error, code, ld->file, line, column, param, "%s", message);
}

zeno_status yt_fail_mark(const yt_loader *ld, const char *origin, int line, int column,
                         zeno_status code, const char *param, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  zeno_status st = report_v(ld, origin, line, column, code, param, fmt, ap);
  va_end(ap);
  return st;
}

zeno_status yt_fail_node(const yt_loader *ld, const ynode *n, zeno_status code, const char *param,
                         const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  zeno_status st = n ? report_v(ld, n->origin, n->line, n->column, code, param, fmt, ap)
                     : report_v(ld, NULL, 0, 0, code, param, fmt, ap);
  va_end(ap);
  return st;
}

zeno_status yt_out_of_memory(const yt_loader *ld) {
  return zeno_fail_at(ld->error, ZENO_ERR_NOMEM, ld->file, 0, 0, "",
                      "out of memory while loading the scene");
}
