// Definition 5 (paper Sec. 7): partitions of the section I, the interval
// graph of R between their intervals, its merged form (the graph the
// `--graph` figure draws) and the partition test of Theorem 4.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stability_internal.h"
#include "base/util.h"
#include "zeno/stability.h"

/* ---------- building ---------- */

// Interval index of phi in the sorted edges e[0..n] (e[0] = -pi/2, e[n] = pi/2).
static size_t interval_of(const double *e, size_t n, double phi) {
  size_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    if (e[mid] <= phi) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

static zeno_interval_sign sign_join(zeno_interval_sign a, zeno_interval_sign b) {
  if (a == ZENO_SIGN_NONE) return b;
  if (b == ZENO_SIGN_NONE) return a;
  return a == b ? a : ZENO_SIGN_MIXED;
}

static zeno_status graph_alloc(zeno_interval_graph *g, size_t n, zeno_error *error) {
  memset(g, 0, sizeof *g);
  g->intervals = calloc(n, sizeof *g->intervals);
  g->arc = calloc(n * n, 1);
  if (g->intervals == NULL || g->arc == NULL) {
    zeno_interval_graph_free(g);
    return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  }
  g->count = n;
  return ZENO_OK;
}

static zeno_status check_partition_edges(const double *edges, size_t n, zeno_error *error) {
  for (size_t k = 0; k < n; k++)
    if (!(edges[k] < edges[k + 1]))
      return zeno_fail(error, ZENO_ERR_RANGE, "partition",
                       "partition edges must be increasing: edge %zu (%g) >= "
                       "edge %zu (%g)",
                       k, edges[k], k + 1, edges[k + 1]);
  return ZENO_OK;
}

zeno_status zeno_interval_graph_build(const zeno_maps *m, const double *e, size_t n,
                                      zeno_interval_graph *g, zeno_error *error) {
  if (m == NULL || e == NULL || g == NULL || n < 1 || n > ZENO_MAX_PARTITION)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "partition",
                     "a partition needs maps, edges, a graph and 1 to %d "
                     "intervals (%zu given)",
                     ZENO_MAX_PARTITION, n);
  memset(g, 0, sizeof *g);  // empty (and safe to free) whatever fails below
  zeno_status st = check_partition_edges(e, n, error);
  if (st != ZENO_OK) return st;
  double *rmin = malloc(n * sizeof *rmin), *rmax = malloc(n * sizeof *rmax);
  st = rmin && rmax ? graph_alloc(g, n, error)
                    : zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  for (size_t i = 0; st == ZENO_OK && i < n; i++) {
    g->intervals[i] = (zeno_interval){e[i], e[i + 1], true, ZENO_SIGN_NONE};
    rmin[i] = INFINITY;
    rmax[i] = -INFINITY;
  }
  for (size_t k = 0; st == ZENO_OK && k < m->sample_count; k++) {
    const zeno_cycle *c = &m->samples[k];
    if (!c->defined) continue;
    zeno_interval *iv = &g->intervals[interval_of(e, n, c->phi)];
    if (c->G >= 1 - ZENO_VERDICT_G_TOL) iv->safe = false;
    double pad = 0;
    if (k > 0 && m->samples[k - 1].defined) pad = fabs(c->R - m->samples[k - 1].R);
    const size_t i = (size_t)(iv - g->intervals);
    rmin[i] = fmin(rmin[i], c->R - pad);
    rmax[i] = fmax(rmax[i], c->R + pad);
    const double f = c->R - c->phi;
    const zeno_interval_sign sg = f > 0 ? ZENO_SIGN_POSITIVE
                                        : (f < 0 ? ZENO_SIGN_NEGATIVE : ZENO_SIGN_MIXED);
    iv->sign = sign_join(iv->sign, sg);
  }
  for (size_t i = 0; st == ZENO_OK && i < n; i++) {
    if (!(rmin[i] <= rmax[i])) continue;  // R undefined on the whole interval: a sink
    const size_t a = interval_of(e, n, fmax(rmin[i], -ZENO_PI / 2));
    const size_t b = interval_of(e, n, fmin(rmax[i], ZENO_PI / 2));
    for (size_t j = a; j <= b; j++)
      if (j != i) g->arc[i * n + j] = 1;
  }
  free(rmin);
  free(rmax);
  return st;
}

/* ---------- merging ---------- */

size_t zeno_partition_merge(const double *edges, const bool *safe, size_t n, zeno_interval *out) {
  size_t count = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && safe[j] == safe[i]) j++;
    out[count++] = (zeno_interval){edges[i], edges[j], safe[i], ZENO_SIGN_NONE};
    i = j;
  }
  return count;
}

zeno_status zeno_interval_graph_merge(const zeno_interval_graph *g, zeno_interval_graph *merged,
                                      zeno_error *error) {
  if (g == NULL || merged == NULL || g->count == 0 || g->intervals == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "graph", "a built graph is required");
  const size_t n = g->count;
  size_t *node = malloc(n * sizeof *node);  // merged node of each interval
  if (node == NULL) return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  size_t count = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && g->intervals[i].safe != g->intervals[i - 1].safe) count++;
    node[i] = count;
  }
  count++;
  zeno_status st = graph_alloc(merged, count, error);
  if (st == ZENO_OK) {
    merged->merged = true;
    for (size_t i = 0; i < n; i++) {
      zeno_interval *m = &merged->intervals[node[i]];
      if (i == 0 || node[i] != node[i - 1]) *m = g->intervals[i];
      m->hi = g->intervals[i].hi;
      m->sign = sign_join(m->sign, g->intervals[i].sign);
      for (size_t j = 0; j < n; j++)
        if (g->arc[i * n + j]) merged->arc[node[i] * count + node[j]] = 1;
    }
  }
  free(node);
  return st;
}

void zeno_interval_graph_free(zeno_interval_graph *g) {
  if (g == NULL) return;
  free(g->intervals);
  free(g->arc);
  memset(g, 0, sizeof *g);
}

/* ---------- Definition 5 ---------- */

// True when interval u lies on a directed cycle (self-arcs do not count).
static bool on_cycle(const zeno_interval_graph *g, size_t u, unsigned char *seen, size_t *stack) {
  const size_t n = g->count;
  memset(seen, 0, n);
  size_t top = 0;
  for (size_t j = 0; j < n; j++)
    if (j != u && g->arc[u * n + j]) {
      seen[j] = 1;
      stack[top++] = j;
    }
  while (top > 0) {
    const size_t v = stack[--top];
    if (v == u) return true;
    for (size_t j = 0; j < n; j++)
      if (j != v && g->arc[v * n + j] && !seen[j]) {
        seen[j] = 1;
        stack[top++] = j;
      }
  }
  return false;
}

zeno_status zeno_partition_stable(const zeno_maps *m, const zeno_interval_graph *g,
                                  zeno_partition_verdict *v, zeno_error *error) {
  if (m == NULL || g == NULL || v == NULL || g->intervals == NULL || g->merged)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "graph",
                     "maps, a built (not merged) interval graph and a verdict "
                     "are required");
  memset(v, 0, sizeof *v);
  const size_t n = g->count;
  size_t *stack = malloc(n * sizeof *stack);
  unsigned char *seen = malloc(n);
  if (stack == NULL || seen == NULL) {
    free(stack);
    free(seen);
    return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  }
  bool ok = true;
  for (size_t i = 0; i < n; i++) {
    const zeno_interval *iv = &g->intervals[i];
    if (iv->safe) continue;
    v->unsafe_count++;
    if (!ok) continue;
    // Condition 3: R - phi keeps a strict sign inside an unsafe interval.
    if (iv->sign == ZENO_SIGN_MIXED) {
      ok = false;
      snprintf(v->reason, sizeof v->reason, "R - phi changes sign in unsafe [%.4f, %.4f]", iv->lo,
               iv->hi);
    } else if (on_cycle(g, i, seen, stack)) {  // condition 4
      ok = false;
      snprintf(v->reason, sizeof v->reason,
               "unsafe [%.4f, %.4f] lies on a cycle of the interval graph", iv->lo, iv->hi);
    }
  }
  // Conditions 1-2: G constant and != 1 along the extremal intervals; the
  // maps' endpoint limits G+- (Lemma 3) must not equal 1.
  if (ok && ((m->G_minus_defined && fabs(m->G_minus - 1) <= ZENO_VERDICT_G_TOL) ||
             (m->G_plus_defined && fabs(m->G_plus - 1) <= ZENO_VERDICT_G_TOL))) {
    ok = false;
    snprintf(v->reason, sizeof v->reason, "G at an endpoint equals 1");
  }
  v->stable = ok;
  free(stack);
  free(seen);
  return ZENO_OK;
}
