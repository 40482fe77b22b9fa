// The module's one exported symbol: the table of view_module.h.
#include "view/view.h"

static const zeno_view_module MODULE = {
    .abi = ZENO_VIEW_MODULE_ABI,
    .version = ZENO_VERSION,
    .run_simulate = view_run_simulate,
    .run_load = view_run_load,
    .run_free = view_run_free,
    .screenshot = view_screenshot,
    .window = view_window,
    .record = view_record,
};

const zeno_view_module *zeno_view_module_get(int abi) {
  return abi == ZENO_VIEW_MODULE_ABI ? &MODULE : NULL;
}
