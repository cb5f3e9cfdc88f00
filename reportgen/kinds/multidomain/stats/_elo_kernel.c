/* Online Elo over bootstrap replicates (multidomain-metrics.md §5), compiled.
 *
 * The same float operations, in the same order, as the numpy path of
 * reportgen/kinds/multidomain/stats/elo_fast.py with its exponential `elo_exp`: every
 * operation is one IEEE double operation rounded to nearest (no fused multiply-add, no
 * reassociation: built with -ffp-contract=off and without -ffast-math; setup.py), so the
 * ratings are the numpy path's bit for bit, on any machine and whatever the vector width
 * (tests/test_multidomain_elo_fast.py; the AVX2 and SSE2 clones were checked too).
 *
 * run(ratings, won, offsets, first, second, replicates, steps, pairs, k, slope)
 *   ratings  float64 [models][replicates], updated in place
 *   won      float64 [items * pairs]: K x a's outcome, NaN where the battle does not
 *            take place
 *   offsets  int64 [steps][replicates]: item x pairs of the item replicate r plays at
 *            step t
 *   first, second  int64 [pairs]: a and b of each pair
 * The replicates are independent: the loop runs over blocks of them, every battle in
 * order, the replicates of the block as the inner (vectorised) loop. The interpreter
 * lock is released while it runs, so threads may run disjoint blocks at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* gcc ignores the pragma: setup.py passes -ffp-contract=off */
#endif

#ifndef BLOCK
#define BLOCK 128
#endif

static const double SHIFT = 6755399441055744.0;         /* 0x1.8p52 */
static const double LOG2E = 1.4426950408889634;
static const double LN2_HI = 6.93147180369123816490e-01; /* 0x3fe62e42fee00000 */
static const double LN2_LO = 1.90821492927058770002e-10;
/* Not a constant to the compiler: with one it would compute the clamped lanes' quotients
 * apart (two more divisions per vector). */
static volatile double LIMIT = 708.0;

/* exp(x): x clamped to [-708, 708]; x = n ln2 + r, |r| <= ln2 / 2 (Cody-Waite);
 * e^r by its Taylor polynomial of degree 13 (Horner); times 2^n, built from its bits. */
static inline double elo_exp(double x, double limit) {
    x = x > limit ? limit : x;
    x = x < -limit ? -limit : x;
    double t = x * LOG2E + SHIFT;
    double n = t - SHIFT;
    double r = (x - n * LN2_HI) - n * LN2_LO;
    double p = 1.6059043836821613e-10;  /* 1/13! */
    p = p * r + 2.08767569878681e-09;   /* 1/12! */
    p = p * r + 2.505210838544172e-08;  /* 1/11! */
    p = p * r + 2.755731922398589e-07;  /* 1/10! */
    p = p * r + 2.7557319223985893e-06; /* 1/9! */
    p = p * r + 2.48015873015873e-05;   /* 1/8! */
    p = p * r + 0.0001984126984126984;  /* 1/7! */
    p = p * r + 0.001388888888888889;   /* 1/6! */
    p = p * r + 0.008333333333333333;   /* 1/5! */
    p = p * r + 0.041666666666666664;   /* 1/4! */
    p = p * r + 0.16666666666666666;    /* 1/3! */
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    int64_t tb, sb;
    memcpy(&tb, &t, sizeof tb);
    memcpy(&sb, &SHIFT, sizeof sb);
    uint64_t bits = (uint64_t)(tb - sb + 1023) << 52;
    double scale;
    memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

/* Built for the widest vectors the processor has (x86-64: AVX-512, AVX2 or SSE2, chosen
 * when the module loads); the same bits whatever the choice. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
static void block_run(double *restrict local, double *restrict ratings, const double *restrict won,
                      const int64_t *restrict offsets, const int64_t *restrict first,
                      const int64_t *restrict second, Py_ssize_t replicates, Py_ssize_t low,
                      Py_ssize_t width, Py_ssize_t models, Py_ssize_t steps, Py_ssize_t pairs,
                      double k, double slope) {
    const double limit = LIMIT;
    for (Py_ssize_t m = 0; m < models; m++) {
        memcpy(local + m * BLOCK, ratings + m * replicates + low, width * sizeof(double));
    }
    for (Py_ssize_t t = 0; t < steps; t++) {
        const int64_t *restrict offset = offsets + t * replicates + low;
        for (Py_ssize_t p = 0; p < pairs; p++) {
            double *restrict ra = local + first[p] * BLOCK;
            double *restrict rb = local + second[p] * BLOCK;
            const double *restrict row = won + p;
            for (Py_ssize_t r = 0; r < width; r++) {
                double expected = rb[r] - ra[r];
                expected = expected * slope;
                expected = elo_exp(expected, limit);
                expected = expected + 1.0;
                expected = k / expected;
                double w = row[offset[r]];
                double delta = w - expected;
                delta = w != w ? 0.0 : delta;
                ra[r] = ra[r] + delta;
                rb[r] = rb[r] - delta;
            }
        }
    }
    for (Py_ssize_t m = 0; m < models; m++) {
        memcpy(ratings + m * replicates + low, local + m * BLOCK, width * sizeof(double));
    }
}

static PyObject *run(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer ratings, won, offsets, first, second;
    Py_ssize_t replicates, low, high, steps, pairs;
    double k, slope;
    if (!PyArg_ParseTuple(args, "w*y*y*y*y*nnnnndd", &ratings, &won, &offsets, &first,
                          &second, &replicates, &low, &high, &steps, &pairs, &k, &slope)) {
        return NULL;
    }
    Py_ssize_t models = ratings.len / (Py_ssize_t)sizeof(double) / (replicates ? replicates : 1);
    int ok = replicates > 0 && 0 <= low && low <= high && high <= replicates &&
             ratings.len == models * replicates * (Py_ssize_t)sizeof(double) &&
             offsets.len == steps * replicates * (Py_ssize_t)sizeof(int64_t) &&
             first.len == pairs * (Py_ssize_t)sizeof(int64_t) &&
             second.len == pairs * (Py_ssize_t)sizeof(int64_t);
    if (ok) {
        const int64_t *a = first.buf, *b = second.buf;
        for (Py_ssize_t p = 0; ok && p < pairs; p++) {
            ok = 0 <= a[p] && a[p] < models && 0 <= b[p] && b[p] < models && a[p] != b[p];
        }
        const int64_t *o = offsets.buf;
        Py_ssize_t cells = won.len / (Py_ssize_t)sizeof(double);
        for (Py_ssize_t i = 0; ok && i < steps * replicates; i++) {
            ok = 0 <= o[i] && o[i] + pairs <= cells;
        }
    }
    double *local = NULL;
    if (ok) {
        local = PyMem_RawMalloc((size_t)(models ? models : 1) * BLOCK * sizeof(double));
        if (local == NULL) {
            ok = 0;
            PyErr_NoMemory();
        }
    }
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t start = low; start < high; start += BLOCK) {
            Py_ssize_t width = high - start < BLOCK ? high - start : BLOCK;
            block_run(local, ratings.buf, won.buf, offsets.buf, first.buf, second.buf, replicates,
                      start, width, models, steps, pairs, k, slope);
        }
        Py_END_ALLOW_THREADS
        PyMem_RawFree(local);
    }
    PyBuffer_Release(&ratings);
    PyBuffer_Release(&won);
    PyBuffer_Release(&offsets);
    PyBuffer_Release(&first);
    PyBuffer_Release(&second);
    if (!ok) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        PyErr_SetString(PyExc_ValueError, "_elo_kernel.run: inconsistent shapes or indices");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"run", run, METH_VARARGS, "Online Elo over the replicates low..high (in place)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_elo_kernel", .m_size = -1, .m_methods = methods};

PyMODINIT_FUNC PyInit__elo_kernel(void) { return PyModule_Create(&module); }
