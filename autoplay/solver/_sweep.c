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
 * prepare(constraints, watched, early) makes what count._prepare and _Enumerator.__init__ make (the same
 * groups in the same sweep order, the terms and plans of every group) and returns (the groups in sweep
 * order, a Sweep).  sweep.counts(deadline, clock) -> {watched mines: (totals by mines, each group's mines
 * by mines, where the totals are not zero, the same for each group)} as count._by_watched makes them, or
 * None past 128 bits; sweep.set_need(c, need) when number c's need changes (the depth-3 search's
 * siblings: only the sub-counts from the groups up to c's first are forgotten; the others hold for any
 * need).  Sweep(sizes, steps, terms, plans) and sweep.run(deadline, clock) take and give what the Python
 * enumerator holds and returns, so the tests compare the two sweeps on one set-up.
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
    int number; /* which number (constraint) it is, or -1 where the set-up came from Python */
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
    int *first;    /* made by prepare(): each number's first group in the sweep, so its need can change */
    int n_numbers;
    /* run state */
    int failed; /* 0 ok, 1 overflow, 2 out of time, 3 Python error */
    long nodes;
    double deadline;
    PyObject *clock;
} Sweep;

static PyObject *OutOfTime;
static PyTypeObject SweepType;
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

/* Give the table new slot arrays of cap slots (or none), freeing the old ones. */
static void table_swap(Table *table, int *states, uint64_t *hashes, Result **vals, size_t cap) {
    free(table->states);
    free(table->hashes);
    free(table->vals);
    table->states = states;
    table->hashes = hashes;
    table->vals = vals;
    table->cap = cap;
}

static void table_release(Table *table) {
    table_free_values(table);
    table_swap(table, NULL, NULL, NULL, 0);
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
    table_swap(table, states, hashes, vals, cap);
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
        terms[t].number = -1;
    }
    Py_DECREF(seq);
    free(*out);
    *out = terms;
    *count = (int)n;
    return 0;
}

static void sweep_release(Sweep *self) {
    free(self->first);
    self->first = NULL;
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
    if (len <= 64) { /* every component of a real board: one machine word */
        uint64_t mask = 0;
        for (int m = 0; m < len; m++)
            if (values[(size_t)m * stride]) mask |= (uint64_t)1 << m;
        return PyLong_FromUnsignedLongLong(mask);
    }
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
    int c, need;
    if (!PyArg_ParseTuple(args, "ii", &c, &need)) return NULL;
    if (!self->first || c < 0 || c >= self->n_numbers) {
        PyErr_SetString(PyExc_IndexError, "no such number in a sweep made by prepare()");
        return NULL;
    }
    int i = self->first[c];
    Level *level = &self->levels[i];
    for (int t = 0; t < level->n_terms; t++)
        if (level->terms[t].number == c) level->terms[t].fresh = need;
    for (int t = 0; t < level->n_plan; t++)
        if (level->plan[t].number == c) level->plan[t].fresh = need;
    for (int j = 0; j <= i; j++) table_free_values(&self->tables[j]);
    Py_RETURN_NONE;
}

/* ---- the set-up: count._prepare and _Enumerator.__init__, the same groups in the same order ---- */

typedef struct {
    long *cells; /* each number's cells as given, then the watched cells */
    int *start;  /* number k's cells are cells[start[k] .. start[k + 1]) */
    int *needs;
    int n;       /* numbers, the watched pseudo-number included */
} Numbers;

/* An open-addressing map from a cell to its place in the order cells are first met. */
typedef struct {
    size_t cap;
    long *keys;
    int *vals; /* -1: empty */
} CellMap;

static int cellmap_init(CellMap *map, size_t expected) {
    map->cap = 16;
    while (map->cap < expected * 2) map->cap *= 2;
    map->keys = malloc(sizeof(long) * map->cap);
    map->vals = malloc(sizeof(int) * map->cap);
    if (!map->keys || !map->vals) return -1;
    for (size_t s = 0; s < map->cap; s++) map->vals[s] = -1;
    return 0;
}

static int *cellmap_slot(CellMap *map, long key) {
    size_t mask = map->cap - 1;
    for (size_t s = ((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> 20 & mask;; s = (s + 1) & mask) {
        if (map->vals[s] < 0 || map->keys[s] == key) {
            map->keys[s] = key;
            return &map->vals[s];
        }
    }
}

static int compare_ints(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int compare_longs(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Sorted unique ints in place; returns the new length. */
static int sort_unique(int *values, int n) {
    qsort(values, n, sizeof(int), compare_ints);
    int out = 0;
    for (int t = 0; t < n; t++)
        if (!out || values[out - 1] != values[t]) values[out++] = values[t];
    return out;
}

/* Breadth-first order from start over adjacency lists; stamp/seen avoid clearing; returns the count. */
static int breadth_first(int start, int *const *adjacent, const int *degree, int *seen, int stamp, int *out) {
    int head = 0, n = 0;
    seen[start] = stamp;
    out[n++] = start;
    while (head < n) {
        int g = out[head++];
        for (int t = 0; t < degree[g]; t++) {
            int h = adjacent[g][t];
            if (seen[h] != stamp) {
                seen[h] = stamp;
                out[n++] = h;
            }
        }
    }
    return n;
}

/* Everything prepare() allocates, freed in one place. */
typedef struct {
    Numbers nums;
    CellMap map;
    long *cell_of;     /* dense cell -> cell */
    int *ks_start, *ks; /* dense cell d's numbers: ks[ks_start[d] .. ks_start[d + 1]) */
    int *group_of;     /* dense cell -> group */
    int *group_first;  /* group -> its first dense cell (its numbers are that cell's) */
    int *group_size;
    int *cons_start, *cons_groups; /* number k's groups, sorted: cons_groups[cons_start[k] .. cons_start[k + 1]) */
    int *lists_start, *lists; /* group -> the numbers whose groups include it */
    int **adjacent;
    int *degree;
    int *seen, *order, *rank, *bfs, *other, *placed;
    int *is_watched;
    int *ranks; /* number k's ranks, sorted, as cons_groups */
    int *last;
    int *touch_start, *touch_c, *touch_after, *touch_fill;
    int *open_start, *open;  /* open_at[i] = open[open_start[i] .. open_start[i + 1]) */
    int *active;
} Setup;

static void setup_free(Setup *u, int n_groups) {
    free(u->nums.cells);
    free(u->nums.start);
    free(u->nums.needs);
    free(u->map.keys);
    free(u->map.vals);
    free(u->cell_of);
    free(u->ks_start);
    free(u->ks);
    free(u->group_of);
    free(u->group_first);
    free(u->group_size);
    free(u->cons_start);
    free(u->cons_groups);
    free(u->lists_start);
    free(u->lists);
    if (u->adjacent)
        for (int g = 0; g < n_groups; g++) free(u->adjacent[g]);
    free(u->adjacent);
    free(u->degree);
    free(u->seen);
    free(u->order);
    free(u->rank);
    free(u->bfs);
    free(u->other);
    free(u->placed);
    free(u->is_watched);
    free(u->ranks);
    free(u->last);
    free(u->touch_start);
    free(u->touch_c);
    free(u->touch_after);
    free(u->touch_fill);
    free(u->open_start);
    free(u->open);
    free(u->active);
}

/* Position of c in the sorted run open[lo .. hi), or -1. */
static int open_index(const int *open, int lo, int hi, int c) {
    int a = lo, b = hi;
    while (a < b) {
        int mid = (a + b) / 2;
        if (open[mid] < c)
            a = mid + 1;
        else
            b = mid;
    }
    return a < hi && open[a] == c ? a - lo : -1;
}

static PyObject *sweep_prepare(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *constraints, *watched;
    int early;
    if (!PyArg_ParseTuple(args, "O!O!i", &PyList_Type, &constraints, &PyTuple_Type, &watched, &early)) return NULL;
    Setup u;
    memset(&u, 0, sizeof(u));
    int n_groups = 0;
    Sweep *sweep = NULL;
    PyObject *ordered = NULL, *result = NULL;
    int n_cons = (int)PyList_GET_SIZE(constraints);
    int n_watched = (int)PyTuple_GET_SIZE(watched);
    int n_lists = n_cons + (n_watched > 0);
    if (early >= n_cons) {
        PyErr_SetString(PyExc_IndexError, "early names no number");
        return NULL;
    }
    /* read the numbers, then the watched cells as one more list */
    u.nums.n = n_lists;
    u.nums.start = malloc(sizeof(int) * (n_lists + 1));
    u.nums.needs = malloc(sizeof(int) * (n_cons ? n_cons : 1));
    int total_cells = n_watched;
    for (int k = 0; k < n_cons; k++) {
        PyObject *item = PyList_GET_ITEM(constraints, k);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(item, 0))) {
            PyErr_SetString(PyExc_TypeError, "each number is (cells, mines)");
            goto fail;
        }
        total_cells += (int)PyTuple_GET_SIZE(PyTuple_GET_ITEM(item, 0));
    }
    u.nums.cells = malloc(sizeof(long) * (total_cells ? total_cells : 1));
    if (!u.nums.start || !u.nums.needs || !u.nums.cells) goto no_memory;
    int at = 0;
    for (int k = 0; k < n_lists; k++) {
        u.nums.start[k] = at;
        PyObject *cells = k < n_cons ? PyTuple_GET_ITEM(PyList_GET_ITEM(constraints, k), 0) : watched;
        if (k < n_cons) {
            u.nums.needs[k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(PyList_GET_ITEM(constraints, k), 1));
            if (PyErr_Occurred()) goto fail;
        }
        for (Py_ssize_t t = 0; t < PyTuple_GET_SIZE(cells); t++) {
            u.nums.cells[at++] = PyLong_AsLong(PyTuple_GET_ITEM(cells, t));
            if (PyErr_Occurred()) goto fail;
        }
    }
    u.nums.start[n_lists] = at;
    /* cells in the order first met, each with the lists (numbers) it is in: count._group_cells */
    if (cellmap_init(&u.map, total_cells) < 0) goto no_memory;
    u.cell_of = malloc(sizeof(long) * (total_cells ? total_cells : 1));
    int *dense = malloc(sizeof(int) * (total_cells ? total_cells : 1)); /* each listed cell's dense index */
    if (!u.cell_of || !dense) {
        free(dense);
        goto no_memory;
    }
    int n_cells = 0;
    for (int t = 0; t < total_cells; t++) {
        int *slot = cellmap_slot(&u.map, u.nums.cells[t]);
        if (*slot < 0) {
            *slot = n_cells;
            u.cell_of[n_cells++] = u.nums.cells[t];
        }
        dense[t] = *slot;
    }
    u.ks_start = calloc(n_cells + 1, sizeof(int));
    u.ks = malloc(sizeof(int) * (total_cells ? total_cells : 1));
    int *fill = calloc(n_cells + 1, sizeof(int));
    if (!u.ks_start || !u.ks || !fill) {
        free(dense);
        free(fill);
        goto no_memory;
    }
    for (int t = 0; t < total_cells; t++) u.ks_start[dense[t] + 1]++;
    for (int d = 0; d < n_cells; d++) u.ks_start[d + 1] += u.ks_start[d];
    for (int k = 0; k < n_lists; k++)
        for (int t = u.nums.start[k]; t < u.nums.start[k + 1]; t++) {
            int d = dense[t];
            u.ks[u.ks_start[d] + fill[d]++] = k;
        }
    free(fill);
    /* groups: cells in exactly the same lists, in the order their first cell was met */
    u.group_of = malloc(sizeof(int) * (n_cells ? n_cells : 1));
    u.group_first = malloc(sizeof(int) * (n_cells ? n_cells : 1));
    u.group_size = calloc(n_cells ? n_cells : 1, sizeof(int));
    size_t gcap = 16;
    while (gcap < (size_t)n_cells * 2) gcap *= 2;
    int *gtable = malloc(sizeof(int) * gcap);
    if (!u.group_of || !u.group_first || !u.group_size || !gtable) {
        free(dense);
        free(gtable);
        goto no_memory;
    }
    for (size_t s = 0; s < gcap; s++) gtable[s] = -1;
    for (int d = 0; d < n_cells; d++) {
        uint64_t h = 1469598103934665603ULL;
        for (int t = u.ks_start[d]; t < u.ks_start[d + 1]; t++) h = (h ^ (uint64_t)u.ks[t]) * 1099511628211ULL;
        size_t s = h & (gcap - 1);
        int len = u.ks_start[d + 1] - u.ks_start[d];
        for (;; s = (s + 1) & (gcap - 1)) {
            int g = gtable[s];
            if (g < 0) {
                gtable[s] = n_groups;
                u.group_first[n_groups] = d;
                u.group_of[d] = n_groups++;
                break;
            }
            int e = u.group_first[g];
            if (u.ks_start[e + 1] - u.ks_start[e] == len &&
                !memcmp(u.ks + u.ks_start[e], u.ks + u.ks_start[d], sizeof(int) * len)) {
                u.group_of[d] = g;
                break;
            }
        }
        u.group_size[u.group_of[d]]++;
    }
    free(gtable);
    /* each list's groups, sorted and unique */
    u.cons_start = malloc(sizeof(int) * (n_lists + 1));
    u.cons_groups = malloc(sizeof(int) * (total_cells ? total_cells : 1));
    if (!u.cons_start || !u.cons_groups) {
        free(dense);
        goto no_memory;
    }
    at = 0;
    for (int k = 0; k < n_lists; k++) {
        u.cons_start[k] = at;
        int begin = at;
        for (int t = u.nums.start[k]; t < u.nums.start[k + 1]; t++) u.cons_groups[at++] = u.group_of[dense[t]];
        at = begin + sort_unique(u.cons_groups + begin, at - begin);
    }
    u.cons_start[n_lists] = at;
    free(dense);
    /* the sweep order: count._sweep_order */
    u.lists_start = calloc(n_groups + 1, sizeof(int));
    u.lists = malloc(sizeof(int) * (at ? at : 1));
    u.adjacent = calloc(n_groups ? n_groups : 1, sizeof(int *));
    u.degree = calloc(n_groups ? n_groups : 1, sizeof(int));
    u.seen = calloc(n_groups ? n_groups : 1, sizeof(int));
    u.order = malloc(sizeof(int) * (n_groups ? n_groups : 1));
    u.rank = malloc(sizeof(int) * (n_groups ? n_groups : 1));
    u.bfs = malloc(sizeof(int) * (n_groups ? n_groups : 1));
    u.other = malloc(sizeof(int) * (n_groups ? n_groups : 1));
    u.placed = calloc(n_groups ? n_groups : 1, sizeof(int));
    int *lfill = calloc(n_groups + 1, sizeof(int));
    if (!u.lists_start || !u.lists || !u.adjacent || !u.degree || !u.seen || !u.order || !u.rank || !u.bfs ||
        !u.other || !u.placed || !lfill) {
        free(lfill);
        goto no_memory;
    }
    for (int t = 0; t < at; t++) u.lists_start[u.cons_groups[t] + 1]++;
    for (int g = 0; g < n_groups; g++) u.lists_start[g + 1] += u.lists_start[g];
    for (int k = 0; k < n_lists; k++)
        for (int t = u.cons_start[k]; t < u.cons_start[k + 1]; t++) {
            int g = u.cons_groups[t];
            u.lists[u.lists_start[g] + lfill[g]++] = k;
        }
    free(lfill);
    for (int g = 0; g < n_groups; g++) {
        int size = 0;
        for (int t = u.lists_start[g]; t < u.lists_start[g + 1]; t++) {
            int k = u.lists[t];
            size += u.cons_start[k + 1] - u.cons_start[k];
        }
        u.adjacent[g] = malloc(sizeof(int) * (size ? size : 1));
        if (!u.adjacent[g]) goto no_memory;
        int n = 0;
        for (int t = u.lists_start[g]; t < u.lists_start[g + 1]; t++) {
            int k = u.lists[t];
            for (int v = u.cons_start[k]; v < u.cons_start[k + 1]; v++) u.adjacent[g][n++] = u.cons_groups[v];
        }
        u.degree[g] = sort_unique(u.adjacent[g], n);
    }
    int stamp = 0, placed_count = 0;
    int early_first = early >= 0 ? u.cons_groups[u.cons_start[early]] : -1;
    for (int s = early >= 0 ? -1 : 0; s < n_groups; s++) {
        int start = s < 0 ? early_first : s;
        if (u.placed[start]) continue;
        int n = breadth_first(start, u.adjacent, u.degree, u.seen, ++stamp, u.bfs);
        n = breadth_first(u.bfs[n - 1], u.adjacent, u.degree, u.seen, ++stamp, u.bfs);
        int *piece = u.bfs;
        if (early >= 0 && start == early_first) {
            breadth_first(piece[n - 1], u.adjacent, u.degree, u.seen, ++stamp, u.other);
            int best_piece = n, best_other = n;
            for (int v = u.cons_start[early]; v < u.cons_start[early + 1]; v++) {
                int g = u.cons_groups[v];
                for (int p = 0; p < n; p++) {
                    if (piece[p] == g && p < best_piece) best_piece = p;
                    if (u.other[p] == g && p < best_other) best_other = p;
                }
            }
            if (best_other < best_piece) piece = u.other;
        }
        for (int p = 0; p < n; p++) {
            u.order[placed_count++] = piece[p];
            u.placed[piece[p]] = 1;
        }
    }
    int k = placed_count; /* every group: each start places its whole piece */
    for (int i = 0; i < k; i++) u.rank[u.order[i]] = i;
    /* the numbers' groups by rank (count._prepare), and _Enumerator.__init__'s terms and plans */
    u.is_watched = calloc(k ? k : 1, sizeof(int));
    u.ranks = malloc(sizeof(int) * (at ? at : 1));
    u.last = malloc(sizeof(int) * (n_cons ? n_cons : 1));
    u.touch_start = calloc(k + 1, sizeof(int));
    u.touch_c = malloc(sizeof(int) * (at ? at : 1));
    u.touch_after = malloc(sizeof(int) * (at ? at : 1));
    u.touch_fill = calloc(k + 1, sizeof(int));
    sweep = (Sweep *)SweepType.tp_alloc(&SweepType, 0);
    if (!u.is_watched || !u.ranks || !u.last || !u.touch_start || !u.touch_c || !u.touch_after || !u.touch_fill ||
        !sweep)
        goto no_memory;
    sweep->k = k;
    sweep->n_numbers = n_cons;
    sweep->first = malloc(sizeof(int) * (n_cons ? n_cons : 1));
    sweep->levels = calloc(k ? k : 1, sizeof(Level));
    sweep->tables = calloc(k ? k : 1, sizeof(Table));
    if (!sweep->first || !sweep->levels || !sweep->tables) goto no_memory;
    if (n_watched)
        for (int v = u.cons_start[n_cons]; v < u.cons_start[n_cons + 1]; v++) u.is_watched[u.rank[u.cons_groups[v]]] = 1;
    for (int c = 0; c < n_cons; c++) {
        int lo = u.cons_start[c], hi = u.cons_start[c + 1];
        for (int v = lo; v < hi; v++) u.ranks[v] = u.rank[u.cons_groups[v]];
        qsort(u.ranks + lo, hi - lo, sizeof(int), compare_ints);
        sweep->first[c] = u.ranks[lo];
        u.last[c] = u.ranks[hi - 1];
        for (int v = lo; v < hi; v++) u.touch_start[u.ranks[v] + 1]++;
    }
    for (int i = 0; i < k; i++) u.touch_start[i + 1] += u.touch_start[i];
    for (int c = 0; c < n_cons; c++) { /* for g in reversed(groups): (c, room after g) */
        int after = 0;
        for (int v = u.cons_start[c + 1] - 1; v >= u.cons_start[c]; v--) {
            int g = u.ranks[v];
            int slot = u.touch_start[g] + u.touch_fill[g]++;
            u.touch_c[slot] = c;
            u.touch_after[slot] = after;
            after += u.group_size[u.order[g]];
        }
    }
    /* open_at[i]: the numbers with first < i <= last, ascending */
    u.open_start = calloc(k + 2, sizeof(int));
    u.active = malloc(sizeof(int) * (n_cons ? n_cons : 1));
    int *opens_start = calloc(k + 2, sizeof(int)), *closes_start = calloc(k + 2, sizeof(int));
    int *opens = malloc(sizeof(int) * (n_cons ? n_cons : 1)), *closes = malloc(sizeof(int) * (n_cons ? n_cons : 1));
    size_t open_cap = 64, open_used = 0;
    u.open = malloc(sizeof(int) * open_cap);
    if (!u.open_start || !u.active || !opens_start || !closes_start || !opens || !closes || !u.open) {
        free(opens_start);
        free(closes_start);
        free(opens);
        free(closes);
        goto no_memory;
    }
    for (int c = 0; c < n_cons; c++)
        if (sweep->first[c] < u.last[c]) {
            opens_start[sweep->first[c] + 2]++;
            closes_start[u.last[c] + 2]++;
        }
    for (int i = 0; i <= k; i++) {
        opens_start[i + 1] += opens_start[i];
        closes_start[i + 1] += closes_start[i];
    }
    for (int c = 0; c < n_cons; c++) /* ascending c within each step */
        if (sweep->first[c] < u.last[c]) {
            opens[opens_start[sweep->first[c] + 1]++] = c;
            closes[closes_start[u.last[c] + 1]++] = c;
        }
    /* opens_start[i] .. opens_start[i + 1] now holds the numbers opening at step i (after the shift above) */
    int n_active = 0;
    for (int i = 0; i <= k; i++) {
        int from = i ? closes_start[i - 1] : 0, to = closes_start[i];
        for (int t = from; t < to; t++) { /* remove */
            int c = closes[t], w = 0;
            for (int a = 0; a < n_active; a++)
                if (u.active[a] != c) u.active[w++] = u.active[a];
            n_active = w;
        }
        from = i ? opens_start[i - 1] : 0;
        to = opens_start[i];
        for (int t = from; t < to; t++) { /* insert, keeping the run sorted */
            int c = opens[t], a = n_active++;
            while (a > 0 && u.active[a - 1] > c) {
                u.active[a] = u.active[a - 1];
                a--;
            }
            u.active[a] = c;
        }
        u.open_start[i] = (int)open_used;
        if (open_used + n_active > open_cap) {
            while (open_used + n_active > open_cap) open_cap *= 2;
            int *more = realloc(u.open, sizeof(int) * open_cap);
            if (!more) {
                free(opens_start);
                free(closes_start);
                free(opens);
                free(closes);
                goto no_memory;
            }
            u.open = more;
        }
        memcpy(u.open + open_used, u.active, sizeof(int) * n_active);
        open_used += n_active;
    }
    u.open_start[k + 1] = (int)open_used;
    free(opens_start);
    free(closes_start);
    free(opens);
    free(closes);
    for (int i = 0; i < k; i++) {
        Level *level = &sweep->levels[i];
        level->size = u.group_size[u.order[i]];
        if (level->size > 64) {
            PyErr_SetString(PyExc_ValueError, "a group holds 0 to 64 cells here");
            goto fail;
        }
        level->step = 1 + (u.is_watched[i] ? WATCH : 0);
        int lo = u.open_start[i], hi = u.open_start[i + 1];
        level->n_terms = u.touch_start[i + 1] - u.touch_start[i];
        level->terms = malloc(sizeof(Term) * (level->n_terms ? level->n_terms : 1));
        int nlo = u.open_start[i + 1], nhi = u.open_start[i + 2];
        level->n_plan = nhi - nlo;
        level->plan = malloc(sizeof(Term) * (level->n_plan ? level->n_plan : 1));
        if (!level->terms || !level->plan) goto no_memory;
        for (int t = 0; t < level->n_terms; t++) {
            int slot = u.touch_start[i] + t, c = u.touch_c[slot];
            level->terms[t] = (Term){open_index(u.open, lo, hi, c), u.nums.needs[c], u.touch_after[slot], c};
        }
        for (int t = 0; t < level->n_plan; t++) {
            int c = u.open[nlo + t], touched = 0;
            for (int v = u.touch_start[i]; v < u.touch_start[i + 1]; v++)
                if (u.touch_c[v] == c) touched = 1;
            level->plan[t] = (Term){open_index(u.open, lo, hi, c), u.nums.needs[c], touched, c};
        }
        sweep->tables[i].width = i ? sweep->levels[i - 1].n_plan : 0;
    }
    /* the groups in sweep order, each sorted: count._prepare's ``ordered`` */
    ordered = PyTuple_New(k);
    if (!ordered) goto fail;
    {
        long *cells = malloc(sizeof(long) * (n_cells ? n_cells : 1));
        int *where = calloc(n_groups + 1, sizeof(int));
        if (!cells || !where) {
            free(cells);
            free(where);
            goto no_memory;
        }
        for (int d = 0; d < n_cells; d++) where[u.rank[u.group_of[d]] + 1]++;
        for (int i = 0; i < k; i++) where[i + 1] += where[i];
        int *put = calloc(n_groups + 1, sizeof(int));
        if (!put) {
            free(cells);
            free(where);
            goto no_memory;
        }
        for (int d = 0; d < n_cells; d++) {
            int i = u.rank[u.group_of[d]];
            cells[where[i] + put[i]++] = u.cell_of[d];
        }
        free(put);
        for (int i = 0; i < k && ordered; i++) {
            int lo = where[i], hi = where[i + 1];
            qsort(cells + lo, hi - lo, sizeof(long), compare_longs);
            PyObject *group = PyTuple_New(hi - lo);
            for (int t = lo; group && t < hi; t++) {
                PyObject *cell = PyLong_FromLong(cells[t]);
                if (!cell) Py_CLEAR(group);
                else PyTuple_SET_ITEM(group, t - lo, cell);
            }
            if (!group) Py_CLEAR(ordered);
            else PyTuple_SET_ITEM(ordered, i, group);
        }
        free(cells);
        free(where);
        if (!ordered) goto fail;
    }
    result = PyTuple_Pack(2, ordered, (PyObject *)sweep);
    Py_DECREF(ordered);
    Py_DECREF(sweep);
    setup_free(&u, n_groups);
    return result;
no_memory:
    PyErr_NoMemory();
fail:
    Py_XDECREF(ordered);
    Py_XDECREF(sweep);
    setup_free(&u, n_groups);
    return NULL;
}

static PyMethodDef Sweep_methods[] = {
    {"run", (PyCFunction)Sweep_run, METH_VARARGS,
     "run(deadline, clock) -> {key: counts} as count._Enumerator.run, or None when a count passes 128 bits."},
    {"counts", (PyCFunction)Sweep_counts, METH_VARARGS,
     "counts(deadline, clock) -> {watched mines: (totals, group mines, total support, group supports)} or None."},
    {"set_need", (PyCFunction)Sweep_set_need, METH_VARARGS,
     "set_need(c, need): number c (of a sweep made by prepare) needs ``need``; its sub-counts are forgotten."},
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

static PyMethodDef module_functions[] = {
    {"prepare", sweep_prepare, METH_VARARGS,
     "prepare(constraints, watched, early) -> (groups in sweep order, Sweep): count._prepare in C."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_sweep", "count._Enumerator's sweep in C (see _sweep.c).", -1, module_functions, NULL,
    NULL, NULL, NULL,
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
