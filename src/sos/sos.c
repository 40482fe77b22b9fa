// Sums-of-squares programs, the solving side (sos.h): monomial bases, the
// translation to one semidefinite program by coefficient matching, CSDP,
// and the scalars and Gram matrices read back.
//
// The SDP's variable X is block diagonal: a diagonal block holding each
// free scalar as a difference c = c+ - c- of two non-negative numbers,
// then per constraint its main Gram matrix Q (order of its basis z) and one
// Gram matrix Q_i per multiplier. Per constraint and per monomial a of its
// possible support, one equality:
//   sum_v coef_a(part_v) (c+_v - c-_v) - coef_a(z^T Q z)
//     - sum_i coef_a(g_i z_i^T Q_i z_i) = -coef_a(constant part).
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "sos/sdp_csdp.h"
#include "sos/sos.h"

/// Weight of |c| (as c+ + c-) subtracted from the objective: the split of
/// a free scalar leaves the dual without an interior point; this penalty
/// restores one and keeps c+ and c- bounded. Measured: 1e-8 and 1e-7 make
/// CSDP stall (code 5) on infeasible fixed-gamma programs of
/// tests/test_sos.c, 1e-6 does not, and moves the optimum gamma of
/// x^4 - 4x^2 + 5 - gamma by 6e-9.
#define SOS_FREE_PENALTY 1e-6
/// A program without an objective maximises instead a common lower bound t
/// on the eigenvalues of its Gram matrices: each Gram matrix is Q' + t I
/// with Q' >= 0 and t free, so the SDP is feasible whenever the matching
/// is, and the program is strictly feasible exactly when t* > 0: the room
/// the re-check (sos_check.h) needs. t is capped (t + u = cap, u >= 0) so
/// that a homogeneous program stays bounded.
#define SOS_MARGIN_CAP 1.0
/// t* below -SOS_MARGIN_TOL: no Gram matrices are positive semidefinite
/// to CSDP's accuracy (1e-8 relative, with a factor 10 to spare):
/// reported infeasible.
#define SOS_MARGIN_TOL 1e-7

// The margin variable t = t+ - t- and the cap's slack u sit after the
// scalars' pairs in the diagonal block 0 (feasibility programs only).
static bool has_margin(const sos_program *p) { return p->objective == NULL; }

static zeno_status nomem(zeno_error *e) {
  return zeno_fail(e, ZENO_ERR_NOMEM, "sos", "out of memory");
}

sos_options sos_options_default(void) {
  return (sos_options){.max_iterations = SDP_MAX_ITERATIONS, .margin_cap = SOS_MARGIN_CAP};
}

static int mono_cmp(const void *a, const void *b) { return poly_mono_compare(a, b); }

// A growing array of monomials, sorted and unique after mset_seal().
typedef struct mset {
  poly_mono *m;
  int n, cap;
} mset;

static bool mset_push(mset *s, const poly_mono *m) {
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 64;
    poly_mono *g = realloc(s->m, (size_t)cap * sizeof *g);
    if (!g) return false;
    s->m = g;
    s->cap = cap;
  }
  s->m[s->n++] = *m;
  return true;
}

static void mset_seal(mset *s) {
  if (!s->n) return;
  qsort(s->m, (size_t)s->n, sizeof *s->m, mono_cmp);
  int u = 1;
  for (int k = 1; k < s->n; k++)
    if (poly_mono_compare(&s->m[u - 1], &s->m[k]) != 0) s->m[u++] = s->m[k];
  s->n = u;
}

static int mset_find(const poly_mono *m, int n, const poly_mono *x) {
  const poly_mono *hit = bsearch(x, m, (size_t)n, sizeof *m, mono_cmp);
  return hit ? (int)(hit - m) : -1;
}

// The possible support of the main SOS part: the expression's monomials
// and those of g_i z_i^T Q_i z_i.
static zeno_status support(const sos_constraint *c, mset *s, zeno_error *e) {
  for (int k = 0; k < c->expr.nparts; k++)
    for (int t = 0; t < c->expr.part[k].nterms; t++)
      if (!mset_push(s, &c->expr.part[k].t[t].m)) return nomem(e);
  for (int i = 0; i < c->ngs; i++) {
    poly_mono *b;
    int n;
    zeno_status st = sos_constraint_mult_basis(c, i, &b, &n, e);
    if (st != ZENO_OK) return st;
    for (int t = 0; t < c->g[i].nterms; t++)
      for (int j = 0; j < n; j++)
        for (int k = j; k < n; k++) {
          poly_mono jk, a;
          if (!poly_mono_add(&b[j], &b[k], &jk) || !poly_mono_add(&c->g[i].t[t].m, &jk, &a)) {
            free(b);
            return zeno_fail(e, ZENO_ERR_RANGE, "sos.degree",
                             "a multiplier product above degree %d (POLY_MAX_DEGREE)",
                             POLY_MAX_DEGREE);
          }
          if (!mset_push(s, &a)) {
            free(b);
            return nomem(e);
          }
        }
    free(b);
  }
  mset_seal(s);
  return ZENO_OK;
}

zeno_status sos_main_basis(const sos_constraint *c, poly_mono **basis, int *n, zeno_error *e) {
  *basis = NULL;
  *n = 0;
  mset s = {0};
  zeno_status st = support(c, &s, e);
  if (st != ZENO_OK || s.n == 0) {
    free(s.m);
    return st;
  }
  const int nv = c->expr.nvars;
  int lo[POLY_MAX_VARS], hi[POLY_MAX_VARS];
  for (int v = 0; v < nv; v++) {
    lo[v] = POLY_MAX_DEGREE;
    hi[v] = 0;
    for (int k = 0; k < s.n; k++) {
      lo[v] = s.m[k].e[v] < lo[v] ? s.m[k].e[v] : lo[v];
      hi[v] = s.m[k].e[v] > hi[v] ? s.m[k].e[v] : hi[v];
    }
  }
  const int dmin = poly_mono_degree(&s.m[0]), dmax = poly_mono_degree(&s.m[s.n - 1]);
  poly_mono *cand;
  int nc;
  if (c->weight[0] > 0) st = sos_weighted_main_basis(c, &cand, &nc, e);
  else st = poly_mono_basis(nv, dmin / 2, (dmax + 1) / 2, &cand, &nc, e);
  if (st != ZENO_OK) {
    free(s.m);
    return st;
  }
  // The Newton polytope's bounding box: 2 z within the support's range
  // in every variable.
  int kept = 0;
  for (int k = 0; k < nc; k++) {
    bool in = true;
    for (int v = 0; v < nv; v++) in = in && 2 * cand[k].e[v] >= lo[v] && 2 * cand[k].e[v] <= hi[v];
    if (in) cand[kept++] = cand[k];
  }
  nc = kept;
  // Diagonal consistency: Q_jj = 0 when z_j^2 is outside the support and
  // no other product z_k z_l (k != l) makes it; then row j of Q is zero
  // and z_j leaves the basis. Repeat until nothing leaves.
  for (bool changed = true; changed;) {
    changed = false;
    for (int j = 0; j < nc; j++) {
      poly_mono sq;
      poly_mono_add(&cand[j], &cand[j], &sq);
      bool needed = mset_find(s.m, s.n, &sq) >= 0;
      for (int k = 0; !needed && k < nc; k++) {
        if (k == j) continue;
        poly_mono rest;
        bool ok = true;
        for (int v = 0; v < POLY_MAX_VARS; v++) {
          ok = ok && sq.e[v] >= cand[k].e[v];
          rest.e[v] = ok ? (unsigned char)(sq.e[v] - cand[k].e[v]) : 0;
        }
        int l = ok ? mset_find(cand, nc, &rest) : -1;
        needed = l >= 0 && l != k;
      }
      if (!needed) {
        memmove(&cand[j], &cand[j + 1], (size_t)(nc - j - 1) * sizeof *cand);
        nc--;
        j--;
        changed = true;
      }
    }
  }
  free(s.m);
  if (nc > SOS_MAX_GRAM) {
    free(cand);
    return zeno_fail(e, ZENO_ERR_RANGE, "sos.degree",
                     "a Gram matrix of order %d, above SOS_MAX_GRAM = %d: the "
                     "degree is too high for %d variables",
                     nc, SOS_MAX_GRAM, nv);
  }
  if (nc == 0) {
    free(cand);
    cand = NULL;
  }
  *basis = cand;
  *n = nc;
  return ZENO_OK;
}

void sos_solution_free(sos_solution *s) {
  free(s->scalars);
  if (s->gram)
    for (int c = 0, at = 0; c < s->ncons; c++)
      for (int i = 0; i < s->ngrams[c]; i++, at++) {
        free(s->gram[at].basis);
        free(s->gram[at].q);
      }
  free(s->gram);
  free(s->ngrams);
  memset(s, 0, sizeof *s);
}

// The translation's bookkeeping: bases, blocks and rows of each constraint.
typedef struct layout {
  int ngram;        // Gram matrices in all
  sos_gram *gram;   // bases (q unused here)
  int *block;       // SDP block of each Gram matrix (-1: empty basis)
  int *first_gram;  // per constraint
  mset *rows;       // per constraint: its monomials
  int *first_row;   // per constraint
  int nrows;
} layout;

static void layout_free(layout *l, int ncons) {
  for (int g = 0; g < l->ngram; g++) free(l->gram[g].basis);
  free(l->gram);
  free(l->block);
  free(l->first_gram);
  if (l->rows)
    for (int c = 0; c < ncons; c++) free(l->rows[c].m);
  free(l->rows);
  free(l->first_row);
}

static zeno_status plan(const sos_program *p, layout *l, zeno_error *e) {
  memset(l, 0, sizeof *l);
  int total = 0;
  for (int c = 0; c < p->ncons; c++) total += 1 + p->cons[c].ngs;
  l->gram = calloc((size_t)total, sizeof *l->gram);
  l->block = calloc((size_t)total, sizeof *l->block);
  l->first_gram = calloc((size_t)p->ncons, sizeof *l->first_gram);
  l->rows = calloc((size_t)p->ncons, sizeof *l->rows);
  l->first_row = calloc((size_t)p->ncons, sizeof *l->first_row);
  if (!l->gram || !l->block || !l->first_gram || !l->rows || !l->first_row) return nomem(e);
  for (int c = 0; c < p->ncons; c++) {
    const sos_constraint *k = &p->cons[c];
    l->first_gram[c] = l->ngram;
    zeno_status st = sos_main_basis(k, &l->gram[l->ngram].basis, &l->gram[l->ngram].n, e);
    l->ngram++;
    for (int i = 0; st == ZENO_OK && i < k->ngs; i++, l->ngram++)
      st = sos_constraint_mult_basis(k, i, &l->gram[l->ngram].basis, &l->gram[l->ngram].n, e);
    if (st == ZENO_OK) st = support(k, &l->rows[c], e);
    // The rows also hold the main Gram matrix's products.
    const sos_gram *m = &l->gram[l->first_gram[c]];
    for (int j = 0; st == ZENO_OK && j < m->n; j++)
      for (int q = j; q < m->n; q++) {
        poly_mono a;
        poly_mono_add(&m->basis[j], &m->basis[q], &a);
        if (!mset_push(&l->rows[c], &a)) st = nomem(e);
      }
    if (st != ZENO_OK) return st;
    mset_seal(&l->rows[c]);
    l->first_row[c] = l->nrows;
    l->nrows += l->rows[c].n;
  }
  return ZENO_OK;
}

// Adds -coef * (products of basis b that make monomial shift + z_j + z_k)
// to the rows of constraint c.
static zeno_status gram_entries(ze_sdp *sdp, const layout *l, int c, int g, const ze_poly *mult,
                                int margin_at, zeno_error *e) {
  const sos_gram *gr = &l->gram[g];
  const mset *rows = &l->rows[c];
  poly_mono one;
  memset(&one, 0, sizeof one);
  const int nt = mult ? mult->nterms : 1;
  for (int t = 0; t < nt; t++) {
    const poly_mono *shift = mult ? &mult->t[t].m : &one;
    const double coef = mult ? mult->t[t].c : 1.0;
    for (int j = 0; j < gr->n; j++)
      for (int k = j; k < gr->n; k++) {
        poly_mono jk, a;
        poly_mono_add(&gr->basis[j], &gr->basis[k], &jk);
        poly_mono_add(shift, &jk, &a);
        int r = l->first_row[c] + mset_find(rows->m, rows->n, &a);
        zeno_status st = sdp_add(sdp, r, l->block[g], j, k, -coef, e);
        if (st == ZENO_OK && j == k && margin_at >= 0) {  // the t I of Q' + t I
          st = sdp_add(sdp, r, 0, margin_at, margin_at, -coef, e);
          if (st == ZENO_OK) st = sdp_add(sdp, r, 0, margin_at + 1, margin_at + 1, coef, e);
        }
        if (st != ZENO_OK) return st;
      }
  }
  return ZENO_OK;
}

static bool has_gram(const layout *l) {
  for (int g = 0; g < l->ngram; g++)
    if (l->gram[g].n > 0) return true;
  return false;
}

static zeno_status translate(const sos_program *p, layout *l, double cap, ze_sdp *sdp,
                             zeno_error *e) {
  int nblocks = 0;
  int *size = malloc((size_t)(l->ngram + 1) * sizeof *size);
  bool *diag = malloc((size_t)(l->ngram + 1) * sizeof *diag);
  if (!size || !diag) {
    free(size);
    free(diag);
    return nomem(e);
  }
  const int margin_at = has_margin(p) ? 2 * p->nscalars : -1;
  if (p->nscalars > 0 || margin_at >= 0) {
    size[nblocks] = 2 * p->nscalars + (margin_at >= 0 ? 3 : 0);
    diag[nblocks++] = true;
  }
  for (int g = 0; g < l->ngram; g++) {
    l->block[g] = l->gram[g].n > 0 ? nblocks : -1;
    if (l->gram[g].n > 0) {
      size[nblocks] = l->gram[g].n;
      diag[nblocks++] = false;
    }
  }
  const int nrows = l->nrows + p->nlineqs + (margin_at >= 0 ? 1 : 0);
  zeno_status st;
  if (l->nrows + p->nlineqs == 0)
    st = zeno_fail(e, ZENO_ERR_ARGUMENT, "sos",
                   "a zero-sized program: every constraint is the zero polynomial");
  else if (l->nrows > 0 && p->nscalars == 0 && !has_gram(l))
    st = ZENO_DONE;  // fixed non-zero polynomials without a Gram basis: not SOS
  else st = sdp_init(sdp, nblocks, size, diag, nrows, e);
  free(size);
  free(diag);
  for (int c = 0; st == ZENO_OK && c < p->ncons; c++) {
    const sos_constraint *k = &p->cons[c];
    const mset *rows = &l->rows[c];
    for (int q = 0; st == ZENO_OK && q < k->expr.nparts; q++) {
      const ze_poly *part = &k->expr.part[q];
      const int v = k->expr.var[q];
      for (int t = 0; st == ZENO_OK && t < part->nterms; t++) {
        int r = l->first_row[c] + mset_find(rows->m, rows->n, &part->t[t].m);
        if (v == SOS_CONSTANT) {
          sdp->rhs[r] -= part->t[t].c;
          continue;
        }
        st = sdp_add(sdp, r, 0, 2 * v, 2 * v, part->t[t].c, e);
        if (st == ZENO_OK) st = sdp_add(sdp, r, 0, 2 * v + 1, 2 * v + 1, -part->t[t].c, e);
      }
    }
    const int g0 = l->first_gram[c];
    if (st == ZENO_OK && l->block[g0] >= 0) st = gram_entries(sdp, l, c, g0, NULL, margin_at, e);
    for (int i = 0; st == ZENO_OK && i < k->ngs; i++)
      st = gram_entries(sdp, l, c, g0 + 1 + i, &k->g[i], margin_at, e);
  }
  for (int q = 0; st == ZENO_OK && q < p->nlineqs; q++) {
    const sos_lineq *eq = &p->lineqs[q];
    const int r = l->nrows + q;
    sdp->rhs[r] = eq->rhs;
    for (int t = 0; st == ZENO_OK && t < eq->nterms; t++) {
      st = sdp_add(sdp, r, 0, 2 * eq->var[t], 2 * eq->var[t], eq->coef[t], e);
      if (st == ZENO_OK)
        st = sdp_add(sdp, r, 0, 2 * eq->var[t] + 1, 2 * eq->var[t] + 1, -eq->coef[t], e);
    }
  }
  if (st == ZENO_OK && margin_at >= 0) {  // maximise t, t+ - t- + u = cap
    const int r = nrows - 1;
    sdp->rhs[r] = cap;
    const double row[3] = {1.0, -1.0, 1.0}, obj[3] = {1.0, -1.0, 0.0};
    for (int k = 0; st == ZENO_OK && k < 3; k++)
      st = sdp_add(sdp, r, 0, margin_at + k, margin_at + k, row[k], e);
    for (int k = 0; st == ZENO_OK && k < 2; k++)
      st = sdp_add(sdp, SDP_OBJECTIVE, 0, margin_at + k, margin_at + k, obj[k], e);
  }
  for (int v = 0; st == ZENO_OK && v < p->nscalars; v++) {
    const double w = p->objective ? p->objective[v] : 0.0;
    st = sdp_add(sdp, SDP_OBJECTIVE, 0, 2 * v, 2 * v, w - SOS_FREE_PENALTY, e);
    if (st == ZENO_OK)
      st = sdp_add(sdp, SDP_OBJECTIVE, 0, 2 * v + 1, 2 * v + 1, -w - SOS_FREE_PENALTY, e);
  }
  return st;
}

// Scalars and Gram matrices out of CSDP's X.
static zeno_status read_back(const sos_program *p, layout *l, const ze_sdp *sdp,
                             const sdp_solution *x, sos_solution *s, zeno_error *e) {
  s->scalars = calloc((size_t)(p->nscalars ? p->nscalars : 1), sizeof *s->scalars);
  s->gram = calloc((size_t)l->ngram, sizeof *s->gram);
  s->ngrams = calloc((size_t)p->ncons, sizeof *s->ngrams);
  if (!s->scalars || !s->gram || !s->ngrams) return nomem(e);
  s->nscalars = p->nscalars;
  s->ncons = p->ncons;
  for (int v = 0; v < p->nscalars; v++) {
    s->scalars[v] = x->x[0][2 * v] - x->x[0][2 * v + 1];
    if (p->objective) s->objective += p->objective[v] * s->scalars[v];
  }
  for (int c = 0; c < p->ncons; c++) s->ngrams[c] = 1 + p->cons[c].ngs;
  if (has_margin(p)) {
    s->margin = x->x[0][2 * p->nscalars] - x->x[0][2 * p->nscalars + 1];
    if (s->margin < -SOS_MARGIN_TOL) s->status = SOS_INFEASIBLE;
  }
  for (int g = 0; g < l->ngram; g++) {
    sos_gram *gr = &s->gram[g];
    gr->n = l->gram[g].n;
    gr->basis = l->gram[g].basis;  // moved
    l->gram[g].basis = NULL;
    if (gr->n == 0) continue;
    const size_t nn = (size_t)gr->n * (size_t)gr->n;
    gr->q = malloc(nn * sizeof *gr->q);
    if (!gr->q) return nomem(e);
    memcpy(gr->q, x->x[l->block[g]], nn * sizeof *gr->q);
    for (int j = 0; j < gr->n; j++) gr->q[j * gr->n + j] += s->margin;
  }
  (void)sdp;
  return ZENO_OK;
}

zeno_status sos_solve(const sos_program *p, const sos_options *o, sos_solution *s, zeno_error *e) {
  memset(s, 0, sizeof *s);
  sos_options opt = o ? *o : sos_options_default();
  if (p->ncons < 1)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos",
                     "a zero-sized program: no sums-of-squares constraint");
  layout l;
  ze_sdp sdp;
  memset(&sdp, 0, sizeof sdp);
  zeno_status st = plan(p, &l, e);
  if (st == ZENO_OK)
    st = translate(p, &l, opt.margin_cap > 0 ? opt.margin_cap : SOS_MARGIN_CAP, &sdp, e);
  if (st == ZENO_DONE) {
    s->status = SOS_INFEASIBLE;
    layout_free(&l, p->ncons);
    return ZENO_OK;
  }
  sdp_solution x;
  memset(&x, 0, sizeof x);
  if (st == ZENO_OK) {
    sdp.max_iterations = opt.max_iterations;
    for (int b = 0; b < sdp.nblocks; b++) s->sdp_order += sdp.block_size[b];
    s->sdp_constraints = sdp.ncons;
    st = sdp_solve(&sdp, &x, e);
    s->csdp_code = x.csdp_code;
    s->seconds = x.seconds;
  }
  if (st == ZENO_OK) {
    s->reduced_accuracy = x.status == SDP_REDUCED_ACCURACY;
    s->status = x.status == SDP_PRIMAL_INFEASIBLE ? SOS_INFEASIBLE
                : x.status == SDP_DUAL_INFEASIBLE ? SOS_UNBOUNDED
                                                  : SOS_FEASIBLE;
    if (s->status == SOS_FEASIBLE) st = read_back(p, &l, &sdp, &x, s, e);
    if (st == ZENO_OK && s->status != SOS_FEASIBLE) {
      // No scalars or Gram matrices without a solution; the rest stays.
      sos_solution kept = *s;
      kept.scalars = NULL;
      kept.gram = NULL;
      kept.ngrams = NULL;
      kept.ncons = kept.nscalars = 0;
      sos_solution_free(s);
      *s = kept;
    }
  }
  int code = s->csdp_code;
  if (st != ZENO_OK) {
    sos_solution_free(s);
    s->csdp_code = code;
  }
  sdp_solution_free(&x, sdp.nblocks);
  sdp_free(&sdp);
  layout_free(&l, p->ncons);
  return st;
}
