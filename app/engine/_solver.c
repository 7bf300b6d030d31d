/*
 * The solver's core: an exhaustive depth-first search over compact Pyramid positions.
 *
 * Python (solver.py) hands over one position: the values of the 28 pyramid slots (0 where a
 * card is gone), the talon (every stock and waste card, in their one fixed order: waste bottom
 * to top, then stock top to bottom), where the stock starts in it, the pass, and the rules.
 * The answer is a verdict, the winning line as (op, a, b) triples and the nodes searched.
 *
 * A position is four numbers packed into one 64-bit key:
 *   pyr   28 bits, the pyramid cards still there;
 *   rest  24 bits, the talon cards still there (the talon never changes order: a draw moves
 *         the boundary between waste and stock, a recycle moves it back to the start);
 *   top   5 bits, the index of the stock's top card (n when the stock is empty): the boundary,
 *         put in one canonical place so that equal positions get equal keys;
 *   pass  2 bits, recycles used.
 * Every move removes cards, draws (top grows) or recycles (pass grows), so positions never
 * repeat on a path: the search is over a DAG, and a transposition table of positions already
 * proven lost is all the memory it needs.
 *
 * Locations: 0..27 are pyramid slots (apex first), 28 + i is talon card i.
 *
 * Pruning (each is optional through a flag, so the tests can compare with the plain search):
 *
 * SIMULATION LEMMA. Let S' be S with a set of cards C taken out, and let some winning line L
 * from S contain no move that pairs a card of C with a card outside C. Then L, with the moves
 * on C and the draws of C's cards left out, is a winning line from S' (with a recycle left
 * out when S' has nothing to recycle). Taking cards away only uncovers pyramid cards, only
 * brings talon cards to the tops sooner, and never needs more recycles; the winning
 * conditions ask only for cards to be gone.
 *
 * F_KINGS: a free King (pyramid, stock top or waste top) is removed at once. By the lemma with
 *   C = {King}: a King is never paired, so every winning line qualifies.
 * F_FORCED: if a card X that every win must remove (a pyramid card; in the whole-deck game any
 *   card) has exactly one remaining card Y it can ever be paired with, and X and Y are both
 *   free now, X+Y is played at once. Every winning line pairs X with Y, so the lemma applies
 *   with C = {X, Y}.
 * F_DEAD: a position is lost when some card that every win must remove has no remaining
 *   partner it can ever be free together with. Two pyramid cards can never be free together
 *   when one covers the other, directly or through other cards. In the last pass two waste
 *   cards are never free together either (only the top of the waste is free, and the waste
 *   only shrinks). For the standard goal, the pyramid cards of values v and 13-v must be
 *   matched: with a pyramid v-cards, b pyramid (13-v)-cards, A talon v-cards and B talon
 *   (13-v)-cards, some k pyramid-pyramid pairs must leave a-k <= B and b-k <= A, k <= min(a,b).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PYR 28
#define MAXTALON 24
#define MAXPATH 512

#define F_KINGS 1
#define F_FORCED 2
#define F_DEAD 4

enum { OP_KING = 0, OP_PAIR = 1, OP_DRAW = 2, OP_RECYCLE = 3 };

typedef struct {
    int wholedeck, passes, n, flags;
    uint8_t val[PYR + MAXTALON];   /* value of the card at each location */
    uint32_t cover[PYR];           /* the slots that directly cover a slot */
    uint64_t compat[PYR + MAXTALON]; /* locations that could ever be paired with this one */
    uint64_t talon_bits;           /* all talon locations */
    uint64_t *tt;                  /* open addressing, 0 = empty */
    size_t cap, used;
    long long nodes, limit;
    int aborted;
    int depth;
    uint8_t path_op[MAXPATH], path_a[MAXPATH], path_b[MAXPATH];
} Ctx;

typedef struct {
    uint32_t pyr, rest;
    int top, pass;
} Pos;

/* ---- transposition table --------------------------------------------------------------- */

static inline uint64_t mix(uint64_t k) {
    k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

static int tt_grow(Ctx *c) {
    size_t ncap = c->cap ? c->cap * 2 : (1u << 16);
    uint64_t *nt = calloc(ncap, sizeof(uint64_t));
    if (!nt) return 0;
    for (size_t i = 0; i < c->cap; i++) {
        uint64_t k = c->tt[i];
        if (!k) continue;
        size_t j = mix(k) & (ncap - 1);
        while (nt[j]) j = (j + 1) & (ncap - 1);
        nt[j] = k;
    }
    free(c->tt);
    c->tt = nt;
    c->cap = ncap;
    return 1;
}

static inline int tt_has(const Ctx *c, uint64_t k) {
    size_t j = mix(k) & (c->cap - 1);
    while (c->tt[j]) {
        if (c->tt[j] == k) return 1;
        j = (j + 1) & (c->cap - 1);
    }
    return 0;
}

static inline void tt_add(Ctx *c, uint64_t k) {
    if ((c->used + 1) * 2 > c->cap && !tt_grow(c)) return; /* out of memory: just forget */
    size_t j = mix(k) & (c->cap - 1);
    while (c->tt[j]) {
        if (c->tt[j] == k) return;
        j = (j + 1) & (c->cap - 1);
    }
    c->tt[j] = k;
    c->used++;
}

static inline uint64_t key_of(const Pos *p) {
    return (uint64_t)p->pyr | ((uint64_t)p->rest << 28) | ((uint64_t)p->top << 52)
           | ((uint64_t)p->pass << 58) | (1ULL << 63);
}

/* ---- the talon ------------------------------------------------------------------------------ */

/* The first talon card at index >= from, or n when there is none. */
static inline int next_at(const Ctx *c, uint32_t rest, int from) {
    if (from >= 32) return c->n;
    uint32_t m = rest & (~0u << from);
    return m ? __builtin_ctz(m) : c->n;
}

static inline int waste_top(uint32_t rest, int top) {
    uint32_t m = top >= 32 ? rest : rest & ((1u << top) - 1);
    return m ? 31 - __builtin_clz(m) : -1;
}

static inline int stock_top(const Ctx *c, const Pos *p) { return p->top < c->n ? p->top : -1; }

static inline uint32_t free_pyramid(const Ctx *c, uint32_t pyr) {
    uint32_t f = 0;
    for (uint32_t m = pyr; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        if (!(pyr & c->cover[i])) f |= 1u << i;
    }
    return f;
}

/* Take the card at location loc out of the position. */
static inline void take(const Ctx *c, Pos *p, int loc) {
    if (loc < PYR) {
        p->pyr &= ~(1u << loc);
    } else {
        int t = loc - PYR;
        p->rest &= ~(1u << t);
        if (t == p->top) p->top = next_at(c, p->rest, t + 1);
    }
}

static inline void push(Ctx *c, int op, int a, int b) {
    c->path_op[c->depth] = (uint8_t)op;
    c->path_a[c->depth] = (uint8_t)a;
    c->path_b[c->depth] = (uint8_t)b;
    c->depth++;
}

/* ---- pruning ---------------------------------------------------------------------------------- */

static int is_dead(const Ctx *c, const Pos *p) {
    uint64_t present = (uint64_t)p->pyr | ((uint64_t)p->rest << PYR);
    for (uint32_t m = p->pyr; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        if (c->val[i] != 13 && !(present & c->compat[i])) return 1;
    }
    if (c->wholedeck) {
        uint64_t waste_mask = 0;
        int last = p->pass == c->passes - 1;
        if (last) {
            uint32_t w = p->top >= 32 ? p->rest : p->rest & ((1u << p->top) - 1);
            waste_mask = (uint64_t)w << PYR;
        }
        for (uint32_t m = p->rest; m; m &= m - 1) {
            int t = __builtin_ctz(m), loc = PYR + t;
            if (c->val[loc] == 13) continue;
            uint64_t partners = present & c->compat[loc];
            if (last && (waste_mask >> loc) & 1) partners &= ~waste_mask;
            if (!partners) return 1;
        }
    } else {
        int a[14] = {0}, tal[14] = {0};
        for (uint32_t m = p->pyr; m; m &= m - 1) a[c->val[__builtin_ctz(m)]]++;
        for (uint32_t m = p->rest; m; m &= m - 1) tal[c->val[PYR + __builtin_ctz(m)]]++;
        for (int v = 1; v <= 6; v++) {
            int pa = a[v], pb = a[13 - v], ta = tal[v], tb = tal[13 - v];
            int k = pa - tb;
            if (pb - ta > k) k = pb - ta;
            if (k < 0) k = 0;
            if (k > pa || k > pb) return 1;
        }
    }
    return 0;
}

/* Is the card at loc free now? */
static inline int loc_free(const Ctx *c, const Pos *p, uint32_t freepyr, int loc) {
    if (loc < PYR) return (freepyr >> loc) & 1;
    int t = loc - PYR;
    return t == stock_top(c, p) || t == waste_top(p->rest, p->top);
}

/* Play the moves that are safe to play at once (see the lemma above); returns how many. */
static int play_forced(Ctx *c, Pos *p) {
    int played = 0;
    for (;;) {
        if (p->pyr == 0 && (!c->wholedeck || p->rest == 0)) return played;
        uint32_t fp = free_pyramid(c, p->pyr);
        int st = stock_top(c, p), wt = waste_top(p->rest, p->top);
        int locs[PYR + 2], nf = 0;
        for (uint32_t m = fp; m; m &= m - 1) locs[nf++] = __builtin_ctz(m);
        if (st >= 0) locs[nf++] = PYR + st;
        if (wt >= 0) locs[nf++] = PYR + wt;
        int done = 0;
        if (c->flags & F_KINGS) {
            for (int i = 0; i < nf; i++) {
                if (c->val[locs[i]] == 13) {
                    take(c, p, locs[i]);
                    push(c, OP_KING, locs[i], 0);
                    played++;
                    done = 1;
                    break;
                }
            }
            if (done) continue;
        }
        if (c->flags & F_FORCED) {
            uint64_t present = (uint64_t)p->pyr | ((uint64_t)p->rest << PYR);
            for (int i = 0; i < nf && !done; i++) {
                int x = locs[i];
                if (c->val[x] == 13 || (x >= PYR && !c->wholedeck)) continue;
                uint64_t partners = present & c->compat[x];
                if (!partners || (partners & (partners - 1))) continue;
                int y = __builtin_ctzll(partners);
                if (!loc_free(c, p, fp, y)) continue;
                take(c, p, x);
                take(c, p, y);
                push(c, OP_PAIR, x, y);
                played++;
                done = 1;
            }
            if (done) continue;
        }
        return played;
    }
}

/* ---- the search -------------------------------------------------------------------------- */

static inline int won(const Ctx *c, const Pos *p) {
    return p->pyr == 0 && (!c->wholedeck || p->rest == 0);
}

static int dfs(Ctx *c, Pos p) {
    int base = c->depth;
    if (++c->nodes > c->limit && c->limit > 0) {
        c->aborted = 1;
        return 0;
    }
    play_forced(c, &p);
    if (won(c, &p)) return 1;
    if ((c->flags & F_DEAD) && is_dead(c, &p)) {
        c->depth = base;
        return 0;
    }
    uint64_t key = key_of(&p);
    if (tt_has(c, key)) {
        c->depth = base;
        return 0;
    }
    if (c->depth + 4 >= MAXPATH) { /* cannot happen: a game has fewer than 200 moves */
        c->aborted = 1;
        return 0;
    }

    uint32_t fp = free_pyramid(c, p.pyr);
    int st = stock_top(c, &p), wt = waste_top(p.rest, p.top);
    int pl[PYR], np = 0;
    for (uint32_t m = fp; m; m &= m - 1) pl[np++] = __builtin_ctz(m);

    /* Kings on their own (only reached when F_KINGS is off). */
    if (!(c->flags & F_KINGS)) {
        int ks[PYR + 2], nk = 0;
        for (int i = 0; i < np; i++) if (c->val[pl[i]] == 13) ks[nk++] = pl[i];
        if (st >= 0 && c->val[PYR + st] == 13) ks[nk++] = PYR + st;
        if (wt >= 0 && c->val[PYR + wt] == 13) ks[nk++] = PYR + wt;
        for (int i = 0; i < nk; i++) {
            Pos q = p;
            take(c, &q, ks[i]);
            push(c, OP_KING, ks[i], 0);
            if (dfs(c, q)) return 1;
            if (c->aborted) return 0;
            c->depth--;
        }
    }
    /* Pairs: pyramid with pyramid, pyramid with a talon top, then the two talon tops. */
    for (int i = 0; i < np; i++) {
        int a = pl[i], va = c->val[a];
        for (int j = i + 1; j < np; j++) {
            int b = pl[j];
            if (va + c->val[b] != 13) continue;
            Pos q = p;
            take(c, &q, a);
            take(c, &q, b);
            push(c, OP_PAIR, a, b);
            if (dfs(c, q)) return 1;
            if (c->aborted) return 0;
            c->depth--;
        }
        int tops[2] = {st, wt};
        for (int j = 0; j < 2; j++) {
            if (tops[j] < 0 || va + c->val[PYR + tops[j]] != 13) continue;
            Pos q = p;
            take(c, &q, a);
            take(c, &q, PYR + tops[j]);
            push(c, OP_PAIR, a, PYR + tops[j]);
            if (dfs(c, q)) return 1;
            if (c->aborted) return 0;
            c->depth--;
        }
    }
    if (st >= 0 && wt >= 0 && c->val[PYR + st] + c->val[PYR + wt] == 13) {
        Pos q = p;
        take(c, &q, PYR + st);
        take(c, &q, PYR + wt);
        push(c, OP_PAIR, PYR + st, PYR + wt);
        if (dfs(c, q)) return 1;
        if (c->aborted) return 0;
        c->depth--;
    }
    if (st >= 0) {
        Pos q = p;
        q.top = next_at(c, q.rest, st + 1);
        push(c, OP_DRAW, 0, 0);
        if (dfs(c, q)) return 1;
        if (c->aborted) return 0;
        c->depth--;
    } else if (p.rest && p.pass < c->passes - 1) {
        Pos q = p;
        q.top = next_at(c, q.rest, 0);
        q.pass++;
        push(c, OP_RECYCLE, 0, 0);
        if (dfs(c, q)) return 1;
        if (c->aborted) return 0;
        c->depth--;
    }
    tt_add(c, key);
    c->depth = base;
    return 0;
}

/* ---- set-up ------------------------------------------------------------------------------ */

static void setup_tables(Ctx *c) {
    uint32_t cone[PYR]; /* every slot covering this one, directly or not */
    for (int r = 6; r >= 0; r--) {
        for (int col = 0; col <= r; col++) {
            int i = r * (r + 1) / 2 + col;
            c->cover[i] = 0;
            cone[i] = 0;
            if (r < 6) {
                int a = i + r + 1, b = i + r + 2;
                c->cover[i] = (1u << a) | (1u << b);
                cone[i] = c->cover[i] | cone[a] | cone[b];
            }
        }
    }
    int total = PYR + c->n;
    c->talon_bits = 0;
    for (int t = 0; t < c->n; t++) c->talon_bits |= 1ULL << (PYR + t);
    for (int x = 0; x < total; x++) {
        uint64_t m = 0;
        for (int y = 0; y < total; y++) {
            if (y == x || !c->val[x] || !c->val[y] || c->val[x] + c->val[y] != 13) continue;
            if (x < PYR && y < PYR && (((cone[x] >> y) & 1) || ((cone[y] >> x) & 1))) continue;
            m |= 1ULL << y;
        }
        c->compat[x] = m;
    }
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    Py_buffer pyr_buf, tal_buf;
    int top, pass, passes, wholedeck, flags;
    long long limit;
    if (!PyArg_ParseTuple(args, "y*y*iiiiiL", &pyr_buf, &tal_buf, &top, &pass, &passes,
                          &wholedeck, &flags, &limit))
        return NULL;
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) {
        PyBuffer_Release(&pyr_buf);
        PyBuffer_Release(&tal_buf);
        return PyErr_NoMemory();
    }
    int bad = pyr_buf.len != PYR || tal_buf.len > MAXTALON || top < 0 || top > tal_buf.len
              || passes < 1 || passes > 3 || pass < 0 || pass >= passes;
    Pos p = {0, 0, 0, pass};
    if (!bad) {
        c->n = (int)tal_buf.len;
        c->passes = passes;
        c->wholedeck = wholedeck;
        c->flags = flags;
        c->limit = limit;
        const uint8_t *pv = pyr_buf.buf, *tv = tal_buf.buf;
        for (int i = 0; i < PYR; i++) {
            if (pv[i] > 13) bad = 1;
            c->val[i] = pv[i];
            if (pv[i]) p.pyr |= 1u << i;
        }
        for (int t = 0; t < c->n; t++) {
            if (tv[t] < 1 || tv[t] > 13) bad = 1;
            c->val[PYR + t] = tv[t];
            p.rest |= 1u << t;
        }
        p.top = next_at(c, p.rest, top);
    }
    PyBuffer_Release(&pyr_buf);
    PyBuffer_Release(&tal_buf);
    if (bad) {
        free(c);
        PyErr_SetString(PyExc_ValueError, "malformed position");
        return NULL;
    }
    setup_tables(c);
    if (!tt_grow(c)) {
        free(c);
        return PyErr_NoMemory();
    }
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = dfs(c, p);
    Py_END_ALLOW_THREADS
    int status = c->aborted ? -1 : result;
    PyObject *moves = PyList_New(0);
    if (moves && status == 1) {
        for (int i = 0; i < c->depth; i++) {
            PyObject *m = Py_BuildValue("(iii)", c->path_op[i], c->path_a[i], c->path_b[i]);
            if (!m || PyList_Append(moves, m) < 0) {
                Py_XDECREF(m);
                Py_CLEAR(moves);
                break;
            }
            Py_DECREF(m);
        }
    }
    long long nodes = c->nodes;
    free(c->tt);
    free(c);
    if (!moves) return NULL;
    return Py_BuildValue("(iNL)", status, moves, nodes);
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(pyramid_values, talon_values, stock_top, pass, passes, wholedeck, flags, "
     "node_limit) -> (status, moves, nodes)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_solver",
                                    "The solver's search, in C.", -1, methods};

PyMODINIT_FUNC PyInit__solver(void) { return PyModule_Create(&module); }
