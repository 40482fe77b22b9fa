// CSDP 6.2 behind ze_sdp (sdp_csdp.h): the translation to CSDP's 1-based,
// Fortran-ordered structures, the parameters set in code (no param.csdp,
// printlevel 0), the work storage that easy_sdp() would allocate, and the
// mutex that serialises CSDP's static state.
#include "sos/sdp_csdp.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <csdp/declarations.h>

#include "base/clock.h"
#include "base/util.h"

// CSDP's own default parameters (its initparams() without param.csdp):
// relative primal and dual feasibility and gap tolerances 1e-8, primal and
// dual infeasibility detected when a certificate exceeds 1e8, step
// fractions 0.90-0.97 of the way to the cone's boundary.
#define CSDP_AXTOL 1.0e-8
#define CSDP_ATYTOL 1.0e-8
#define CSDP_OBJTOL 1.0e-8
#define CSDP_PINFTOL 1.0e8
#define CSDP_DINFTOL 1.0e8
#define CSDP_MINSTEPFRAC 0.90
#define CSDP_MAXSTEPFRAC 0.97
#define CSDP_MINSTEPP 1.0e-8
#define CSDP_MINSTEPD 1.0e-8
/// Silent: CSDP prints nothing at printlevel 0.
#define CSDP_PRINTLEVEL 0
/// easy_sdp()'s hand-tuned density threshold of a constraint block.
#define CSDP_SPARSE_RATIO 0.125
#define CSDP_SPARSE_MIN_ENTRIES 5

// sdp() keeps a static pointer (op_o.c): one call at a time per process.
static pthread_mutex_t csdp_lock = PTHREAD_MUTEX_INITIALIZER;

/// OpenBLAS's thread count (libblas.so.3 on Debian when libopenblas0 is
/// installed, e.g. with python3-siconos): it splits its kernels, and so
/// the order of their sums, over threads, and CSDP's answer at a marginal
/// program then depends on the machine's thread count (measured: an
/// Example 6 point certified over pieces with one thread, pointwise with
/// two). CSDP runs with one BLAS thread, so that its answers depend on the
/// program alone; the certificate's soundness never depended on it (the
/// exact check). NULL with the reference BLAS, which has no threads.
typedef void (*blas_set_threads)(int);
typedef int (*blas_get_threads)(void);

// One BLAS thread for CSDP; returns the count to restore (0: none to).
static int blas_threads_pin(void) {
  blas_set_threads set = (blas_set_threads)(uintptr_t)dlsym(RTLD_DEFAULT,
                                                            "openblas_set_num_threads");
  blas_get_threads get = (blas_get_threads)(uintptr_t)dlsym(RTLD_DEFAULT,
                                                            "openblas_get_num_threads");
  if (set == NULL || get == NULL) return 0;
  const int before = get();
  set(1);
  return before;
}

static void blas_threads_restore(int before) {
  blas_set_threads set = (blas_set_threads)(uintptr_t)dlsym(RTLD_DEFAULT,
                                                            "openblas_set_num_threads");
  if (before > 0 && set != NULL) set(before);
}

zeno_status sdp_init(ze_sdp *p, int nblocks, const int *block_size, const bool *block_diag,
                     int ncons, zeno_error *e) {
  memset(p, 0, sizeof *p);
  if (nblocks < 1 || ncons < 1)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sdp",
                     "a semidefinite program needs at least one block and one "
                     "constraint (got %d blocks, %d constraints)",
                     nblocks, ncons);
  for (int b = 0; b < nblocks; b++)
    if (block_size[b] < 1)
      return zeno_fail(e, ZENO_ERR_ARGUMENT, "sdp", "block %d has order %d (must be >= 1)", b,
                       block_size[b]);
  p->block_size = malloc((size_t)nblocks * sizeof *p->block_size);
  p->block_diag = malloc((size_t)nblocks * sizeof *p->block_diag);
  p->rhs = calloc((size_t)ncons, sizeof *p->rhs);
  if (!p->block_size || !p->block_diag || !p->rhs) {
    sdp_free(p);
    return zeno_fail(e, ZENO_ERR_NOMEM, "sdp", "out of memory");
  }
  memcpy(p->block_size, block_size, (size_t)nblocks * sizeof *block_size);
  memcpy(p->block_diag, block_diag, (size_t)nblocks * sizeof *block_diag);
  p->nblocks = nblocks;
  p->ncons = ncons;
  p->max_iterations = SDP_MAX_ITERATIONS;
  return ZENO_OK;
}

zeno_status sdp_add(ze_sdp *p, int con, int block, int i, int j, double value, zeno_error *e) {
  if (i > j) {
    int t = i;
    i = j;
    j = t;
  }
  if (con < SDP_OBJECTIVE || con >= p->ncons || block < 0 || block >= p->nblocks || i < 0 ||
      j >= p->block_size[block] || (p->block_diag[block] && i != j) || !isfinite(value))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sdp",
                     "entry (%d, %d) of block %d of constraint %d is out of range "
                     "or not finite",
                     i, j, block, con);
  if (value == 0.0) return ZENO_OK;
  if (p->nentries == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 256;
    sdp_entry *grown = realloc(p->entries, cap * sizeof *grown);
    if (!grown) return zeno_fail(e, ZENO_ERR_NOMEM, "sdp", "out of memory");
    p->entries = grown;
    p->cap = cap;
  }
  p->entries[p->nentries++] = (sdp_entry){con, block, i, j, value};
  return ZENO_OK;
}

void sdp_free(ze_sdp *p) {
  free(p->block_size);
  free(p->block_diag);
  free(p->rhs);
  free(p->entries);
  memset(p, 0, sizeof *p);
}

void sdp_solution_free(sdp_solution *s, int nblocks) {
  if (s->x)
    for (int b = 0; b < nblocks; b++) free(s->x[b]);
  free(s->x);
  free(s->y);
  memset(s, 0, sizeof *s);
}

const char *sdp_code_name(int code) {
  static const char *const names[] = {"solved",
                                      "primal infeasible",
                                      "dual infeasible",
                                      "solved to reduced accuracy",
                                      "maximum iterations reached",
                                      "stuck at the edge of primal feasibility",
                                      "stuck at the edge of dual feasibility",
                                      "lack of progress",
                                      "X, Z or O singular",
                                      "NaN or Inf detected"};
  return code >= 0 && code < (int)(sizeof names / sizeof names[0]) ? names[code] : "unknown code";
}

static int entry_order(const void *a, const void *b) {
  const sdp_entry *x = a, *y = b;
  if (x->con != y->con) return x->con < y->con ? -1 : 1;
  if (x->block != y->block) return x->block < y->block ? -1 : 1;
  if (x->i != y->i) return x->i < y->i ? -1 : 1;
  if (x->j != y->j) return x->j < y->j ? -1 : 1;
  return 0;
}

// Sorted copy of the entries with repeats summed and zeros dropped.
static sdp_entry *merged_entries(const ze_sdp *p, size_t *count) {
  sdp_entry *m = malloc((p->nentries ? p->nentries : 1) * sizeof *m);
  if (!m) return NULL;
  if (p->nentries) memcpy(m, p->entries, p->nentries * sizeof *m);
  qsort(m, p->nentries, sizeof *m, entry_order);
  size_t n = 0;
  for (size_t k = 0; k < p->nentries; k++) {
    if (n > 0 && entry_order(&m[n - 1], &m[k]) == 0) m[n - 1].value += m[k].value;
    else m[n++] = m[k];
  }
  size_t kept = 0;
  for (size_t k = 0; k < n; k++)
    if (m[k].value != 0.0) m[kept++] = m[k];
  *count = kept;
  return m;
}

// The CSDP problem: C, a, constraints (freed by free_prob) and the map
// from CSDP's constraint numbers to ours (empty constraints are dropped).
typedef struct csdp_problem {
  int n, k;
  struct blockmatrix C;
  double *a;
  struct constraintmatrix *cons;
  int *con_of;  // CSDP constraint (1..k) -> ours
} csdp_problem;

static struct sparseblock *new_sparseblock(int con, int block, int size, int count) {
  struct sparseblock *sb = calloc(1, sizeof *sb);
  if (!sb) return NULL;
  sb->entries = malloc((size_t)(count + 1) * sizeof *sb->entries);
  sb->iindices = malloc((size_t)(count + 1) * sizeof *sb->iindices);
  sb->jindices = malloc((size_t)(count + 1) * sizeof *sb->jindices);
  if (!sb->entries || !sb->iindices || !sb->jindices) {
    free(sb->entries);
    free(sb->iindices);
    free(sb->jindices);
    free(sb);
    return NULL;
  }
  sb->constraintnum = con;
  sb->blocknum = block;
  sb->blocksize = size;
  sb->numentries = count;
  return sb;
}

// Builds the CSDP problem. Returns ZENO_OK, ZENO_ERR_NOMEM, or ZENO_DONE
// when an empty constraint has a non-zero right-hand side (infeasible).
static zeno_status build(const ze_sdp *p, const sdp_entry *m, size_t count, csdp_problem *q) {
  memset(q, 0, sizeof *q);
  q->C.nblocks = p->nblocks;
  q->C.blocks = calloc((size_t)p->nblocks + 1, sizeof *q->C.blocks);
  q->a = calloc((size_t)p->ncons + 1, sizeof *q->a);
  q->cons = calloc((size_t)p->ncons + 1, sizeof *q->cons);
  q->con_of = calloc((size_t)p->ncons + 1, sizeof *q->con_of);
  if (!q->C.blocks || !q->a || !q->cons || !q->con_of) return ZENO_ERR_NOMEM;
  for (int b = 0; b < p->nblocks; b++) {
    struct blockrec *r = &q->C.blocks[b + 1];
    int size = p->block_size[b];
    q->n += size;
    r->blocksize = size;
    r->blockcategory = p->block_diag[b] ? DIAG : MATRIX;
    r->data.vec = calloc(p->block_diag[b] ? (size_t)size + 1 : (size_t)size * (size_t)size,
                         sizeof(double));
    if (!r->data.vec) return ZENO_ERR_NOMEM;
  }
  size_t k = 0;
  while (k < count && m[k].con == SDP_OBJECTIVE) {
    const sdp_entry *t = &m[k++];
    struct blockrec *r = &q->C.blocks[t->block + 1];
    if (r->blockcategory == DIAG) {
      r->data.vec[t->i + 1] = t->value;
    } else {
      r->data.mat[ijtok(t->i + 1, t->j + 1, r->blocksize)] = t->value;
      r->data.mat[ijtok(t->j + 1, t->i + 1, r->blocksize)] = t->value;
    }
  }
  for (int c = 0; c < p->ncons; c++) {
    size_t first = k;
    while (k < count && m[k].con == c) k++;
    if (first == k) {
      if (p->rhs[c] != 0.0) return ZENO_DONE;  // 0 = b with b != 0
      continue;                                // 0 = 0: nothing to ask CSDP
    }
    int kc = ++q->k;
    q->con_of[kc] = c;
    q->a[kc] = p->rhs[c];
    struct sparseblock **tail = &q->cons[kc].blocks;
    for (size_t s = first; s < k;) {
      size_t e = s;
      while (e < k && m[e].block == m[s].block) e++;
      struct sparseblock *sb = new_sparseblock(kc, m[s].block + 1, p->block_size[m[s].block],
                                               (int)(e - s));
      if (!sb) return ZENO_ERR_NOMEM;
      for (size_t t = s; t < e; t++) {
        int at = (int)(t - s) + 1;
        sb->entries[at] = m[t].value;
        sb->iindices[at] = m[t].i + 1;
        sb->jindices[at] = m[t].j + 1;
      }
      *tail = sb;
      tail = &sb->next;
      s = e;
    }
  }
  return ZENO_OK;
}

// What easy_sdp() does before it calls sdp(), without initparams() (which
// reads param.csdp) and with printlevel 0; returns sdp()'s code.
static int run_csdp(csdp_problem *q, int max_iterations, struct blockmatrix *X, double **y,
                    struct blockmatrix *Z, double *pobj, double *dobj) {
  const int n = q->n, k = q->k;
  struct paramstruc params = {.axtol = CSDP_AXTOL,
                              .atytol = CSDP_ATYTOL,
                              .objtol = CSDP_OBJTOL,
                              .pinftol = CSDP_PINFTOL,
                              .dinftol = CSDP_DINFTOL,
                              .maxiter = max_iterations,
                              .minstepfrac = CSDP_MINSTEPFRAC,
                              .maxstepfrac = CSDP_MAXSTEPFRAC,
                              .minstepp = CSDP_MINSTEPP,
                              .minstepd = CSDP_MINSTEPD,
                              .usexzgap = 1,
                              .tweakgap = 0,
                              .affine = 0,
                              .perturbobj = 1,
                              .fastmode = 0};
  initsoln(n, k, q->C, q->a, q->cons, X, y, Z);

  struct blockmatrix work1, work2, work3, bestx, bestz, cholxinv, cholzinv, Zi, dZ, dX;
  alloc_mat(q->C, &work1);
  alloc_mat(q->C, &work2);
  alloc_mat(q->C, &work3);
  alloc_mat_packed(q->C, &bestx);
  alloc_mat_packed(q->C, &bestz);
  alloc_mat_packed(q->C, &cholxinv);
  alloc_mat_packed(q->C, &cholzinv);
  alloc_mat(q->C, &Zi);
  alloc_mat(q->C, &dZ);
  alloc_mat(q->C, &dX);
  const size_t nk = (size_t)(n > k ? n : k) + 1;
  enum { NVEC = 14 };
  double *vec[NVEC];  // workvec1-8, diagO, besty, rhs, dy, dy1, Fp
  for (int v = 0; v < NVEC; v++) vec[v] = calloc(nk, sizeof(double));
  const int ldam = k % 2 == 0 ? k + 1 : k;
  double *O = calloc((size_t)ldam * (size_t)ldam, sizeof(double));
  struct sparseblock **byblocks = calloc((size_t)q->C.nblocks + 1, sizeof *byblocks);
  bool ok = O && byblocks;
  for (int v = 0; v < NVEC; v++) ok = ok && vec[v];
  int code = 9;
  if (ok) {
    for (int i = 1; i <= k; i++)
      for (struct sparseblock *p = q->cons[i].blocks; p; p = p->next) {
        double ne = p->numentries, bs = p->blocksize;
        p->issparse = !((1.0 * k * k * ne * ne > CSDP_SPARSE_RATIO * k * bs * bs * bs) &&
                        p->numentries > CSDP_SPARSE_MIN_ENTRIES);
        if (q->C.blocks[p->blocknum].blockcategory == DIAG) p->issparse = 1;
        p->nextbyblock = NULL;
      }
    for (int i = 1; i <= k; i++)
      for (struct sparseblock *p = q->cons[i].blocks; p; p = p->next) {
        if (p->nextbyblock) continue;
        struct sparseblock *prev = p;
        for (int j = i + 1; j <= k; j++)
          for (struct sparseblock *r = q->cons[j].blocks; r; r = r->next)
            if (r->blocknum == p->blocknum) {
              prev->nextbyblock = r;
              r->nextbyblock = NULL;
              prev = r;
              break;
            }
      }
    for (int i = 1; i <= k; i++)
      for (struct sparseblock *p = q->cons[i].blocks; p; p = p->next)
        if (!byblocks[p->blocknum]) byblocks[p->blocknum] = p;
    struct constraintmatrix fill;
    makefill(k, q->C, q->cons, &fill, work1, CSDP_PRINTLEVEL);
    sort_entries(k, q->C, q->cons);
    code = sdp(n, k, q->C, q->a, 0.0, q->cons, byblocks, fill, *X, *y, *Z, cholxinv, cholzinv, pobj,
               dobj, work1, work2, work3, vec[0], vec[1], vec[2], vec[3], vec[4], vec[5], vec[6],
               vec[7], vec[8], bestx, vec[9], bestz, Zi, O, vec[10], dZ, dX, vec[11], vec[12],
               vec[13], CSDP_PRINTLEVEL, params);
    for (struct sparseblock *f = fill.blocks; f;) {
      struct sparseblock *next = f->next;
      free(f->entries);
      free(f->iindices);
      free(f->jindices);
      free(f);
      f = next;
    }
  }
  free_mat(work1);
  free_mat(work2);
  free_mat(work3);
  free_mat_packed(bestx);
  free_mat_packed(bestz);
  free_mat_packed(cholxinv);
  free_mat_packed(cholzinv);
  free_mat(Zi);
  free_mat(dZ);
  free_mat(dX);
  for (int v = 0; v < NVEC; v++) free(vec[v]);
  free(O);
  free(byblocks);
  return code;
}

// Copies X and y out of CSDP's storage (0-based, row-major).
static bool extract(const ze_sdp *p, const csdp_problem *q, struct blockmatrix X, const double *y,
                    sdp_solution *s) {
  s->x = calloc((size_t)p->nblocks, sizeof *s->x);
  s->y = calloc((size_t)p->ncons, sizeof *s->y);
  if (!s->x || !s->y) return false;
  for (int b = 0; b < p->nblocks; b++) {
    const int size = p->block_size[b];
    const struct blockrec *r = &X.blocks[b + 1];
    s->x[b] =
        malloc((p->block_diag[b] ? (size_t)size : (size_t)size * (size_t)size) * sizeof(double));
    if (!s->x[b]) return false;
    for (int i = 0; i < size; i++) {
      if (p->block_diag[b]) {
        s->x[b][i] = r->data.vec[i + 1];
        continue;
      }
      for (int j = 0; j < size; j++) s->x[b][i * size + j] = r->data.mat[ijtok(i + 1, j + 1, size)];
    }
  }
  for (int kc = 1; kc <= q->k; kc++) s->y[q->con_of[kc]] = y[kc];
  return true;
}

zeno_status sdp_solve(const ze_sdp *p, sdp_solution *s, zeno_error *e) {
  memset(s, 0, sizeof *s);
  if (p->nblocks < 1 || p->ncons < 1)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sdp", "empty semidefinite program");
  if (p->max_iterations < 1)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sdp.max_iterations", "must be >= 1 (got %d)",
                     p->max_iterations);
  const double start = clock_seconds();
  size_t count = 0;
  sdp_entry *m = merged_entries(p, &count);
  if (!m) return zeno_fail(e, ZENO_ERR_NOMEM, "sdp", "out of memory");
  csdp_problem q;
  zeno_status st = build(p, m, count, &q);
  free(m);
  if (st == ZENO_OK && q.k == 0) {
    st = ZENO_ERR_ARGUMENT;  // every constraint reads 0 = 0
  }
  struct blockmatrix X = {0}, Z = {0};
  double *y = NULL;
  if (st == ZENO_OK) {
    pthread_mutex_lock(&csdp_lock);
    const int blas_threads = blas_threads_pin();
    s->csdp_code = run_csdp(&q, p->max_iterations, &X, &y, &Z, &s->pobj, &s->dobj);
    blas_threads_restore(blas_threads);
    pthread_mutex_unlock(&csdp_lock);
    if (s->csdp_code <= 3 && !extract(p, &q, X, y, s)) st = ZENO_ERR_NOMEM;
  } else if (st == ZENO_DONE) {
    s->csdp_code = 1;  // an empty constraint with b != 0: primal infeasible
    st = ZENO_OK;
  }
  // Our storage of C, a and the constraints, and CSDP's X, y and Z.
  if (q.C.blocks) {
    for (int b = 1; b <= q.C.nblocks; b++) free(q.C.blocks[b].data.vec);
    free(q.C.blocks);
  }
  free(q.a);
  if (q.cons) {
    for (int i = 1; i <= p->ncons; i++)
      for (struct sparseblock *sb = q.cons[i].blocks; sb;) {
        struct sparseblock *next = sb->next;
        free(sb->entries);
        free(sb->iindices);
        free(sb->jindices);
        free(sb);
        sb = next;
      }
    free(q.cons);
  }
  free(q.con_of);
  if (X.blocks) free_mat(X);
  if (Z.blocks) free_mat(Z);
  free(y);
  s->seconds = clock_seconds() - start;
  if (st == ZENO_ERR_NOMEM) {
    sdp_solution_free(s, p->nblocks);
    return zeno_fail(e, st, "sdp", "out of memory");
  }
  if (st == ZENO_ERR_ARGUMENT)
    return zeno_fail(e, st, "sdp", "every constraint of the program is empty (0 = 0)");
  if (s->csdp_code > 3) {
    int code = s->csdp_code;
    sdp_solution_free(s, p->nblocks);
    s->csdp_code = code;
    return zeno_fail(e, ZENO_ERR_SINGULAR, "sdp", "CSDP failed: code %d (%s)", code,
                     sdp_code_name(code));
  }
  s->status = (sdp_status)s->csdp_code;
  return ZENO_OK;
}
