// The module's one exported symbol: the table of plot_module.h.
#include "plot/plot_module.h"

#include <stddef.h>

static const zeno_plot_module MODULE = {
    .abi = ZENO_PLOT_MODULE_ABI,
    .version = ZENO_VERSION,
    .format_known = plot_format_known,
    .status_message = plot_status_message,
    .release_caches = plot_release_caches,
    .maps = plot_maps,
    .graph = plot_graph,
    .trajectory = plot_trajectory,
    .regions = plot_regions,
    .sweep = plot_sweep,
};

const zeno_plot_module *zeno_plot_module_get(int abi) {
  return abi == ZENO_PLOT_MODULE_ABI ? &MODULE : NULL;
}
