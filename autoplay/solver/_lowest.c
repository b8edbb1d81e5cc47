/* The float shares of autoplay.solver.lowest in C: which groups could hold the lowest mine probability.
 *
 * lowest.py explains the method and why it is exact: every count scaled to at most 1 (a component's
 * totals and group counts by one factor, which cancels in its shares), every non-zero value kept above
 * 2**-300 so that nothing underflows, and every share then within a relative error far below 1e-9 of its
 * exact value.  The groups whose float share is within that margin of the least are returned, and the
 * caller confirms them exactly.  Done in C because the same sums on Python floats allocate an object per
 * addition, which made them cost as much as the exact join they replace.
 *
 * Kept(components): the components a reveal leaves alone, each (totals, group mines, group sizes);
 * kept.contenders(totals, group_mines, sizes, room, n_off, left) -> [(component, group)] for the changed
 * component joined to them ((-1, 0) for the cells off the frontier), [] when the least share is exactly
 * 0, or None when a count cannot be scaled safely (the caller then joins exactly).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TINY 0x1p-300
#define ROUNDING 1e-9
#define MAX_WORK 1000000.0

typedef struct {
    int len;      /* mine counts 0 .. len - 1 */
    int n_groups;
    double *tot;  /* len */
    double *rows; /* n_groups * len */
    int *sizes;   /* n_groups */
} Comp;

typedef struct {
    PyObject_HEAD
    int ok;
    int c;
    Comp *comps;
    double **apart; /* c: the convolution of all but one */
    int *apart_len;
    double *all;
    int all_len;
    int longest;
} Kept;

static void comp_free(Comp *comp) {
    free(comp->tot);
    free(comp->rows);
    free(comp->sizes);
    memset(comp, 0, sizeof(Comp));
}

/* values[i] / top as doubles into out; 0 on success, 1 when one cannot be scaled safely, -1 on error. */
static int scale_into(PyObject *values, double top, double *out, int len) {
    for (int m = 0; m < len; m++) {
        PyObject *v = PyTuple_GET_ITEM(values, m);
        double d = PyLong_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
            PyErr_Clear();
            return 1;
        }
        if (d != 0.0) {
            d /= top;
            if (d < TINY) return 1;
        }
        out[m] = d;
    }
    return 0;
}

/* Read one component (totals, group mines, sizes) scaled by its largest total; 0, 1 (cannot) or -1 (error). */
static int read_comp(PyObject *totals, PyObject *rows, PyObject *sizes, Comp *comp) {
    if (!PyTuple_Check(totals) || !PyTuple_Check(rows) || !PyTuple_Check(sizes)) {
        PyErr_SetString(PyExc_TypeError, "a component is (totals, group mines, sizes), each a tuple");
        return -1;
    }
    int len = (int)PyTuple_GET_SIZE(totals), n = (int)PyTuple_GET_SIZE(rows);
    if (PyTuple_GET_SIZE(sizes) != n || len == 0) {
        PyErr_SetString(PyExc_ValueError, "one size per group, and at least one total");
        return -1;
    }
    comp->len = len;
    comp->n_groups = n;
    comp->tot = malloc(sizeof(double) * len);
    comp->rows = malloc(sizeof(double) * (size_t)len * (n ? n : 1));
    comp->sizes = malloc(sizeof(int) * (n ? n : 1));
    if (!comp->tot || !comp->rows || !comp->sizes) {
        PyErr_NoMemory();
        return -1;
    }
    double top = 0.0;
    for (int m = 0; m < len; m++) {
        double d = PyLong_AsDouble(PyTuple_GET_ITEM(totals, m));
        if (d == -1.0 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
            PyErr_Clear();
            return 1;
        }
        if (d > top) top = d;
    }
    if (top == 0.0 || top > 0x1p1000) return 1;
    int r = scale_into(totals, top, comp->tot, len);
    if (r) return r;
    for (int g = 0; g < n; g++) {
        PyObject *row = PyTuple_GET_ITEM(rows, g);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != len) {
            PyErr_SetString(PyExc_ValueError, "each group's mines by mine count, as long as the totals");
            return -1;
        }
        r = scale_into(row, top, comp->rows + (size_t)g * len, len);
        if (r) return r;
        long size = PyLong_AsLong(PyTuple_GET_ITEM(sizes, g));
        if (size == -1 && PyErr_Occurred()) return -1;
        if (size <= 0) {
            PyErr_SetString(PyExc_ValueError, "a group has at least one cell");
            return -1;
        }
        comp->sizes[g] = (int)size;
    }
    return 0;
}

/* The convolution of a and b, scaled to a largest value of 1, into a new array; NULL with *cannot set when a
 * value would fall below TINY, NULL without it when out of memory. */
static double *convolve(const double *a, int la, const double *b, int lb, int *out_len, int *cannot) {
    int len = la + lb - 1;
    double *out = calloc(len, sizeof(double));
    if (!out) return NULL;
    for (int i = 0; i < la; i++) {
        if (a[i] == 0.0) continue;
        for (int j = 0; j < lb; j++) {
            if (b[j] != 0.0) out[i + j] += a[i] * b[j];
        }
    }
    double top = 0.0;
    for (int k = 0; k < len; k++)
        if (out[k] > top) top = out[k];
    if (top != 0.0) {
        for (int k = 0; k < len; k++) {
            if (out[k] != 0.0) {
                out[k] /= top;
                if (out[k] < TINY) {
                    free(out);
                    *cannot = 1;
                    return NULL;
                }
            }
        }
    }
    *out_len = len;
    return out;
}

static void kept_release(Kept *self) {
    if (self->comps) {
        for (int i = 0; i < self->c; i++) comp_free(&self->comps[i]);
        free(self->comps);
        self->comps = NULL;
    }
    if (self->apart) {
        for (int i = 0; i < self->c; i++) free(self->apart[i]);
        free(self->apart);
        self->apart = NULL;
    }
    free(self->apart_len);
    self->apart_len = NULL;
    free(self->all);
    self->all = NULL;
}

static void Kept_dealloc(Kept *self) {
    kept_release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Kept_init(Kept *self, PyObject *args, PyObject *kwds) {
    PyObject *components;
    static char *names[] = {"components", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!", names, &PyList_Type, &components)) return -1;
    kept_release(self);
    int c = (int)PyList_GET_SIZE(components);
    self->c = c;
    self->ok = 0;
    self->longest = 1;
    self->comps = calloc(c ? c : 1, sizeof(Comp));
    self->apart = calloc(c ? c : 1, sizeof(double *));
    self->apart_len = calloc(c ? c : 1, sizeof(int));
    if (!self->comps || !self->apart || !self->apart_len) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < c; i++) {
        PyObject *item = PyList_GET_ITEM(components, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3) {
            PyErr_SetString(PyExc_TypeError, "each component is (totals, group mines, sizes)");
            return -1;
        }
        int r = read_comp(PyTuple_GET_ITEM(item, 0), PyTuple_GET_ITEM(item, 1), PyTuple_GET_ITEM(item, 2),
                          &self->comps[i]);
        if (r < 0) return -1;
        if (r > 0) return 0; /* not ok: every answer will be None */
        if (self->comps[i].len > self->longest) self->longest = self->comps[i].len;
    }
    /* prefix[i]: the convolution of components 0..i-1; suffix[i]: of i..c-1 */
    double **prefix = calloc(c + 1, sizeof(double *)), **suffix = calloc(c + 1, sizeof(double *));
    int *prefix_len = calloc(c + 1, sizeof(int)), *suffix_len = calloc(c + 1, sizeof(int));
    int cannot = 0, failed = 0;
    if (!prefix || !suffix || !prefix_len || !suffix_len) failed = 1;
    static const double one = 1.0;
    for (int i = 0; !failed && i < c; i++) {
        const double *before = i ? prefix[i] : &one;
        int before_len = i ? prefix_len[i] : 1;
        prefix[i + 1] = convolve(before, before_len, self->comps[i].tot, self->comps[i].len, &prefix_len[i + 1], &cannot);
        if (!prefix[i + 1]) failed = 1;
    }
    for (int i = c - 1; !failed && i >= 0; i--) {
        const double *after = i + 1 < c ? suffix[i + 1] : &one;
        int after_len = i + 1 < c ? suffix_len[i + 1] : 1;
        suffix[i] = convolve(after, after_len, self->comps[i].tot, self->comps[i].len, &suffix_len[i], &cannot);
        if (!suffix[i]) failed = 1;
    }
    for (int i = 0; !failed && i < c; i++) {
        const double *a = i ? prefix[i] : &one, *b = i + 1 < c ? suffix[i + 1] : &one;
        int la = i ? prefix_len[i] : 1, lb = i + 1 < c ? suffix_len[i + 1] : 1;
        self->apart[i] = convolve(a, la, b, lb, &self->apart_len[i], &cannot);
        if (!self->apart[i]) failed = 1;
    }
    if (!failed) {
        if (c) {
            self->all = prefix[c];
            self->all_len = prefix_len[c];
            prefix[c] = NULL;
        } else {
            self->all = malloc(sizeof(double));
            if (self->all) {
                self->all[0] = 1.0;
                self->all_len = 1;
            } else {
                failed = 1;
            }
        }
    }
    if (prefix)
        for (int i = 0; i <= c; i++) free(prefix[i]);
    if (suffix)
        for (int i = 0; i <= c; i++) free(suffix[i]);
    free(prefix);
    free(suffix);
    free(prefix_len);
    free(suffix_len);
    if (failed && !cannot) {
        PyErr_NoMemory();
        return -1;
    }
    self->ok = !failed;
    return 0;
}

/* One share per group: (its float, component, group). */
typedef struct {
    double share;
    int component, group;
} Share;

static PyObject *Kept_contenders(Kept *self, PyObject *args) {
    PyObject *totals, *rows, *sizes, *room_list;
    int n_off, left;
    if (!PyArg_ParseTuple(args, "OOOO!ii", &totals, &rows, &sizes, &PyList_Type, &room_list, &n_off, &left))
        return NULL;
    if (!self->ok) Py_RETURN_NONE;
    Comp changed;
    memset(&changed, 0, sizeof(changed));
    int r = read_comp(totals, rows, sizes, &changed);
    if (r) {
        comp_free(&changed);
        if (r < 0) return NULL;
        Py_RETURN_NONE;
    }
    int room_len = (int)PyList_GET_SIZE(room_list);
    int longest = self->longest > changed.len ? self->longest : changed.len;
    if (room_len > longest) longest = room_len;
    if (room_len != self->all_len + changed.len - 1 || ((double)self->c + 4.0) * ((double)longest + 3.0) > MAX_WORK) {
        comp_free(&changed);
        Py_RETURN_NONE;
    }
    double *room = malloc(sizeof(double) * room_len);
    int n_shares = changed.n_groups + 1;
    for (int i = 0; i < self->c; i++) n_shares += self->comps[i].n_groups;
    Share *shares = malloc(sizeof(Share) * n_shares);
    double *rest = malloc(sizeof(double) * longest);
    PyObject *out = NULL;
    int count = 0, cannot = 0;
    if (!room || !shares || !rest) {
        PyErr_NoMemory();
        goto done;
    }
    for (int m = 0; m < room_len; m++) {
        room[m] = PyFloat_AsDouble(PyList_GET_ITEM(room_list, m));
        if (room[m] == -1.0 && PyErr_Occurred()) goto done;
    }
    for (int i = 0; i <= self->c; i++) {
        Comp *comp = i < self->c ? &self->comps[i] : &changed;
        double *others;
        int width;
        if (i < self->c) {
            others = convolve(self->apart[i], self->apart_len[i], changed.tot, changed.len, &width, &cannot);
            if (!others) {
                if (!cannot) PyErr_NoMemory();
                goto done;
            }
        } else {
            others = self->all;
            width = self->all_len;
        }
        double total = 0.0;
        for (int m = 0; m < comp->len; m++) {
            double s = 0.0;
            for (int k = 0; k < width; k++) s += others[k] * room[m + k];
            rest[m] = s;
            total += comp->tot[m] * s;
        }
        if (i < self->c) free(others);
        if (total == 0.0) {
            cannot = 1; /* no placement: the exact join says why */
            goto done;
        }
        for (int g = 0; g < comp->n_groups; g++) {
            const double *row = comp->rows + (size_t)g * comp->len;
            double s = 0.0;
            for (int m = 0; m < comp->len; m++) s += row[m] * rest[m];
            shares[count].share = s / (total * comp->sizes[g]);
            shares[count].component = i;
            shares[count].group = g;
            count++;
        }
    }
    if (n_off) {
        int full_len;
        double *full = convolve(self->all, self->all_len, changed.tot, changed.len, &full_len, &cannot);
        if (!full) {
            if (!cannot) PyErr_NoMemory();
            goto done;
        }
        double mined = 0.0, total = 0.0;
        for (int m = 0; m < full_len; m++) {
            double weight = full[m] * room[m];
            total += weight;
            if (left > m) mined += weight * (double)(left - m);
        }
        free(full);
        if (total == 0.0) {
            cannot = 1;
            goto done;
        }
        shares[count].share = mined / (total * n_off);
        shares[count].component = -1;
        shares[count].group = 0;
        count++;
    }
    if (count == 0) {
        cannot = 1; /* nothing to share: the exact join's answer (1) stands */
        goto done;
    }
    double least = INFINITY;
    for (int s = 0; s < count; s++)
        if (shares[s].share < least) least = shares[s].share;
    out = PyList_New(0);
    if (!out || least == 0.0) goto done;
    double limit = least * (1.0 + ROUNDING);
    for (int s = 0; s < count; s++) {
        if (shares[s].share > limit) continue;
        PyObject *where = Py_BuildValue("(ii)", shares[s].component, shares[s].group);
        if (!where || PyList_Append(out, where) < 0) {
            Py_XDECREF(where);
            Py_CLEAR(out);
            goto done;
        }
        Py_DECREF(where);
    }
done:
    free(room);
    free(shares);
    free(rest);
    comp_free(&changed);
    if (cannot && !PyErr_Occurred()) {
        Py_XDECREF(out);
        Py_RETURN_NONE;
    }
    return out;
}

static PyMethodDef Kept_methods[] = {
    {"contenders", (PyCFunction)Kept_contenders, METH_VARARGS,
     "contenders(totals, group_mines, sizes, room, n_off, left) -> [(component, group)], [] or None (see _lowest.c)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KeptType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "autoplay.solver._lowest.Kept",
    .tp_basicsize = sizeof(Kept),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The components a reveal leaves alone, in floats (see _lowest.c).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kept_init,
    .tp_dealloc = (destructor)Kept_dealloc,
    .tp_methods = Kept_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_lowest", "The float shares of autoplay.solver.lowest (see _lowest.c).", -1, NULL, NULL, NULL,
    NULL, NULL,
};

PyMODINIT_FUNC PyInit__lowest(void) {
    if (PyType_Ready(&KeptType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Kept", (PyObject *)&KeptType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
