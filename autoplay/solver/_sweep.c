/* The memoised sweep of autoplay.solver.count in C, on 128-bit integers.
 *
 * count._Enumerator counts a component's layouts group by group along a sweep order, memoised on what the
 * open numbers still need (see count.py's docstring).  Its arithmetic is all sums of products of small
 * binomials: exact integers that fit 128 bits in every expert game but not always on a huge board.  This
 * is the same recursion with the same memo, on native integers and plain arrays instead of Python tuples,
 * dicts and lists (the simulator spends a fifth of its time counting, most of it allocating those).  Any
 * sum or product that would overflow 128 bits makes run() return None, and the caller counts with the
 * Python sweep instead, so every answer is exact or not given.
 *
 * The Python class keeps the set-up (groups, sweep order, the terms and plans of every group) and hands
 * them over: Sweep(sizes, steps, terms, plans), run(deadline, clock) -> {key: [total, mines of group i,
 * ...]} exactly as _Enumerator.run returns it, counts(deadline, clock) -> the same regrouped as
 * count._by_watched regroups it (by watched mines, each a row per group), and set_need(i, terms_i, plans_i)
 * when one number's need changes (the sub-counts from groups up to i are forgotten; the others hold for
 * any need).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

/* One number a group touches (terms) or one number open after it (plan). */
typedef struct {
    int src;   /* where in the state its need is, or -1: not open yet, it needs ``fresh`` */
    int fresh;
    int extra; /* terms: room its other groups leave after this one; plan: 1 if this group touches it */
} Term;

/* What one sub-count holds: for each key (mines + 65536 * watched mines), a vector of ``len`` counts. */
typedef struct {
    int n_keys;
    int64_t *keys;
    u128 *vecs; /* n_keys rows of len */
} Result;

/* The memo of one group: the sub-counts from it, by the state (what the open numbers still need). */
typedef struct {
    int width;
    size_t cap, used;
    int *states;      /* cap * width */
    uint64_t *hashes; /* cap */
    Result **vals;    /* cap, NULL: empty slot */
} Table;

typedef struct {
    int n_terms, n_plan, size;
    int64_t step;
    Term *terms;
    Term *plan;
} Level;

typedef struct {
    PyObject_HEAD
    int k;
    Level *levels;
    Table *tables; /* k of them */
    /* run state */
    int failed; /* 0 ok, 1 overflow, 2 out of time, 3 Python error */
    long nodes;
    double deadline;
    PyObject *clock;
} Sweep;

static PyObject *OutOfTime;
/* COMB[n][x]: the ways to put x mines in a group of n cells (a group holds at most 64 cells here). */
static u128 COMB[65][65];
static Result TERMINAL_RESULT;
static int64_t TERMINAL_KEY = 0;
static u128 TERMINAL_VEC = 1;

#define CHECK_EVERY 256
/* Keys are mines + WATCH * watched mines (count._WATCH). */
#define WATCH ((int64_t)1 << 16)

static uint64_t hash_state(const int *state, int width) {
    uint64_t h = 1469598103934665603ULL;
    for (int t = 0; t < width; t++) {
        h ^= (uint64_t)(uint32_t)state[t];
        h *= 1099511628211ULL;
    }
    return h ? h : 1;
}

static void table_free_values(Table *table) {
    if (!table->vals) return;
    for (size_t s = 0; s < table->cap; s++) {
        if (table->vals[s]) {
            free(table->vals[s]);
            table->vals[s] = NULL;
        }
    }
    table->used = 0;
}

static void table_release(Table *table) {
    table_free_values(table);
    free(table->states);
    free(table->hashes);
    free(table->vals);
    table->states = NULL;
    table->hashes = NULL;
    table->vals = NULL;
    table->cap = 0;
}

static Result *table_get(Table *table, const int *state, uint64_t h) {
    if (!table->cap) return NULL;
    size_t mask = table->cap - 1;
    for (size_t s = h & mask;; s = (s + 1) & mask) {
        if (!table->vals[s]) return NULL;
        if (table->hashes[s] == h && memcmp(table->states + s * table->width, state, sizeof(int) * table->width) == 0)
            return table->vals[s];
    }
}

static int table_grow(Table *table) {
    size_t cap = table->cap ? table->cap * 2 : 16;
    int *states = malloc(sizeof(int) * cap * (table->width ? table->width : 1));
    uint64_t *hashes = malloc(sizeof(uint64_t) * cap);
    Result **vals = calloc(cap, sizeof(Result *));
    if (!states || !hashes || !vals) {
        free(states);
        free(hashes);
        free(vals);
        return -1;
    }
    size_t mask = cap - 1;
    for (size_t s = 0; s < table->cap; s++) {
        if (!table->vals[s]) continue;
        size_t d = table->hashes[s] & mask;
        while (vals[d]) d = (d + 1) & mask;
        vals[d] = table->vals[s];
        hashes[d] = table->hashes[s];
        memcpy(states + d * table->width, table->states + s * table->width, sizeof(int) * table->width);
    }
    free(table->states);
    free(table->hashes);
    free(table->vals);
    table->states = states;
    table->hashes = hashes;
    table->vals = vals;
    table->cap = cap;
    return 0;
}

static int table_put(Table *table, const int *state, uint64_t h, Result *value) {
    if ((table->used + 1) * 4 > table->cap * 3 && table_grow(table) < 0) return -1;
    size_t mask = table->cap - 1;
    size_t s = h & mask;
    while (table->vals[s]) s = (s + 1) & mask;
    table->vals[s] = value;
    table->hashes[s] = h;
    memcpy(table->states + s * table->width, state, sizeof(int) * table->width);
    table->used++;
    return 0;
}

static int over_deadline(Sweep *self) {
    PyObject *now = PyObject_CallNoArgs(self->clock);
    if (!now) return -1;
    double t = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (t == -1.0 && PyErr_Occurred()) return -1;
    return t > self->deadline;
}

/* The sub-count from group i with the open numbers needing ``state``; NULL when the run failed. */
static Result *solve(Sweep *self, int i, const int *state) {
    if (i == self->k) return &TERMINAL_RESULT;
    Table *table = &self->tables[i];
    uint64_t h = hash_state(state, table->width);
    Result *found = table_get(table, state, h);
    if (found) return found;
    self->nodes++;
    if (self->clock != Py_None && self->nodes % CHECK_EVERY == 0) {
        int late = over_deadline(self);
        if (late) {
            self->failed = late < 0 ? 3 : 2;
            return NULL;
        }
    }
    Level *level = &self->levels[i];
    int lo = 0, hi = level->size;
    for (int t = 0; t < level->n_terms; t++) {
        Term *term = &level->terms[t];
        int need = term->src < 0 ? term->fresh : state[term->src];
        if (need - term->extra > lo) lo = need - term->extra;
        if (need < hi) hi = need;
    }
    int n_plan = level->n_plan;
    int before[n_plan > 0 ? n_plan : 1];
    int next_state[n_plan > 0 ? n_plan : 1];
    for (int t = 0; t < n_plan; t++) {
        Term *p = &level->plan[t];
        before[t] = p->src < 0 ? p->fresh : state[p->src];
    }
    int len = self->k - i + 1; /* this group's vectors: total, its mines, then those of the groups after it */
    int n_keys = 0, cap_keys = 0;
    int64_t *keys = NULL;
    u128 *vecs = NULL;
    for (int x = lo; x <= hi; x++) {
        for (int t = 0; t < n_plan; t++) next_state[t] = before[t] - x * level->plan[t].extra;
        Result *below = solve(self, i + 1, next_state);
        if (!below) {
            free(keys);
            free(vecs);
            return NULL;
        }
        if (!below->n_keys) continue;
        u128 ways = COMB[level->size][x];
        int64_t shift = (int64_t)x * level->step;
        for (int b = 0; b < below->n_keys; b++) {
            int64_t key = below->keys[b] + shift;
            const u128 *vec = below->vecs + (size_t)b * (len - 1);
            int slot = -1;
            for (int s = 0; s < n_keys; s++) {
                if (keys[s] == key) {
                    slot = s;
                    break;
                }
            }
            u128 first, with_x;
            if (__builtin_mul_overflow(ways, vec[0], &first) || __builtin_mul_overflow(first, (u128)x, &with_x))
                goto overflow;
            if (slot < 0) {
                if (n_keys == cap_keys) {
                    cap_keys = cap_keys ? cap_keys * 2 : 4;
                    int64_t *more_keys = realloc(keys, sizeof(int64_t) * cap_keys);
                    if (!more_keys) goto no_memory;
                    keys = more_keys;
                    u128 *more_vecs = realloc(vecs, sizeof(u128) * cap_keys * len);
                    if (!more_vecs) goto no_memory;
                    vecs = more_vecs;
                }
                slot = n_keys++;
                keys[slot] = key;
                u128 *acc = vecs + (size_t)slot * len;
                acc[0] = first;
                acc[1] = with_x;
                for (int t = 1; t < len - 1; t++) {
                    if (__builtin_mul_overflow(ways, vec[t], &acc[t + 1])) goto overflow;
                }
            } else {
                u128 *acc = vecs + (size_t)slot * len;
                if (__builtin_add_overflow(acc[0], first, &acc[0]) || __builtin_add_overflow(acc[1], with_x, &acc[1]))
                    goto overflow;
                for (int t = 1; t < len - 1; t++) {
                    u128 term;
                    if (__builtin_mul_overflow(ways, vec[t], &term) || __builtin_add_overflow(acc[t + 1], term, &acc[t + 1]))
                        goto overflow;
                }
            }
        }
    }
    {
        Result *out = malloc(sizeof(Result) + sizeof(int64_t) * n_keys + sizeof(u128) * (size_t)n_keys * len + 16);
        if (!out) goto no_memory;
        out->n_keys = n_keys;
        /* the vectors first, 16-byte aligned right after the header's padding, then the keys */
        uintptr_t base = ((uintptr_t)(out + 1) + 15) & ~(uintptr_t)15;
        out->vecs = (u128 *)base;
        out->keys = (int64_t *)(out->vecs + (size_t)n_keys * len);
        if (n_keys) {
            memcpy(out->vecs, vecs, sizeof(u128) * (size_t)n_keys * len);
            memcpy(out->keys, keys, sizeof(int64_t) * n_keys);
        }
        free(keys);
        free(vecs);
        if (table_put(table, state, h, out) < 0) {
            free(out);
            PyErr_NoMemory();
            self->failed = 3;
            return NULL;
        }
        return out;
    }
overflow:
    free(keys);
    free(vecs);
    self->failed = 1;
    return NULL;
no_memory:
    free(keys);
    free(vecs);
    PyErr_NoMemory();
    self->failed = 3;
    return NULL;
}

static PyObject *u128_to_long(u128 v) {
    if ((v >> 64) == 0) return PyLong_FromUnsignedLongLong((unsigned long long)v);
    PyObject *high = PyLong_FromUnsignedLongLong((unsigned long long)(v >> 64));
    PyObject *low = PyLong_FromUnsignedLongLong((unsigned long long)v);
    PyObject *bits = PyLong_FromLong(64);
    PyObject *out = NULL;
    if (high && low && bits) {
        PyObject *shifted = PyNumber_Lshift(high, bits);
        if (shifted) {
            out = PyNumber_Or(shifted, low);
            Py_DECREF(shifted);
        }
    }
    Py_XDECREF(high);
    Py_XDECREF(low);
    Py_XDECREF(bits);
    return out;
}

/* Read a list of (int, int, int) tuples into Terms. */
static int read_terms(PyObject *items, Term **out, int *count) {
    PyObject *seq = PySequence_Fast(items, "terms must be a sequence");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    Term *terms = malloc(sizeof(Term) * (n ? n : 1));
    if (!terms) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t t = 0; t < n; t++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, t);
        int src, fresh, extra;
        if (!PyArg_ParseTuple(item, "iii", &src, &fresh, &extra)) {
            free(terms);
            Py_DECREF(seq);
            return -1;
        }
        terms[t].src = src;
        terms[t].fresh = fresh;
        terms[t].extra = extra;
    }
    Py_DECREF(seq);
    free(*out);
    *out = terms;
    *count = (int)n;
    return 0;
}

static void sweep_release(Sweep *self) {
    if (self->tables) {
        for (int i = 0; i < self->k; i++) table_release(&self->tables[i]);
        free(self->tables);
        self->tables = NULL;
    }
    if (self->levels) {
        for (int i = 0; i < self->k; i++) {
            free(self->levels[i].terms);
            free(self->levels[i].plan);
        }
        free(self->levels);
        self->levels = NULL;
    }
}

static void Sweep_dealloc(Sweep *self) {
    sweep_release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Sweep_init(Sweep *self, PyObject *args, PyObject *kwds) {
    PyObject *sizes, *steps, *terms, *plans;
    static char *names[] = {"sizes", "steps", "terms", "plans", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO", names, &sizes, &steps, &terms, &plans)) return -1;
    sweep_release(self);
    Py_ssize_t k = PySequence_Length(sizes);
    if (k < 0) return -1;
    if (PySequence_Length(steps) != k || PySequence_Length(terms) != k || PySequence_Length(plans) != k) {
        PyErr_SetString(PyExc_ValueError, "sizes, steps, terms and plans must have one entry per group");
        return -1;
    }
    self->k = (int)k;
    self->levels = calloc(k ? k : 1, sizeof(Level));
    self->tables = calloc(k ? k : 1, sizeof(Table));
    if (!self->levels || !self->tables) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        Level *level = &self->levels[i];
        PyObject *size = PySequence_GetItem(sizes, i);
        PyObject *step = size ? PySequence_GetItem(steps, i) : NULL;
        PyObject *group_terms = step ? PySequence_GetItem(terms, i) : NULL;
        PyObject *plan = group_terms ? PySequence_GetItem(plans, i) : NULL;
        int ok = plan != NULL;
        if (ok) {
            level->size = (int)PyLong_AsLong(size);
            level->step = PyLong_AsLongLong(step);
            ok = !PyErr_Occurred() && read_terms(group_terms, &level->terms, &level->n_terms) == 0 &&
                 read_terms(plan, &level->plan, &level->n_plan) == 0;
        }
        Py_XDECREF(size);
        Py_XDECREF(step);
        Py_XDECREF(group_terms);
        Py_XDECREF(plan);
        if (!ok) return -1;
        if (level->size < 0 || level->size > 64) {
            PyErr_SetString(PyExc_ValueError, "a group holds 0 to 64 cells here");
            return -1;
        }
        self->tables[i].width = i ? self->levels[i - 1].n_plan : 0;
    }
    return 0;
}

/* Run the sweep from the first group; NULL with failed set (1: past 128 bits, no Python error) or an error. */
static Result *run_top(Sweep *self, PyObject *args) {
    double deadline = 0.0;
    PyObject *deadline_obj, *clock;
    if (!PyArg_ParseTuple(args, "OO", &deadline_obj, &clock)) return NULL;
    if (deadline_obj != Py_None) {
        deadline = PyFloat_AsDouble(deadline_obj);
        if (deadline == -1.0 && PyErr_Occurred()) return NULL;
    }
    self->deadline = deadline;
    self->clock = deadline_obj == Py_None ? Py_None : clock;
    self->failed = 0;
    self->nodes = 0;
    int no_state = 0;
    Result *top = solve(self, 0, &no_state);
    self->clock = NULL;
    if (!top && self->failed == 2) PyErr_SetNone(OutOfTime);
    return top;
}

static PyObject *Sweep_run(Sweep *self, PyObject *args) {
    Result *top = run_top(self, args);
    if (!top) {
        if (self->failed == 1) Py_RETURN_NONE;
        return NULL;
    }
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    int len = self->k + 1;
    for (int b = 0; b < top->n_keys; b++) {
        PyObject *vec = PyList_New(len);
        PyObject *key = vec ? PyLong_FromLongLong(top->keys[b]) : NULL;
        if (!key) {
            Py_XDECREF(vec);
            Py_DECREF(out);
            return NULL;
        }
        for (int t = 0; t < len; t++) {
            PyObject *v = u128_to_long(top->vecs[(size_t)b * len + t]);
            if (!v) {
                Py_DECREF(vec);
                Py_DECREF(key);
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(vec, t, v);
        }
        int err = PyDict_SetItem(out, key, vec);
        Py_DECREF(key);
        Py_DECREF(vec);
        if (err < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* A Python int with bit m set for every m < len where values[m * stride] is not zero. */
static PyObject *support_of(const u128 *values, int len, size_t stride) {
    unsigned char bytes[(len + 7) / 8 + 1];
    memset(bytes, 0, sizeof(bytes));
    for (int m = 0; m < len; m++) {
        if (values[(size_t)m * stride]) bytes[m / 8] |= (unsigned char)(1u << (m % 8));
    }
    return _PyLong_FromByteArray(bytes, sizeof(bytes), 1, 0);
}

/* A tuple of the len values values[0], values[stride], ... as Python ints. */
static PyObject *tuple_of(const u128 *values, int len, size_t stride) {
    PyObject *out = PyTuple_New(len);
    if (!out) return NULL;
    for (int m = 0; m < len; m++) {
        PyObject *v = u128_to_long(values[(size_t)m * stride]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, m, v);
    }
    return out;
}

static int compare_keys(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* count._by_watched on the sweep's own answer: {watched mines, ascending: (totals by mines, each group's mines
 * by mines, the places where totals are not zero, the same for each group)}. */
static PyObject *Sweep_counts(Sweep *self, PyObject *args) {
    Result *top = run_top(self, args);
    if (!top) {
        if (self->failed == 1) Py_RETURN_NONE;
        return NULL;
    }
    int len = self->k + 1, n = top->n_keys;
    /* the keys sorted (watched mines, then mines), with where each one's vector is */
    int64_t order[n > 0 ? 2 * n : 1];
    for (int b = 0; b < n; b++) {
        order[2 * b] = top->keys[b];
        order[2 * b + 1] = b;
    }
    qsort(order, n, 2 * sizeof(int64_t), compare_keys);
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    for (int first = 0; first < n;) {
        int64_t seen = order[2 * first] / WATCH;
        int last = first;
        while (last + 1 < n && order[2 * (last + 1)] / WATCH == seen) last++;
        int width = (int)(order[2 * last] % WATCH) + 1; /* mines 0 .. the largest with a count */
        u128 *table = calloc((size_t)width * len, sizeof(u128)); /* row m: the vector of mines m, or zeros */
        if (!table) {
            Py_DECREF(out);
            return PyErr_NoMemory();
        }
        for (int b = first; b <= last; b++) {
            int m = (int)(order[2 * b] % WATCH);
            memcpy(table + (size_t)m * len, top->vecs + (size_t)order[2 * b + 1] * len, sizeof(u128) * len);
        }
        PyObject *totals = tuple_of(table, width, len);
        PyObject *rows = PyTuple_New(self->k);
        PyObject *supports = PyTuple_New(self->k);
        PyObject *total_support = support_of(table, width, len);
        int ok = totals && rows && supports && total_support;
        for (int g = 0; ok && g < self->k; g++) {
            PyObject *row = tuple_of(table + 1 + g, width, len);
            PyObject *support = row ? support_of(table + 1 + g, width, len) : NULL;
            if (!support) {
                Py_XDECREF(row);
                ok = 0;
                break;
            }
            PyTuple_SET_ITEM(rows, g, row);
            PyTuple_SET_ITEM(supports, g, support);
        }
        free(table);
        PyObject *entry = ok ? PyTuple_Pack(4, totals, rows, total_support, supports) : NULL;
        PyObject *key = entry ? PyLong_FromLongLong(seen) : NULL;
        int err = key ? PyDict_SetItem(out, key, entry) : -1;
        Py_XDECREF(totals);
        Py_XDECREF(rows);
        Py_XDECREF(supports);
        Py_XDECREF(total_support);
        Py_XDECREF(entry);
        Py_XDECREF(key);
        if (err < 0) {
            Py_DECREF(out);
            return NULL;
        }
        first = last + 1;
    }
    return out;
}

static PyObject *Sweep_set_need(Sweep *self, PyObject *args) {
    int i;
    PyObject *terms, *plan;
    if (!PyArg_ParseTuple(args, "iOO", &i, &terms, &plan)) return NULL;
    if (i < 0 || i >= self->k) {
        PyErr_SetString(PyExc_IndexError, "no such group");
        return NULL;
    }
    Level *level = &self->levels[i];
    int n_plan = level->n_plan;
    if (read_terms(terms, &level->terms, &level->n_terms) < 0 || read_terms(plan, &level->plan, &level->n_plan) < 0)
        return NULL;
    if (level->n_plan != n_plan) {
        PyErr_SetString(PyExc_ValueError, "a group's plan keeps its length");
        return NULL;
    }
    for (int j = 0; j <= i; j++) table_free_values(&self->tables[j]);
    Py_RETURN_NONE;
}

static PyMethodDef Sweep_methods[] = {
    {"run", (PyCFunction)Sweep_run, METH_VARARGS,
     "run(deadline, clock) -> {key: counts} as count._Enumerator.run, or None when a count passes 128 bits."},
    {"counts", (PyCFunction)Sweep_counts, METH_VARARGS,
     "counts(deadline, clock) -> {watched mines: (totals, group mines, total support, group supports)} or None."},
    {"set_need", (PyCFunction)Sweep_set_need, METH_VARARGS,
     "set_need(i, terms, plan): group i's new terms and plan; the sub-counts from groups 0..i are forgotten."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SweepType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "autoplay.solver._sweep.Sweep",
    .tp_basicsize = sizeof(Sweep),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The memoised group sweep of count._Enumerator on 128-bit integers.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Sweep_init,
    .tp_dealloc = (destructor)Sweep_dealloc,
    .tp_methods = Sweep_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_sweep", "count._Enumerator's sweep in C (see _sweep.c).", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__sweep(void) {
    for (int n = 0; n <= 64; n++) {
        COMB[n][0] = 1;
        for (int x = 1; x <= n; x++) COMB[n][x] = COMB[n - 1][x - 1] + (x < n ? COMB[n - 1][x] : 0);
    }
    TERMINAL_RESULT.n_keys = 1;
    TERMINAL_RESULT.keys = &TERMINAL_KEY;
    TERMINAL_RESULT.vecs = &TERMINAL_VEC;
    if (PyType_Ready(&SweepType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    OutOfTime = PyErr_NewException("autoplay.solver._sweep.OutOfTime", NULL, NULL);
    if (!OutOfTime || PyModule_AddObjectRef(m, "OutOfTime", OutOfTime) < 0 ||
        PyModule_AddObjectRef(m, "Sweep", (PyObject *)&SweepType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
