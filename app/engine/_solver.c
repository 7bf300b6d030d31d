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
#define F_RELAXED 8

enum { OP_KING = 0, OP_PAIR = 1, OP_DRAW = 2, OP_RECYCLE = 3 };


typedef struct {
    uint32_t pyr, rest;
    int top, pass;
} Pos;

/* ---- hash sets of 64-bit keys (open addressing; 0 marks an empty slot) -------------------- */

typedef struct {
    uint64_t *slots;
    size_t cap, used;
} Set;

static inline uint64_t mix(uint64_t k) {
    k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

static int set_grow(Set *s) {
    size_t ncap = s->cap ? s->cap * 2 : (1u << 12);
    uint64_t *nt = calloc(ncap, sizeof(uint64_t));
    if (!nt) return 0;
    for (size_t i = 0; i < s->cap; i++) {
        uint64_t k = s->slots[i];
        if (!k) continue;
        size_t j = mix(k) & (ncap - 1);
        while (nt[j]) j = (j + 1) & (ncap - 1);
        nt[j] = k;
    }
    free(s->slots);
    s->slots = nt;
    s->cap = ncap;
    return 1;
}

static inline int set_has(const Set *s, uint64_t k) {
    size_t j = mix(k) & (s->cap - 1);
    while (s->slots[j]) {
        if (s->slots[j] == k) return 1;
        j = (j + 1) & (s->cap - 1);
    }
    return 0;
}

static inline void set_add(Set *s, uint64_t k) {
    if ((s->used + 1) * 2 > s->cap && !set_grow(s)) return; /* out of memory: just forget */
    size_t j = mix(k) & (s->cap - 1);
    while (s->slots[j]) {
        if (s->slots[j] == k) return;
        j = (j + 1) & (s->cap - 1);
    }
    s->slots[j] = k;
    s->used++;
}

typedef struct {
    int wholedeck, passes, n, flags;
    uint8_t val[PYR + MAXTALON];   /* value of the card at each location */
    uint32_t cover[PYR];           /* the slots that directly cover a slot */
    uint64_t compat[PYR + MAXTALON]; /* locations that could ever be paired with this one */
    uint64_t talon_bits;           /* all talon locations */
    Set lost;                      /* positions proven lost */
    Set relaxed_won, relaxed_lost; /* verdicts of the relaxed game (see relaxed_wins) */
    long long nodes, limit;
    int aborted;
    int depth;
    uint8_t path_op[MAXPATH], path_a[MAXPATH], path_b[MAXPATH];
} Ctx;

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

/* The free pyramid cards: those present whose two covering slots are empty. Slot i of row r is
 * covered by slots i + r + 1 and i + r + 2, so one shift per row does a whole row at once. */
static inline uint32_t free_pyramid(uint32_t pyr) {
    uint32_t covered = 0;
    for (int r = 0; r < 6; r++) {
        uint32_t row = ((1u << (r + 1)) - 1) << (r * (r + 1) / 2);
        covered |= ((pyr >> (r + 1)) | (pyr >> (r + 2))) & row;
    }
    return pyr & ~covered;
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

/* Is the position lost for want of partners (F_DEAD in the header)? Also tells, through
 * *usable, which talon cards can still ever be used: all of them but in the last pass. */
static int is_dead(const Ctx *c, const Pos *p, uint32_t *usable) {
    uint64_t present = (uint64_t)p->pyr | ((uint64_t)p->rest << PYR);
    uint64_t avail = present, waste_mask = 0;
    *usable = p->rest;
    if (p->pass == c->passes - 1) {
        /* In the last pass a waste card leaves only with a pyramid or stock card (two waste
         * cards are never free together); one that cannot leaves the cards beneath it stuck
         * forever, so they are no partners for anything. */
        uint32_t w = p->top >= 32 ? p->rest : p->rest & ((1u << p->top) - 1);
        waste_mask = (uint64_t)w << PYR;
        for (uint32_t m = w; m; ) {
            int t = 31 - __builtin_clz(m), loc = PYR + t;
            m &= ~(1u << t);
            if (c->val[loc] != 13 && !(avail & ~waste_mask & c->compat[loc])) {
                if (c->wholedeck) return 1;
                avail &= ~(((uint64_t)m << PYR) | (1ULL << loc));
                *usable = (uint32_t)(avail >> PYR);
                break;
            }
        }
    }
    uint64_t must = c->wholedeck ? present : (uint64_t)p->pyr;
    for (uint64_t m = must; m; m &= m - 1) {
        int loc = __builtin_ctzll(m);
        if (c->val[loc] == 13) continue;
        uint64_t q = avail & c->compat[loc];
        if ((waste_mask >> loc) & 1) q &= ~waste_mask;
        if (!q) return 1;
    }
    return 0;
}

/* ---- the relaxed game ------------------------------------------------------------------------
 * The same pyramid, but every talon card is reachable at any time, once: only how many talon
 * cards of each value are left matters. Any real winning line is a winning line of the
 * relaxed game (play its pyramid moves in the same order; its talon pairs are not needed), so a
 * position whose relaxed game is lost is lost. The relaxed game is small (pyramid shapes times
 * talon counts) and its verdicts are kept, so the real search asks it at every new position.
 * Talon counts are packed 3 bits per value 1..12 (Kings need no partner). */

static inline uint64_t talon_counts(const Ctx *c, uint32_t rest) {
    uint64_t counts = 0;
    for (uint32_t m = rest; m; m &= m - 1) {
        int v = c->val[PYR + __builtin_ctz(m)];
        if (v != 13) counts += 1ULL << (3 * (v - 1));
    }
    return counts;
}

static int relaxed_wins(Ctx *c, uint32_t pyr, uint64_t counts) {
    uint32_t fp;
    for (;;) { /* a free King goes at once, as in the real search */
        if (!pyr) return 1;
        fp = free_pyramid(pyr);
        uint32_t kings = 0;
        for (uint32_t m = fp; m; m &= m - 1)
            if (c->val[__builtin_ctz(m)] == 13) kings |= m & -m;
        if (!kings) break;
        pyr &= ~kings;
    }
    uint64_t key = (uint64_t)pyr | (counts << PYR); /* never 0: pyr is not empty */
    if (set_has(&c->relaxed_won, key)) return 1;
    if (set_has(&c->relaxed_lost, key)) return 0;
    for (uint32_t m = fp; m; m &= m - 1) {
        int a = __builtin_ctz(m), va = c->val[a];
        for (uint32_t r = m & (m - 1); r; r &= r - 1) {
            int b = __builtin_ctz(r);
            if (va + c->val[b] == 13 && relaxed_wins(c, pyr & ~(1u << a) & ~(1u << b), counts)) {
                set_add(&c->relaxed_won, key);
                return 1;
            }
        }
        int shift = 3 * (12 - va);
        if ((counts >> shift) & 7) {
            if (relaxed_wins(c, pyr & ~(1u << a), counts - (1ULL << shift))) {
                set_add(&c->relaxed_won, key);
                return 1;
            }
        }
    }
    set_add(&c->relaxed_lost, key);
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
        uint32_t fp = free_pyramid(p->pyr);
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

typedef struct {
    uint8_t op, a, b;
} Step;

/* The moves from p, in the order tried: Kings (only when F_KINGS is off: otherwise they were
 * played already), pyramid pairs, pyramid cards with a talon top, the two talon tops, then a
 * draw or a recycle. Returns how many. */
static int gen_moves(const Ctx *c, const Pos *p, Step *out) {
    int n = 0;
    uint32_t fp = free_pyramid(p->pyr);
    int st = stock_top(c, p), wt = waste_top(p->rest, p->top);
    int pl[PYR], np = 0;
    for (uint32_t m = fp; m; m &= m - 1) pl[np++] = __builtin_ctz(m);
    if (!(c->flags & F_KINGS)) {
        for (int i = 0; i < np; i++)
            if (c->val[pl[i]] == 13) out[n++] = (Step){OP_KING, (uint8_t)pl[i], 0};
        if (st >= 0 && c->val[PYR + st] == 13) out[n++] = (Step){OP_KING, (uint8_t)(PYR + st), 0};
        if (wt >= 0 && c->val[PYR + wt] == 13) out[n++] = (Step){OP_KING, (uint8_t)(PYR + wt), 0};
    }
    for (int i = 0; i < np; i++) {
        int a = pl[i], va = c->val[a];
        for (int j = i + 1; j < np; j++)
            if (va + c->val[pl[j]] == 13) out[n++] = (Step){OP_PAIR, (uint8_t)a, (uint8_t)pl[j]};
    }
    for (int i = 0; i < np; i++) {
        int a = pl[i], va = c->val[a];
        if (st >= 0 && va + c->val[PYR + st] == 13)
            out[n++] = (Step){OP_PAIR, (uint8_t)a, (uint8_t)(PYR + st)};
        if (wt >= 0 && va + c->val[PYR + wt] == 13)
            out[n++] = (Step){OP_PAIR, (uint8_t)a, (uint8_t)(PYR + wt)};
    }
    if (st >= 0 && wt >= 0 && c->val[PYR + st] + c->val[PYR + wt] == 13)
        out[n++] = (Step){OP_PAIR, (uint8_t)(PYR + st), (uint8_t)(PYR + wt)};
    if (st >= 0) out[n++] = (Step){OP_DRAW, 0, 0};
    else if (p->rest && p->pass < c->passes - 1) out[n++] = (Step){OP_RECYCLE, 0, 0};
    return n;
}

static inline void apply(const Ctx *c, Pos *p, Step m) {
    switch (m.op) {
    case OP_KING: take(c, p, m.a); break;
    case OP_PAIR: take(c, p, m.a); take(c, p, m.b); break;
    case OP_DRAW: p->top = next_at(c, p->rest, p->top + 1); break;
    default: p->top = next_at(c, p->rest, 0); p->pass++; break;
    }
}

/* Search from p; on a win the winning line is left on the path. `check` says whether the
 * dead-end test can tell anything new (see below). */
static int dfs(Ctx *c, Pos p, int check) {
    int base = c->depth;
    Step moves[PYR * 3 + 8];
    int n;
    if (++c->nodes > c->limit && c->limit > 0) {
        c->aborted = 1;
        return 0;
    }
    for (;;) {
        if (c->depth + 8 >= MAXPATH) { /* cannot happen: a game has fewer than 200 moves */
            c->aborted = 1;
            return 0;
        }
        /* After a draw or a recycle outside the last pass the cards are the same, and so is
         * the dead-end verdict: the parent already found the position alive. */
        if (play_forced(c, &p)) check = 1;
        if (won(c, &p)) return 1;
        if (p.pass == c->passes - 1) check = 1;
        uint32_t usable = p.rest;
        if (check && (((c->flags & F_DEAD) && is_dead(c, &p, &usable))
                      || ((c->flags & F_RELAXED)
                          && !relaxed_wins(c, p.pyr, talon_counts(c, usable))))) {
            c->depth = base;
            return 0;
        }
        n = gen_moves(c, &p, moves);
        /* A position whose only move is a draw or a recycle is the same as the next one:
         * step through it here, without a node or a table entry of its own. */
        if (n == 1 && moves[0].op >= OP_DRAW) {
            apply(c, &p, moves[0]);
            push(c, moves[0].op, 0, 0);
            check = 0;
            continue;
        }
        break;
    }
    if (n == 0) {
        c->depth = base;
        return 0;
    }
    uint64_t key = key_of(&p);
    if (set_has(&c->lost, key)) {
        c->depth = base;
        return 0;
    }
    for (int i = 0; i < n; i++) {
        Pos q = p;
        apply(c, &q, moves[i]);
        push(c, moves[i].op, moves[i].a, moves[i].b);
        if (dfs(c, q, moves[i].op < OP_DRAW)) return 1;
        if (c->aborted) return 0;
        c->depth--;
    }
    set_add(&c->lost, key);
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
    if (!set_grow(&c->lost) || !set_grow(&c->relaxed_won) || !set_grow(&c->relaxed_lost)) {
        free(c->lost.slots);
        free(c->relaxed_won.slots);
        free(c);
        return PyErr_NoMemory();
    }
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = dfs(c, p, 1);
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
    free(c->lost.slots);
    free(c->relaxed_won.slots);
    free(c->relaxed_lost.slots);
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
