/* The endgame search of autoplay.solver.endgame in C, node for node.
 *
 * EndgameSearch plays out every consistent layout of the mines (a bitmask over the n unknown cells) and
 * values a position by the exact chance of winning with best play.  This is the same recursion on plain
 * arrays of 64-bit words instead of Python ints, tuples and dicts: the same cells tried in the same order,
 * the same splits, the same memo, the same float operations in the same order (so the same roundings), and
 * the same node count, checked against the same budget at the same nodes.  A search cut by its budget must
 * stop where the Python one stops, or the simulator's decisions would change.
 *
 * Layouts are kept once each, by id, for the life of the search: a memo key (the layouts left, in order,
 * and the revealed cells that could still tell something) names them by id, and the memo is kept across
 * best_move calls as the Python dict is.
 *
 * Search(around, n, deadline, max_nodes); best_move(layouts, clock) -> (bit of the best cell, its value),
 * raising Timeout past max_nodes or, checked every 64 nodes with clock(), past the deadline; nodes: the
 * nodes searched so far.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Each sum and product must be rounded on its own, as Python rounds it: no fused multiply-add. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

typedef uint64_t word;

#define CHECK_EVERY 64
#define SLACK 1e-9
/* A split by several numbers keys each on four bits in Python, so a cell may see at most 15 unknown cells. */
#define MOST_NEIGHBOURS 15
#define BLOCK_WORDS 8192

/* Memory in blocks: the memo's keys, kept till the search goes, and the recursion's scratch (see take). */
typedef struct Block {
    struct Block *next;
    size_t used, cap; /* in words */
    word data[];
} Block;

/* How much scratch was in use, to give back to. */
typedef struct {
    Block *block;
    size_t used;
} Mark;

/* One memo entry: the value of (layouts, revealed). */
typedef struct {
    uint64_t hash;
    word *key; /* the revealed cells (W words), then the layout ids; NULL: an empty slot */
    uint32_t count;
    double value;
} Entry;

typedef struct {
    PyObject_HEAD
    int n, W;
    word last_mask; /* the bits of the last word that are cells */
    /* around[k], the unknown neighbours of cell k, as the words of its mask that are not zero */
    int *nb_start; /* n + 1; NULL before __init__ */
    int *nb_word;
    word *nb_bits;
    double deadline;
    long long max_nodes, nodes;
    /* every layout met, W words each, by id */
    word *layouts;
    size_t n_layouts, layouts_cap;
    uint32_t *layout_slots; /* a hash table of id + 1; 0: empty */
    size_t layout_slots_cap;
    /* the memo, its keys kept in blocks */
    Entry *memo;
    size_t memo_cap, memo_used;
    Block *keys;
    Block *scratch, *scratch_top;
    PyObject *clock; /* borrowed, during best_move only */
    int busy;
} Search;

static PyObject *Timeout;
static PyObject *SIXTY_FOUR;

#define LAYOUT(s, id) ((s)->layouts + (size_t)(id) * (size_t)(s)->W)

static uint64_t mix(uint64_t h) {
    h ^= h >> 31;
    h *= 0x7fb5d329728ea185ULL;
    h ^= h >> 27;
    h *= 0x81dadef4bc2dd44dULL;
    h ^= h >> 33;
    return h;
}

static uint64_t hash_words(const word *x, int W, uint64_t h) {
    for (int w = 0; w < W; w++) h = (h ^ x[w]) * 0x9e3779b97f4a7c15ULL + (h >> 29);
    return h;
}

static uint64_t key_hash(const uint32_t *ids, size_t count, const word *revealed, int W) {
    uint64_t h = hash_words(revealed, W, 0x243f6a8885a308d3ULL ^ count);
    for (size_t i = 0; i < count; i++) h = (h ^ ids[i]) * 0x9e3779b97f4a7c15ULL + (h >> 29);
    return mix(h);
}

/* -1, 0 or 1 as a is below, equal to or above b, both read as one big integer. */
static int compare_words(const word *a, const word *b, int W) {
    for (int w = W - 1; w >= 0; w--) {
        if (a[w] != b[w]) return a[w] < b[w] ? -1 : 1;
    }
    return 0;
}

/* Sort ids[lo..hi) by the big integers at base + id * W, ascending and stable; tmp holds as many ids. */
static void sort_by_value(uint32_t *ids, uint32_t *tmp, size_t lo, size_t hi, const word *base, int W) {
    if (hi - lo < 2) return;
    size_t mid = lo + (hi - lo) / 2;
    sort_by_value(ids, tmp, lo, mid, base, W);
    sort_by_value(ids, tmp, mid, hi, base, W);
    size_t a = lo, b = mid, out = lo;
    while (a < mid && b < hi) {
        if (compare_words(base + (size_t)ids[b] * W, base + (size_t)ids[a] * W, W) < 0)
            tmp[out++] = ids[b++];
        else
            tmp[out++] = ids[a++];
    }
    while (a < mid) tmp[out++] = ids[a++];
    while (b < hi) tmp[out++] = ids[b++];
    memcpy(ids + lo, tmp + lo, sizeof(uint32_t) * (hi - lo));
}

/* The set bits of x (no POPCNT instruction in a plain x86-64 build: __builtin_popcountll is a library call). */
static inline int bits_in(word x) {
#if defined(__POPCNT__) || defined(__aarch64__)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

static void or_around(const Search *s, int k, word *into) {
    for (int t = s->nb_start[k]; t < s->nb_start[k + 1]; t++) into[s->nb_word[t]] |= s->nb_bits[t];
}

static int mines_around(const Search *s, int k, const word *layout) {
    int mines = 0;
    for (int t = s->nb_start[k]; t < s->nb_start[k + 1]; t++)
        mines += bits_in(layout[s->nb_word[t]] & s->nb_bits[t]);
    return mines;
}

static void free_blocks(Block *block) {
    while (block) {
        Block *next = block->next;
        free(block);
        block = next;
    }
}

/* ---- the memo ---------------------------------------------------------------------------------------- */

static word *key_alloc(Search *s, size_t words) {
    Block *block = s->keys;
    if (!block || block->cap - block->used < words) {
        size_t cap = words > BLOCK_WORDS ? words : BLOCK_WORDS;
        block = malloc(sizeof(Block) + sizeof(word) * cap);
        if (!block) return NULL;
        block->next = s->keys;
        block->used = 0;
        block->cap = cap;
        s->keys = block;
    }
    word *out = block->data + block->used;
    block->used += words;
    return out;
}

static Entry *memo_find(const Search *s, uint64_t h, const uint32_t *ids, size_t count, const word *revealed) {
    if (!s->memo_cap) return NULL;
    size_t mask = s->memo_cap - 1;
    int W = s->W;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        Entry *e = &s->memo[i];
        if (!e->key) return NULL;
        if (e->hash == h && e->count == count && memcmp(e->key, revealed, sizeof(word) * W) == 0 &&
            memcmp(e->key + W, ids, sizeof(uint32_t) * count) == 0)
            return e;
    }
}

static int memo_grow(Search *s) {
    size_t cap = s->memo_cap ? s->memo_cap * 2 : 1024;
    Entry *memo = calloc(cap, sizeof(Entry));
    if (!memo) return -1;
    for (size_t i = 0; i < s->memo_cap; i++) {
        Entry *e = &s->memo[i];
        if (!e->key) continue;
        size_t d = e->hash & (cap - 1);
        while (memo[d].key) d = (d + 1) & (cap - 1);
        memo[d] = *e;
    }
    free(s->memo);
    s->memo = memo;
    s->memo_cap = cap;
    return 0;
}

/* memo[(ids, revealed)] = value, as a dict stores it (an entry already there takes the new value). */
static int memo_put(Search *s, uint64_t h, const uint32_t *ids, size_t count, const word *revealed, double value) {
    Entry *e = memo_find(s, h, ids, count, revealed);
    if (e) {
        e->value = value;
        return 0;
    }
    if ((s->memo_used + 1) * 4 > s->memo_cap * 3 && memo_grow(s) < 0) goto no_memory;
    int W = s->W;
    word *key = key_alloc(s, (size_t)W + (sizeof(uint32_t) * count + sizeof(word) - 1) / sizeof(word));
    if (!key) goto no_memory;
    memcpy(key, revealed, sizeof(word) * W);
    memcpy(key + W, ids, sizeof(uint32_t) * count);
    size_t mask = s->memo_cap - 1;
    size_t i = h & mask;
    while (s->memo[i].key) i = (i + 1) & mask;
    s->memo[i].hash = h;
    s->memo[i].key = key;
    s->memo[i].count = (uint32_t)count;
    s->memo[i].value = value;
    s->memo_used++;
    return 0;
no_memory:
    PyErr_NoMemory();
    return -1;
}

/* ---- layouts by id ----------------------------------------------------------------------------------- */

static int layouts_rehash(Search *s, size_t cap) {
    uint32_t *slots = calloc(cap, sizeof(uint32_t));
    if (!slots) return -1;
    for (size_t id = 0; id < s->n_layouts; id++) {
        size_t i = mix(hash_words(LAYOUT(s, id), s->W, 0)) & (cap - 1);
        while (slots[i]) i = (i + 1) & (cap - 1);
        slots[i] = (uint32_t)id + 1;
    }
    free(s->layout_slots);
    s->layout_slots = slots;
    s->layout_slots_cap = cap;
    return 0;
}

/* The id of a layout, given one the first time it is met; -1 with an exception set. */
static long long layout_id(Search *s, const word *x) {
    int W = s->W;
    if ((s->n_layouts + 1) * 2 > s->layout_slots_cap &&
        layouts_rehash(s, s->layout_slots_cap ? s->layout_slots_cap * 2 : 256) < 0)
        goto no_memory;
    size_t mask = s->layout_slots_cap - 1;
    size_t i = mix(hash_words(x, W, 0)) & mask;
    for (; s->layout_slots[i]; i = (i + 1) & mask) {
        uint32_t id = s->layout_slots[i] - 1;
        if (memcmp(LAYOUT(s, id), x, sizeof(word) * W) == 0) return id;
    }
    if (s->n_layouts >= UINT32_MAX - 1) {
        PyErr_SetString(PyExc_OverflowError, "too many layouts for one search");
        return -1;
    }
    if (s->n_layouts == s->layouts_cap) {
        size_t cap = s->layouts_cap ? s->layouts_cap * 2 : 256;
        word *more = realloc(s->layouts, sizeof(word) * W * cap);
        if (!more) goto no_memory;
        s->layouts = more;
        s->layouts_cap = cap;
    }
    memcpy(LAYOUT(s, s->n_layouts), x, sizeof(word) * W);
    s->layout_slots[i] = (uint32_t)s->n_layouts + 1;
    return (long long)s->n_layouts++;
no_memory:
    PyErr_NoMemory();
    return -1;
}

/* ---- scratch memory --------------------------------------------------------------------------------- */

/* The recursion's working arrays, taken and given back in stack order from blocks kept for the next node. */
static void *take(Search *s, size_t bytes) {
    size_t words = (bytes + sizeof(word) - 1) / sizeof(word);
    Block *top = s->scratch_top;
    if (top && top->cap - top->used >= words) {
        word *out = top->data + top->used;
        top->used += words;
        return out;
    }
    Block **link = top ? &top->next : &s->scratch;
    Block *next = *link;
    if (next && next->cap < words) { /* too small: it and the blocks after it are free, give them back */
        free_blocks(next);
        next = *link = NULL;
    }
    if (!next) {
        size_t cap = words > BLOCK_WORDS ? words : BLOCK_WORDS;
        next = malloc(sizeof(Block) + sizeof(word) * cap);
        if (!next) {
            PyErr_NoMemory();
            return NULL;
        }
        next->next = NULL;
        next->cap = cap;
        *link = next;
    }
    next->used = words;
    s->scratch_top = next;
    return next->data;
}

static Mark scratch_mark(const Search *s) {
    Mark mark = {s->scratch_top, s->scratch_top ? s->scratch_top->used : 0};
    return mark;
}

static void give_back(Search *s, Mark mark) {
    s->scratch_top = mark.block;
    if (mark.block) mark.block->used = mark.used;
}

/* ---- the search -------------------------------------------------------------------------------------- */

/* 1 past the deadline, 0 not, -1 with the clock's error set. */
static int past_deadline(Search *s) {
    PyObject *now = PyObject_CallNoArgs(s->clock);
    if (!now) return -1;
    double t = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (t == -1.0 && PyErr_Occurred()) return -1;
    return t > s->deadline;
}

static int value_of(Search *s, const uint32_t *ids, size_t count, const word *given, int root, double *out,
                    int *cell);

/* The layouts without a mine on cell k, split by the number k shows, into parts (in first-seen order, each in
 * the layouts' order): sizes[p] and starts[p] for each part; returns how many there are. */
/* won += what one part of the layouts is worth, as Python adds it (a part of one layout is won outright, 1.0,
 * without a call); -1 on error. */
static int add_part(Search *s, const uint32_t *part, uint32_t size, const word *revealed, double *won) {
    if (size == 1) {
        *won += 1.0;
        return 0;
    }
    double value;
    int ignored;
    if (value_of(s, part, size, revealed, 0, &value, &ignored) < 0) return -1;
    *won += (double)size * value;
    return 0;
}

static int split_by_cell(const Search *s, const uint32_t *ids, size_t count, int k, uint32_t *parts,
                         uint8_t *keys, uint32_t *sizes, uint32_t *starts) {
    int where = k / 64;
    word bit = (word)1 << (k % 64);
    uint32_t size_of[MOST_NEIGHBOURS + 1] = {0};
    int part_of[MOST_NEIGHBOURS + 1] = {0};
    int n_parts = 0;
    for (size_t i = 0; i < count; i++) {
        const word *x = LAYOUT(s, ids[i]);
        if (x[where] & bit) {
            keys[i] = UINT8_MAX;
            continue;
        }
        int key = mines_around(s, k, x);
        keys[i] = (uint8_t)key;
        if (size_of[key]++ == 0) part_of[key] = n_parts++;
    }
    uint32_t fill[MOST_NEIGHBOURS + 1];
    for (int key = 0; key <= MOST_NEIGHBOURS; key++) {
        if (size_of[key]) sizes[part_of[key]] = size_of[key];
    }
    uint32_t at = 0;
    for (int p = 0; p < n_parts; p++) {
        starts[p] = at;
        at += sizes[p];
    }
    for (int key = 0; key <= MOST_NEIGHBOURS; key++) {
        if (size_of[key]) fill[key] = starts[part_of[key]];
    }
    for (size_t i = 0; i < count; i++) {
        if (keys[i] != UINT8_MAX) parts[fill[keys[i]]++] = ids[i];
    }
    return n_parts;
}

typedef struct {
    uint32_t mined;
    int k;
} Candidate;

static int by_mines_then_cell(const void *a, const void *b) {
    const Candidate *x = a, *y = b;
    if (x->mined != y->mined) return x->mined < y->mined ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* Try each undetermined cell, safest first, and keep the best: _value's loop over mine_counts. */
static int try_cells(Search *s, const uint32_t *ids, size_t count, const word *revealed, const word *undetermined,
                     word *after, double *out, int *cell) {
    int W = s->W;
    int n_candidates = 0;
    for (int w = 0; w < W; w++) n_candidates += bits_in(undetermined[w]);
    uint32_t *mined = take(s, sizeof(uint32_t) * 64 * W);
    Candidate *candidates = mined ? take(s, sizeof(Candidate) * n_candidates) : NULL;
    uint32_t *parts = candidates ? take(s, sizeof(uint32_t) * count) : NULL;
    uint8_t *keys = parts ? take(s, count) : NULL;
    if (!keys) return -1;
    /* how many layouts hold a mine in each undetermined cell */
    memset(mined, 0, sizeof(uint32_t) * 64 * W);
    for (size_t i = 0; i < count; i++) {
        const word *x = LAYOUT(s, ids[i]);
        for (int w = 0; w < W; w++) {
            for (word rest = x[w] & undetermined[w]; rest; rest &= rest - 1) mined[w * 64 + __builtin_ctzll(rest)]++;
        }
    }
    /* sorted by (mines, cell): made in cell order, then sorted stably by mines */
    int c = 0;
    for (int w = 0; w < W; w++) {
        for (word rest = undetermined[w]; rest; rest &= rest - 1) {
            int k = w * 64 + __builtin_ctzll(rest);
            Candidate here = {mined[k], k};
            int at = c++;
            if (n_candidates <= 64) {
                for (; at > 0 && candidates[at - 1].mined > here.mined; at--) candidates[at] = candidates[at - 1];
            }
            candidates[at] = here;
        }
    }
    if (n_candidates > 64) qsort(candidates, n_candidates, sizeof(Candidate), by_mines_then_cell);
    double total = (double)count;
    double best = -1.0;
    int best_cell = candidates[0].k;
    for (c = 0; c < n_candidates; c++) {
        int k = candidates[c].k;
        double safety = (double)(count - candidates[c].mined) / total;
        if (safety <= best) break;
        uint32_t sizes[MOST_NEIGHBOURS + 1], starts[MOST_NEIGHBOURS + 1];
        int n_parts = split_by_cell(s, ids, count, k, parts, keys, sizes, starts);
        memcpy(after, revealed, sizeof(word) * W);
        after[k / 64] |= (word)1 << (k % 64);
        /* each part is worth at most its size: stop once the rest cannot lift this cell above the best */
        double won = 0.0;
        size_t left = count - candidates[c].mined;
        int cut = 0;
        for (int p = 0; p < n_parts; p++) {
            if (won + (double)left < best * total - SLACK) {
                cut = 1;
                break;
            }
            if (add_part(s, parts + starts[p], sizes[p], after, &won) < 0) return -1;
            left -= sizes[p];
        }
        if (!cut) {
            double value = won / total;
            if (value > best) {
                best = value;
                best_cell = k;
            }
        }
    }
    *out = best;
    *cell = best_cell;
    return 0;
}

/* The undetermined cells each free cell sees, one mask each (none for a cell seeing none), sorted ascending as
 * big integers and kept once, as _reveal_free sorts its set of ints; their order in masks (W words each) is
 * left in order[0..], and their count is returned.  (Any order of the masks would give the same parts: they
 * are the layouts with the same mines in every mask.  Kept once, each is counted once.) */
static int free_masks(Search *s, const word *free_cells, const word *undetermined, word *masks, uint32_t *order) {
    int W = s->W;
    int n_masks = 0;
    for (int w = 0; w < W; w++) {
        for (word rest = free_cells[w]; rest; rest &= rest - 1) {
            int f = w * 64 + __builtin_ctzll(rest);
            word *mask = masks + (size_t)n_masks * W;
            word seen = 0;
            memset(mask, 0, sizeof(word) * W);
            for (int t = s->nb_start[f]; t < s->nb_start[f + 1]; t++) {
                mask[s->nb_word[t]] = s->nb_bits[t] & undetermined[s->nb_word[t]];
                seen |= mask[s->nb_word[t]];
            }
            if (seen) {
                order[n_masks] = (uint32_t)n_masks;
                n_masks++;
            }
        }
    }
    if (!n_masks) return 0;
    sort_by_value(order, order + n_masks, 0, n_masks, masks, W);
    int kept = 1;
    for (int m = 1; m < n_masks; m++) {
        if (compare_words(masks + (size_t)order[m] * W, masks + (size_t)order[kept - 1] * W, W) != 0)
            order[kept++] = order[m];
    }
    return kept;
}

/* Reveal every free cell at once and average over what their numbers show: _reveal_free. */
static int reveal_free(Search *s, const uint32_t *ids, size_t count, const word *revealed, const word *free_cells,
                       const word *undetermined, double *out) {
    int W = s->W;
    int n_free = 0;
    for (int w = 0; w < W; w++) n_free += bits_in(free_cells[w]);
    word *masks = take(s, sizeof(word) * ((size_t)n_free * W + W));
    uint32_t *order = masks ? take(s, sizeof(uint32_t) * 2 * n_free) : NULL;
    if (!order) return -1;
    int n_masks = free_masks(s, free_cells, undetermined, masks, order);
    if (!n_masks) {
        PyErr_SetString(PyExc_IndexError, "no free cell sees an undetermined one");
        return -1;
    }
    /* Python keys a layout by its mines in each mask, four bits each (at most 15 a mask), and groups the layouts
     * by key in first-seen order; here the same numbers, four bits each on as many words as the masks need,
     * grouped through a hash table in first-seen order */
    int key_words = (n_masks + 15) / 16;
    size_t slots = 16;
    while (slots < 2 * count) slots *= 2;
    word *keys = take(s, sizeof(word) * key_words * count);
    int *lo = keys ? take(s, sizeof(int) * 2 * n_masks) : NULL;
    uint32_t *table = lo ? take(s, sizeof(uint32_t) * slots) : NULL;
    uint32_t *part_of = table ? take(s, sizeof(uint32_t) * count) : NULL;
    uint32_t *first = part_of ? take(s, sizeof(uint32_t) * count) : NULL;
    uint32_t *sizes = first ? take(s, sizeof(uint32_t) * count) : NULL;
    uint32_t *parts = sizes ? take(s, sizeof(uint32_t) * count) : NULL;
    word *now = parts ? take(s, sizeof(word) * W) : NULL;
    if (!now) return -1;
    int *hi = lo + n_masks;
    for (int m = 0; m < n_masks; m++) {
        const word *mask = masks + (size_t)order[m] * W;
        for (lo[m] = 0; !mask[lo[m]]; lo[m]++) {
        }
        for (hi[m] = W - 1; !mask[hi[m]]; hi[m]--) {
        }
    }
    memset(table, 0, sizeof(uint32_t) * slots);
    uint32_t n_parts = 0;
    for (size_t i = 0; i < count; i++) {
        const word *x = LAYOUT(s, ids[i]);
        word *key = keys + i * key_words;
        memset(key, 0, sizeof(word) * key_words);
        for (int m = 0; m < n_masks; m++) {
            const word *mask = masks + (size_t)order[m] * W;
            word mines = 0;
            for (int w = lo[m]; w <= hi[m]; w++) mines += (word)bits_in(x[w] & mask[w]);
            key[m / 16] |= mines << (4 * (m % 16));
        }
        size_t slot = mix(hash_words(key, key_words, 0)) & (slots - 1);
        for (;; slot = (slot + 1) & (slots - 1)) {
            uint32_t p = table[slot];
            if (!p) {
                first[n_parts] = (uint32_t)i;
                sizes[n_parts] = 0;
                table[slot] = ++n_parts;
                part_of[i] = n_parts - 1;
                break;
            }
            if (memcmp(keys + (size_t)first[p - 1] * key_words, key, sizeof(word) * key_words) == 0) {
                part_of[i] = p - 1;
                break;
            }
        }
        sizes[part_of[i]]++;
    }
    uint32_t *starts = first; /* first is read no more: where each part starts in parts */
    uint32_t at = 0;
    for (uint32_t p = 0; p < n_parts; p++) {
        starts[p] = at;
        at += sizes[p];
    }
    for (size_t i = 0; i < count; i++) parts[starts[part_of[i]]++] = ids[i];
    for (uint32_t p = 0; p < n_parts; p++) starts[p] -= sizes[p];
    for (int w = 0; w < W; w++) now[w] = revealed[w] | free_cells[w];
    /* a part of one layout is won outright (what value_of says of it, without the call) */
    double won = 0.0;
    for (uint32_t p = 0; p < n_parts; p++) {
        if (add_part(s, parts + starts[p], sizes[p], now, &won) < 0) return -1;
    }
    *out = won / (double)count;
    return 0;
}

/* _value: the chance to win from (layouts ids[0..count), cells revealed ``given``, NULL: none) with best play,
 * and at the root the best cell (-1 where there is none to try); -1 with an exception set. */
static int value_of(Search *s, const uint32_t *ids, size_t count, const word *given, int root, double *out,
                    int *cell) {
    *cell = -1;
    if (count == 1 && !root) {
        *out = 1.0;
        return 0;
    }
    int W = s->W;
    Mark mark = scratch_mark(s);
    word *bits = take(s, sizeof(word) * 7 * W);
    if (!bits) return -1;
    word *any = bits, *every = bits + W, *undetermined = bits + 2 * W, *relevant = bits + 3 * W;
    word *revealed = bits + 4 * W, *free_cells = bits + 5 * W, *after = bits + 6 * W;
    for (int w = 0; w < W; w++) {
        any[w] = 0;
        every[w] = ~(word)0;
        relevant[w] = 0;
    }
    every[W - 1] = s->last_mask;
    for (size_t i = 0; i < count; i++) {
        const word *x = LAYOUT(s, ids[i]);
        for (int w = 0; w < W; w++) {
            any[w] |= x[w];
            every[w] &= x[w];
        }
    }
    word undecided = 0;
    for (int w = 0; w < W; w++) {
        undetermined[w] = any[w] & ~every[w];
        undecided |= undetermined[w];
        for (word rest = undetermined[w]; rest; rest &= rest - 1) or_around(s, w * 64 + __builtin_ctzll(rest), relevant);
    }
    /* a revealed cell matters only while it could still show something new */
    for (int w = 0; w < W; w++) revealed[w] = given ? given[w] & relevant[w] : 0;
    uint64_t h = key_hash(ids, count, revealed, W);
    int status = 0;
    if (!root) {
        Entry *known = memo_find(s, h, ids, count, revealed);
        if (known) {
            *out = known->value;
            goto done;
        }
    }
    s->nodes++;
    if (s->nodes > s->max_nodes) {
        PyErr_SetNone(Timeout);
        status = -1;
        goto done;
    }
    if (s->nodes % CHECK_EVERY == 0) {
        int late = past_deadline(s);
        if (late) {
            if (late > 0) PyErr_SetNone(Timeout);
            status = -1;
            goto done;
        }
    }
    word some_free = 0;
    for (int w = 0; w < W; w++) {
        free_cells[w] = relevant[w] & ~any[w] & ~revealed[w];
        some_free |= free_cells[w];
    }
    if (some_free && !root) {
        status = reveal_free(s, ids, count, revealed, free_cells, undetermined, out);
        if (status == 0) status = memo_put(s, h, ids, count, revealed, *out);
        goto done;
    }
    if (!undecided) {
        *out = 1.0;
        goto done;
    }
    status = try_cells(s, ids, count, revealed, undetermined, after, out, cell);
    if (status == 0) status = memo_put(s, h, ids, count, revealed, *out);
done:
    give_back(s, mark);
    return status;
}

/* ---- the Python type --------------------------------------------------------------------------------- */

/* x as W words, least significant first; -1 (ValueError) when it is negative or has a bit at n or above. */
static int read_bits(const Search *s, PyObject *x, word *out, const char *what) {
    int W = s->W;
    if (!PyLong_Check(x)) {
        PyErr_Format(PyExc_TypeError, "%s must be ints, not %.100s", what, Py_TYPE(x)->tp_name);
        return -1;
    }
    unsigned long long low = PyLong_AsUnsignedLongLong(x);
    if (low != (unsigned long long)-1 || !PyErr_Occurred()) {
        out[0] = low;
        for (int w = 1; w < W; w++) out[w] = 0;
    } else {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear(); /* negative or past 64 bits: word by word (a negative number never ends in zeros) */
        PyObject *rest = Py_NewRef(x);
        for (int w = 0; w < W; w++) {
            out[w] = PyLong_AsUnsignedLongLongMask(rest);
            PyObject *shifted = out[w] == (word)-1 && PyErr_Occurred() ? NULL : PyNumber_Rshift(rest, SIXTY_FOUR);
            Py_DECREF(rest);
            if (!shifted) return -1;
            rest = shifted;
        }
        int more = PyObject_IsTrue(rest);
        Py_DECREF(rest);
        if (more < 0) return -1;
        if (more) goto out_of_range;
    }
    if (out[W - 1] & ~s->last_mask) goto out_of_range;
    return 0;
out_of_range:
    PyErr_Format(PyExc_ValueError, "%s must be sets of the %d cells (0 <= x < 2**%d)", what, s->n, s->n);
    return -1;
}

static void search_release(Search *s) {
    free(s->nb_start);
    free(s->nb_word);
    free(s->nb_bits);
    free(s->layouts);
    free(s->layout_slots);
    free(s->memo);
    free_blocks(s->keys);
    free_blocks(s->scratch);
    s->keys = s->scratch = s->scratch_top = NULL;
    s->nb_start = NULL;
    s->nb_word = NULL;
    s->nb_bits = NULL;
    s->layouts = NULL;
    s->layout_slots = NULL;
    s->memo = NULL;
    s->n_layouts = s->layouts_cap = s->layout_slots_cap = 0;
    s->memo_cap = s->memo_used = 0;
    s->nodes = 0;
}

static void Search_dealloc(Search *s) {
    search_release(s);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int Search_init(Search *s, PyObject *args, PyObject *kwds) {
    static char *names[] = {"around", "n", "deadline", "max_nodes", NULL};
    PyObject *around, *max_nodes_obj;
    int n;
    double deadline;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OidO", names, &around, &n, &deadline, &max_nodes_obj)) return -1;
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the search is running");
        return -1;
    }
    search_release(s);
    if (n < 0 || n > INT_MAX - 64) {
        PyErr_SetString(PyExc_ValueError, "n must be a number of cells");
        return -1;
    }
    int overflow;
    long long max_nodes = PyLong_AsLongLongAndOverflow(max_nodes_obj, &overflow);
    if (max_nodes == -1 && PyErr_Occurred()) return -1;
    if (overflow) max_nodes = overflow > 0 ? LLONG_MAX : LLONG_MIN;
    PyObject *seq = PySequence_Tuple(around); /* a copy: reading an int cannot change it under us */
    if (!seq) return -1;
    if (PyTuple_GET_SIZE(seq) != n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "around must hold one mask for each of the n cells");
        return -1;
    }
    s->n = n;
    s->W = n ? (n + 63) / 64 : 1;
    int W = s->W, rem = n - 64 * (W - 1);
    s->last_mask = rem == 64 ? ~(word)0 : ((word)1 << rem) - 1;
    s->deadline = deadline;
    s->max_nodes = max_nodes;
    s->nodes = 0;
    word *masks = malloc(sizeof(word) * W * (n ? n : 1));
    s->nb_start = malloc(sizeof(int) * (n + 1));
    s->nb_word = malloc(sizeof(int) * MOST_NEIGHBOURS * (n ? n : 1));
    s->nb_bits = malloc(sizeof(word) * MOST_NEIGHBOURS * (n ? n : 1));
    if (!masks || !s->nb_start || !s->nb_word || !s->nb_bits) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int k = 0; k < n; k++) {
        if (read_bits(s, PyTuple_GET_ITEM(seq, k), masks + (size_t)k * W, "around") < 0) goto fail;
    }
    int t = 0;
    for (int k = 0; k < n; k++) {
        const word *mask = masks + (size_t)k * W;
        int seen = 0;
        s->nb_start[k] = t;
        for (int w = 0; w < W; w++) {
            seen += bits_in(mask[w]);
            if (seen > MOST_NEIGHBOURS) {
                PyErr_Format(PyExc_ValueError, "cell %d has more than %d neighbours", k, MOST_NEIGHBOURS);
                goto fail;
            }
            if (mask[w]) {
                s->nb_word[t] = w;
                s->nb_bits[t] = mask[w];
                t++;
            }
            /* neighbours see each other: every free cell then sees an undetermined one */
            for (word rest = mask[w]; rest; rest &= rest - 1) {
                int j = w * 64 + __builtin_ctzll(rest);
                if (!(masks[(size_t)j * W + k / 64] >> (k % 64) & 1)) {
                    PyErr_Format(PyExc_ValueError, "around is not symmetric: %d sees %d, not the other way", k, j);
                    goto fail;
                }
            }
        }
    }
    s->nb_start[n] = t;
    free(masks);
    Py_DECREF(seq);
    return 0;
fail:
    free(masks);
    Py_DECREF(seq);
    search_release(s);
    return -1;
}

static PyObject *Search_best_move(Search *s, PyObject *args) {
    PyObject *layouts, *clock;
    if (!PyArg_ParseTuple(args, "OO", &layouts, &clock)) return NULL;
    if (!s->nb_start) {
        PyErr_SetString(PyExc_RuntimeError, "the search was not set up (Search.__init__ failed or was not called)");
        return NULL;
    }
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the search is running");
        return NULL;
    }
    if (!PyCallable_Check(clock)) {
        PyErr_SetString(PyExc_TypeError, "clock must be callable");
        return NULL;
    }
    PyObject *seq = PySequence_Tuple(layouts); /* a copy: reading an int cannot change it under us */
    if (!seq) return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(seq);
    PyObject *result = NULL;
    if ((size_t)count >= UINT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "too many layouts for one search");
        Py_DECREF(seq);
        return NULL;
    }
    uint32_t *ids = malloc(sizeof(uint32_t) * 2 * (count ? count : 1));
    word *x = malloc(sizeof(word) * s->W);
    if (!ids || !x) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (read_bits(s, PyTuple_GET_ITEM(seq, i), x, "layouts") < 0) goto done;
        long long id = layout_id(s, x);
        if (id < 0) goto done;
        ids[i] = (uint32_t)id;
    }
    sort_by_value(ids, ids + count, 0, count, s->layouts, s->W);
    double value;
    int cell;
    s->busy = 1;
    s->clock = clock;
    int status = value_of(s, ids, count, NULL, 1, &value, &cell);
    s->clock = NULL;
    s->busy = 0;
    if (status == 0) result = Py_BuildValue("(id)", cell, value);
done:
    free(ids);
    free(x);
    Py_DECREF(seq);
    return result;
}

static PyObject *Search_get_nodes(Search *s, void *Py_UNUSED(closure)) { return PyLong_FromLongLong(s->nodes); }

static PyMethodDef Search_methods[] = {
    {"best_move", (PyCFunction)Search_best_move, METH_VARARGS,
     "best_move(layouts, clock) -> (bit of the best cell to reveal, win chance with best play), as "
     "EndgameSearch.best_move; raises Timeout past max_nodes or, checked every 64 nodes, past the deadline."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "Positions expanded so far, over every best_move call.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "autoplay.solver._endgame.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(around, n, deadline, max_nodes): endgame.EndgameSearch's search on bitsets of n cells.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_endgame",
    .m_doc = "endgame.EndgameSearch's search in C (see _endgame.c).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__endgame(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    if (!SIXTY_FOUR && !(SIXTY_FOUR = PyLong_FromLong(64))) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (!Timeout) Timeout = PyErr_NewException("autoplay.solver._endgame.Timeout", NULL, NULL);
    if (!Timeout || PyModule_AddObjectRef(m, "Timeout", Timeout) < 0 ||
        PyModule_AddObjectRef(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
