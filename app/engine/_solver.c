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
 *   with C = {X, Y}. (In the last pass the cards under the waste top are never its partners:
 *   see F_DEAD.)
 * F_DEAD: a position is lost when some card that every win must remove has no remaining
 *   partner it can ever be free together with. Two pyramid cards can never be free together
 *   when one covers the other, directly or through other cards. In the last pass, two cards
 *   now in the waste are never free together (only the top of the waste is free, and what is
 *   under it stays under it), so a waste card can only leave with a pyramid or stock card, and
 *   only after every card above it has left, each with a partner of its own. Digging down the
 *   waste, the first card for which some value runs out of pyramid and stock partners (the
 *   cards above it and itself need more than there are) can never leave: in the whole-deck
 *   game that is a loss; in the standard game the cards under it are out of reach for good,
 *   and are no partners for anything (also in the relaxed game below).
 * F_RELAXED: the relaxed game (see relaxed_wins) must still be winnable.
 *
 * Search shortcuts that are not pruning: a position whose only move is a draw (or a recycle)
 * is stepped through without a node of its own, and after a draw or recycle the dead-end
 * tests are not repeated when they cannot have changed.
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
    uint64_t counts; /* talon cards left per value 1..12, 3 bits each (see count_unit) */
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

/* ---- the deal, as tables ------------------------------------------------------------------ */

typedef struct {
    int wholedeck, passes, n, flags;
    uint8_t val[PYR + MAXTALON];     /* value of the card at each location */
    uint64_t compat[PYR + MAXTALON]; /* locations that could ever be paired with this one */
    uint64_t of_value[14];           /* locations holding each value */
    uint32_t talon_of_value[14];     /* the same, as talon indices */
    uint32_t pyramid_kings;
    Set lost;                        /* positions proven lost */
    Set relaxed_won, relaxed_lost;   /* verdicts of the relaxed game */
    long long nodes, limit;
    int aborted;
    int depth;
    uint8_t path_op[MAXPATH], path_a[MAXPATH], path_b[MAXPATH];
} Ctx;

static inline uint64_t key_of(const Pos *p) {
    return (uint64_t)p->pyr | ((uint64_t)p->rest << 28) | ((uint64_t)p->top << 52)
           | ((uint64_t)p->pass << 58) | (1ULL << 63);
}

static inline uint64_t count_unit(int value) { return 1ULL << (3 * (value - 1)); }

/* ---- the talon and the pyramid ---------------------------------------------------------- */

/* The first talon card at index >= from, or n when there is none. */
static inline int next_at(const Ctx *c, uint32_t rest, int from) {
    if (from >= 32) return c->n;
    uint32_t m = rest & (~0u << from);
    return m ? __builtin_ctz(m) : c->n;
}

static inline uint32_t waste_bits(uint32_t rest, int top) {
    return top >= 32 ? rest : rest & ((1u << top) - 1);
}

static inline int waste_top(uint32_t rest, int top) {
    uint32_t m = waste_bits(rest, top);
    return m ? 31 - __builtin_clz(m) : -1;
}

static inline int stock_top(const Ctx *c, const Pos *p) { return p->top < c->n ? p->top : -1; }

/* The free pyramid cards: those present whose two covering slots are empty. Slot i of row r is
 * covered by slots i + r + 1 and i + r + 2, so one shift pair per row does a whole row. */
static inline uint32_t free_pyramid(uint32_t pyr) {
    uint32_t covered = (((pyr >> 1) | (pyr >> 2)) & 0x1u)
                     | (((pyr >> 2) | (pyr >> 3)) & 0x6u)
                     | (((pyr >> 3) | (pyr >> 4)) & 0x38u)
                     | (((pyr >> 4) | (pyr >> 5)) & 0x3c0u)
                     | (((pyr >> 5) | (pyr >> 6)) & 0x7c00u)
                     | (((pyr >> 6) | (pyr >> 7)) & 0x1f8000u);
    return pyr & ~covered;
}

/* Take the card at location loc out of the position. */
static inline void take(const Ctx *c, Pos *p, int loc) {
    if (loc < PYR) {
        p->pyr &= ~(1u << loc);
    } else {
        int t = loc - PYR;
        p->rest &= ~(1u << t);
        if (c->val[loc] != 13) p->counts -= count_unit(c->val[loc]);
        if (t == p->top) p->top = next_at(c, p->rest, t + 1);
    }
}

static inline void push(Ctx *c, int op, int a, int b) {
    c->path_op[c->depth] = (uint8_t)op;
    c->path_a[c->depth] = (uint8_t)a;
    c->path_b[c->depth] = (uint8_t)b;
    c->depth++;
}

static inline int won(const Ctx *c, const Pos *p) {
    return p->pyr == 0 && (!c->wholedeck || p->rest == 0);
}

/* ---- pruning ---------------------------------------------------------------------------------- */

/* Is the position lost for want of partners (F_DEAD in the header)? Also tells, through
 * *usable, which talon cards can still ever be used: all of them but in the last pass. Talon
 * cards always have a partner somewhere: the pack stays balanced, with as many cards of value
 * v as of 13 - v. Pyramid cards may not, because of what covers what. */
static int is_dead(const Ctx *c, const Pos *p, uint32_t *usable) {
    uint64_t present = (uint64_t)p->pyr | ((uint64_t)p->rest << PYR);
    uint64_t avail = present;
    *usable = p->rest;
    if (p->pass == c->passes - 1) {
        /* Dig down the waste: to reach a waste card, every card above it must leave first,
         * each with its own pyramid or stock partner. The first card for which that runs out
         * of partners of some value can never leave, and what lies under it is out of reach. */
        uint32_t waste = waste_bits(p->rest, p->top);
        if (waste) {
            uint64_t outside = present & ~((uint64_t)waste << PYR);
            int partners[14], above[14] = {0};
            for (int v = 1; v <= 12; v++)
                partners[v] = __builtin_popcountll(outside & c->of_value[13 - v]);
            for (uint32_t m = waste; m; ) {
                int t = 31 - __builtin_clz(m), v = c->val[PYR + t];
                m &= ~(1u << t);
                if (v == 13) continue;
                if (++above[v] > partners[v]) {
                    if (c->wholedeck) return 1;
                    *usable = p->rest & ~((1u << t) - 1);
                    avail = (uint64_t)p->pyr | ((uint64_t)*usable << PYR);
                    break;
                }
            }
        }
    }
    for (uint32_t m = p->pyr & ~c->pyramid_kings; m; m &= m - 1) {
        if (!(avail & c->compat[__builtin_ctz(m)])) return 1;
    }
    return 0;
}

/* ---- the relaxed game ------------------------------------------------------------------------
 * The same pyramid, but every talon card is reachable at any time, once: only how many talon
 * cards of each value are left matters. Any real winning line is a winning line of the
 * relaxed game (play its pyramid moves in the same order; its talon pairs are not needed), so a
 * position whose relaxed game is lost is lost. The relaxed game is small (pyramid shapes times
 * talon counts) and its verdicts are kept, so the real search asks it at every new position. */

static inline uint64_t relaxed_key(uint32_t pyr, uint64_t counts) {
    return (uint64_t)pyr | (counts << PYR); /* 28 + 36 bits; never 0 while pyr is not empty */
}

static int relaxed_wins(Ctx *c, uint32_t pyr, uint64_t counts) {
    uint32_t fp;
    for (;;) { /* a free King goes at once, as in the real search */
        if (!pyr) return 1;
        fp = free_pyramid(pyr);
        uint32_t kings = fp & c->pyramid_kings;
        if (!kings) break;
        pyr &= ~kings;
    }
    uint64_t key = relaxed_key(pyr, counts);
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
        uint64_t unit = count_unit(13 - va);
        if ((counts / unit) & 7) {
            if (relaxed_wins(c, pyr & ~(1u << a), counts - unit)) {
                set_add(&c->relaxed_won, key);
                return 1;
            }
        }
    }
    set_add(&c->relaxed_lost, key);
    return 0;
}

/* The relaxed game's talon counts for the usable talon cards. */
static inline uint64_t usable_counts(const Ctx *c, const Pos *p, uint32_t usable) {
    uint64_t counts = p->counts;
    for (uint32_t m = p->rest & ~usable; m; m &= m - 1) {
        int v = c->val[PYR + __builtin_ctz(m)];
        if (v != 13) counts -= count_unit(v);
    }
    return counts;
}

/* ---- moves that are safe to play at once ------------------------------------------------ */

/* Is the card at loc free now? */
static inline int loc_free(const Ctx *c, const Pos *p, uint32_t freepyr, int loc) {
    if (loc < PYR) return (freepyr >> loc) & 1;
    int t = loc - PYR;
    return t == stock_top(c, p) || t == waste_top(p->rest, p->top);
}

/* Play the moves that are safe to play at once (F_KINGS, F_FORCED); returns how many. */
static int play_forced(Ctx *c, Pos *p) {
    int played = 0;
    while (!won(c, p)) {
        uint32_t fp = free_pyramid(p->pyr);
        int st = stock_top(c, p), wt = waste_top(p->rest, p->top);
        if (c->flags & F_KINGS) {
            int king = -1;
            uint32_t kings = fp & c->pyramid_kings;
            if (kings) king = __builtin_ctz(kings);
            else if (st >= 0 && c->val[PYR + st] == 13) king = PYR + st;
            else if (wt >= 0 && c->val[PYR + wt] == 13) king = PYR + wt;
            if (king >= 0) {
                take(c, p, king);
                push(c, OP_KING, king, 0);
                played++;
                continue;
            }
        }
        if (!(c->flags & F_FORCED)) break;
        uint64_t present = (uint64_t)p->pyr | ((uint64_t)p->rest << PYR);
        uint64_t free_locs = fp;
        if (c->wholedeck) { /* in the standard game a talon card need not go */
            if (st >= 0) free_locs |= 1ULL << (PYR + st);
            if (wt >= 0) free_locs |= 1ULL << (PYR + wt);
        }
        /* In the last pass the waste top can never meet a card under it (see F_DEAD). */
        uint64_t under_waste_top = 0;
        if (wt >= 0 && p->pass == c->passes - 1)
            under_waste_top = (uint64_t)waste_bits(p->rest, wt) << PYR;
        int x = -1, y = -1;
        for (uint64_t m = free_locs; m; m &= m - 1) {
            int loc = __builtin_ctzll(m);
            if (c->val[loc] == 13) continue;
            uint64_t partners = present & c->compat[loc];
            if (loc == PYR + wt) partners &= ~under_waste_top;
            if (partners && !(partners & (partners - 1))
                && loc_free(c, p, fp, __builtin_ctzll(partners))) {
                x = loc;
                y = __builtin_ctzll(partners);
                break;
            }
        }
        if (x < 0) break;
        take(c, p, x);
        take(c, p, y);
        push(c, OP_PAIR, x, y);
        played++;
    }
    return played;
}

/* ---- the search -------------------------------------------------------------------------- */

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

/* Is p lost by the dead-end tests? `relaxed` is the relaxed game already known to be winnable
 * (from the parent), updated when this position asks a different one. */
static inline int pruned(Ctx *c, const Pos *p, uint64_t *relaxed) {
    uint32_t usable = p->rest;
    if ((c->flags & F_DEAD) && is_dead(c, p, &usable)) return 1;
    if (c->flags & F_RELAXED) {
        uint64_t counts = usable == p->rest ? p->counts : usable_counts(c, p, usable);
        uint64_t key = relaxed_key(p->pyr, counts);
        if (key != *relaxed) {
            if (p->pyr && !relaxed_wins(c, p->pyr, counts)) return 1;
            *relaxed = key;
        }
    }
    return 0;
}

/* Search from p; on a win the winning line is left on the path. `check` says whether the
 * dead-end tests can tell anything new: after a draw or recycle outside the last pass the
 * cards are the same, and so is the verdict the parent already had. */
static int dfs(Ctx *c, Pos p, int check, uint64_t relaxed) {
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
        if (play_forced(c, &p)) check = 1;
        if (won(c, &p)) return 1;
        if (p.pass == c->passes - 1) check = 1;
        if (check && pruned(c, &p, &relaxed)) {
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
        if (dfs(c, q, moves[i].op < OP_DRAW, relaxed)) return 1;
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
            cone[i] = 0;
            if (r < 6) {
                int a = i + r + 1, b = i + r + 2;
                cone[i] = (1u << a) | (1u << b) | cone[a] | cone[b];
            }
        }
    }
    int total = PYR + c->n;
    for (int x = 0; x < total; x++) {
        int v = c->val[x];
        if (!v) continue;
        c->of_value[v] |= 1ULL << x;
        if (x >= PYR) c->talon_of_value[v] |= 1u << (x - PYR);
        else if (v == 13) c->pyramid_kings |= 1u << x;
    }
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

static PyObject *py_solve(PyObject *Py_UNUSED(self), PyObject *args) {
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
    Pos p = {0, 0, 0, pass, 0};
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
            if (tv[t] >= 1 && tv[t] <= 12) p.counts += count_unit(tv[t]);
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
    result = dfs(c, p, 1, 0);
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
