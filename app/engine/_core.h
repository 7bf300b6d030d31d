/*
 * The solver's core, shared by its C files: the position, the rules, the tables of a deal.
 *
 *   _solver.c  the Python module, _wasm.c the WebAssembly one (both via _position.c);
 *   _tables.c  the hash tables the searches keep (declared in _tables.h);
 *   _pays.h    the dead-end tests asked only while they pay: the policy and its numbers;
 *   _moves.c   the legal moves, and the moves safe to play at once (with their proofs);
 *   _prune.c   what proves a position lost: dead ends, the relaxed and the stacked games;
 *   _word.c    the word game: whether a whole-deck talon can still be cleared at all;
 *   _apex.c    the apex test: how the last pyramid card can go, in the last pass;
 *   _cone.c    the cone test: the same for a card only the talon can partner (_shapes.h: what
 *              the two share);
 *   _search.c  the decision search: can this position be won at all?
 *   _starts.c  the later passes' starts, queued fewest cards first (the decision search's order);
 *   _par.c     the par search: the fewest moves that win, proven minimal;
 *   _playout.c random playouts by the game's rules (for the difficulty measures).
 *
 * Python (solver.py) hands over one position: the values of the 28 pyramid slots (0 where a
 * card is gone), the talon (every stock and waste card, in their one fixed order: waste bottom
 * to top, then stock top to bottom), where the stock starts in it, the pass, and the rules.
 *
 * A position is four numbers packed into one 64-bit key:
 *   pyr   28 bits, the pyramid cards still there;
 *   rest  24 bits, the talon cards still there (the talon never changes order: a draw moves
 *         the boundary between waste and stock, a recycle moves it back to the start);
 *   top   5 bits, the index of the stock's top card (n when the stock is empty): the boundary,
 *         put in one canonical place so that equal positions get equal keys;
 *   pass  2 bits, recycles used (always 0 with unlimited passes, where it does not matter).
 * Locations: 0..27 are pyramid slots (apex first), 28 + i is talon card i.
 *
 * Rules. `wholedeck`: all 52 cards must go, else the 28 pyramid cards. `passes`: 1..MAX_PASSES, or 0
 * for unlimited passes (recycle whenever the stock is empty and the waste is not). `overlap`:
 * a pyramid card X with exactly one of its two covering cards still there, that card Y being
 * free, may also be removed together with Y when their values make 13 (an "overlap pair").
 *
 * With a pass limit every move removes cards, draws (top grows) or recycles (pass grows), so
 * positions never repeat on a path. With unlimited passes a recycle with no removal since the
 * last one brings back the position that started the pass: the searches mark a position as
 * visited when they enter it, which is all a search for reachability needs to end.
 */
#ifndef PYRAMID_CORE_H
#define PYRAMID_CORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PYR 28
#define MAXTALON 24
#define NLOC (PYR + MAXTALON)
#define MAXPATH 512
#define NONE 0xff
/* The most passes a rule set allows: app/engine/variant.py's MAX_PASSES, the one definition
 * (the module exports this one, and tests/engine/test_solver.py holds the two equal). The key's
 * pass field (2 bits) holds the recycles of up to 4 passes. */
#define MAX_PASSES 3

/* Pruning and search shortcuts, each switchable so the tests can compare with the plain search.
 * The arguments: F_KINGS and F_FORCED in _moves.c, F_DEAD, F_NESTED, F_RELAXED and F_STACKED
 * in _prune.c, F_WORD in _word.c, F_APEX in _apex.c, F_CONE in _cone.c, F_COMMUTE (and the
 * table's PASSES rule) and F_DOMINANCE in _search.c, the par search's in _par.c, F_SUITS at
 * class_key below.
 * F_STARTS is not a pruning but the order the decision search decides the later passes'
 * starts in (_starts.c); it is switchable like them so that the tests can compare it with the
 * plain depth-first order. These and the op codes are defined here only: the Python module
 * exports them (_solver.c), under the names solver.py uses. */
#define F_KINGS 1
#define F_FORCED 2
#define F_DEAD 4
#define F_RELAXED 8
#define F_COMMUTE 16
#define F_STACKED 32
#define F_NESTED 64
#define F_WORD 128
#define F_APEX 256
#define F_SUITS 512
#define F_STARTS 1024
#define F_DOMINANCE 2048
#define F_CONE 4096
#define F_ALL (2 * F_CONE - 1) /* every one of them */

/* A move: a King removed alone (a), a pair removed (a and b), a draw, a recycle. */
enum { OP_KING = 0, OP_PAIR = 1, OP_DRAW = 2, OP_RECYCLE = 3 };

typedef struct {
    uint32_t pyr, rest;
    int top, pass;
    uint64_t counts; /* talon cards left per value 1..12, 3 bits each (see count_unit) */
} Pos;

typedef struct {
    uint8_t op, a, b;
} Step;

#include "_pays.h"
#include "_tables.h"

/* ---- the deal, as tables ------------------------------------------------------------------ */

/* The 1,430 shapes a pyramid can have, indexed per deal by the imbalance of their cards (see
 * _apex.c): chains of shapes per hash bucket. */
#define NSHAPES 1430
#define SHAPE_BUCKETS 2048
typedef struct {
    int16_t head[SHAPE_BUCKETS], next[NSHAPES];
    uint32_t key[NSHAPES];
    uint64_t bytes[NSHAPES]; /* the key as a byte a pair of values, offset by 64 (_cone.c) */
} ShapeIndex;

/* F_CONE's state in a decision search: whether the test pays at the starts (_pays.h). */
typedef struct {
    int sample, probe;         /* this start: searched without the test / tested regardless */
    ConeGate gate;
    uint8_t hint[PYR];         /* per card, the partner that passed last */
} Cone;

/* The later passes' starts that the decision search has found and not decided yet (_starts.c):
 * a heap, fewest cards first, and the lines that reach them, kept as pieces (trails) that
 * share their beginnings. */

typedef struct {
    Pos p;
    uint64_t order;  /* its group of cards left << 32 | the order found: the heap's key */
    uint64_t relaxed; /* the relaxed game known won there (see relaxed_lost) */
    int32_t trail;   /* the line to it (see Trail) */
    int32_t ctx;     /* F_COMMUTE's context it was reached in */
    int32_t tested;  /* its dead-end tests asked when found (else owed: F_DOMINANCE) */
} Start;

typedef struct {
    int32_t parent;  /* the trail before this one, -1 for none */
    int32_t first;   /* this trail's steps: steps[first .. first + n) */
    int32_t n;
} Trail;

typedef struct {
    Start *heap;
    size_t n, cap;
    Trail *trails;
    size_t ntrails, trails_cap;
    Step *steps;
    size_t nsteps, steps_cap;
    uint32_t found;                      /* starts queued so far */
    long long spent;                     /* nodes spent deciding starts */
    int serving;                         /* deciding a queued start now */
    int frames;                          /* the earlier passes' nodes on the current line: */
    int frame_base[MAXPATH], frame_end[MAXPATH], frame_trail[MAXPATH];
    int floor;                           /* the first frame of the start being decided, */
    int32_t root_trail;                  /* the trail of the line to it (-1: none), */
    int root_depth;                      /* and where in c->path its search began */
} Starts;

typedef struct {
    int wholedeck, passes, overlap, n, flags;
    uint8_t val[NLOC];               /* value of the card at each location (0: none) */
    uint8_t cover[PYR][2];           /* the two slots covering a slot (NONE in row 6) */
    uint64_t compat[NLOC];           /* locations that could ever be paired with this one */
    uint64_t of_value[14];           /* locations holding each value */
    uint32_t pyramid_kings;
    Set lost;                        /* decision search: positions visited, none won */
    Starts starts;                   /* decision search: the queued starts (_starts.c) */
    Memo relaxed;                    /* verdicts of the relaxed game (see _prune.c) */
    Memo stacked;                    /* verdicts of the stacked game (see stacked_find) */
    Memo word;                       /* verdicts of the word game (see _word.c) */
    uint64_t *word_seen, word_stamp; /* the word game's failed states, per call (see _word.c) */
    Gate word_gate;                  /* the word game's asks, while it pays (see word_lost) */
    Memo apex;                       /* the apex test's verdicts, per partner (see _apex.c) */
    ShapeIndex *shapes;              /* made when the apex test is first asked */
    Cone cone;                       /* the cone test's (_cone.c) */
    uint32_t class_rest, class_places; /* class_key's last talon and the places of its class, */
    uint8_t class_place[MAXTALON];   /* card by card (at first the empty talon's: none) */
    uint32_t same_value[MAXTALON];   /* the talon's places holding the value of each */
    int apex_hint;                   /* the partner that last passed the apex test (_apex.c) */
    Gate apex_gate, apex_word_gate;  /* the apex test's asks while it pays, and its word's */
    Set bound;                       /* par search: position -> moves it needs at least */
    long long nodes, limit;
    int aborted, depth;
    Step path[MAXPATH];
    Step best[MAXPATH];              /* par search: the shortest line so far */
} Ctx;

/* A key is never 0: a position with no card left anywhere is won and never stored. Bits 57
 * and 60..63 say how a node was searched (F_COMMUTE's context, see _search.c), 58..59 hold
 * the pass; the tables hash a key without them (see set_slot). */
#define KEY_PASS (3ULL << 58)
#define KEY_CONTEXT ((1ULL << 57) | (15ULL << 60))
/* F_STARTS: an entry with this bit says the position is open, not lost: the later passes' starts
 * its search reached are queued, not all decided yet (_starts.c). Hashed as the entries of the
 * same position are, so that one cache miss finds both. */
#define KEY_OPEN (1ULL << 61)

static inline uint64_t key_of(const Pos *p) {
    return (uint64_t)p->pyr | ((uint64_t)p->rest << 28) | ((uint64_t)p->top << 52)
           | ((uint64_t)p->pass << 58);
}

/* F_SUITS: suits never matter, so two positions with the same pyramid and pass whose waste and
 * stock hold the same values in the same order are the same game: a move of one is a move of
 * the other on the talon card in the same place of the sequence, and the two positions it
 * leads to are again such a pair. So whatever a search learns of one (lost, lost for a node
 * searched without some moves, needs at least k moves) holds for the other, and the tables of
 * positions (the decision search's, the par search's) are keyed by the class. Its key: each
 * talon card moved to the first place of the deal's talon holding its value after the place
 * given to the card before it (a sequence put where it first fits, which is the same for every
 * position of the class), and the stock's top the place of the first stock card. Two talon
 * cards of one value become interchangeable whenever nothing is left between them, which with
 * about two talon cards of each value happens a lot. The places of the last talon asked are
 * kept, so that a position reached by a draw (the same talon, the stock's top moved) reads its
 * key off them: most nodes of the passes before the last; another talon keeps those of the
 * cards before the first place where the two differ, as a card's place depends only on the
 * cards before it. */
static inline uint64_t class_key(Ctx *c, const Pos *p) {
    if (p->rest != c->class_rest) { /* the places of this talon, made once */
        uint32_t same = p->rest & ((1u << __builtin_ctz(p->rest ^ c->class_rest)) - 1);
        int last = same ? 31 - __builtin_clz(same) : -1;
        int from = last >= 0 ? c->class_place[last] + 1 : 0;
        uint32_t places = c->class_places & ((1u << from) - 1);
        for (uint32_t m = p->rest & ~same; m; m &= m - 1) {
            int i = __builtin_ctz(m);
            uint32_t fits = c->same_value[i] & (~0u << from);
            int j = __builtin_ctz(fits); /* fits is never 0: place i itself is one */
            c->class_place[i] = (uint8_t)j;
            places |= 1u << j;
            from = j + 1;
        }
        c->class_rest = p->rest;
        c->class_places = places;
    }
    int top = p->top < c->n ? c->class_place[p->top] : c->n;
    return (uint64_t)p->pyr | ((uint64_t)c->class_places << 28) | ((uint64_t)top << 52)
           | ((uint64_t)p->pass << 58);
}

/* The key of p in the tables of positions: its class's with F_SUITS. */
static inline uint64_t table_key(Ctx *c, const Pos *p) {
    return (c->flags & F_SUITS) ? class_key(c, p) : key_of(p);
}

/* F_COMMUTE's contexts: how the move into a node changed the pyramid, and whether it was a
 * draw (see _search.c). */
enum { CTX_FULL = 0, CTX_PYRAMID_SAME = 1, CTX_DRAWN = 3 };

static inline uint64_t with_context(uint64_t key, int ctx) {
    return key | ((uint64_t)(ctx & 1) << 57) | ((uint64_t)(ctx >> 1) << 60);
}

/* The pyramid before the move into a node, as far as F_COMMUTE needs it: the moves on
 * pyramid cards alone that were legal there are the ones the node skips (0: none). */
static inline uint32_t context_pyramid(uint32_t pyr, int ctx) {
    return ctx == CTX_FULL ? 0 : pyr;
}

/* The context a move m from a pyramid pyr_before to pyr_after leads to. (After a move that
 * took a pyramid card with a talon card the context could also name the slot taken; measured,
 * that searched more nodes, not fewer: the same position reached by different moves is
 * searched once per context.) */
static inline int context_after(uint8_t op, uint32_t pyr_before, uint32_t pyr_after) {
    return op == OP_DRAW ? CTX_DRAWN : pyr_before == pyr_after ? CTX_PYRAMID_SAME : CTX_FULL;
}

static inline uint64_t count_unit(int value) { return 1ULL << (3 * (value - 1)); }

static inline int is_last_pass(const Ctx *c, const Pos *p) {
    return c->passes && p->pass == c->passes - 1;
}

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

/* For each slot of rows 0..5, whether its left (a) or right (b) covering slot holds a card.
 * Slot i of row r is covered by slots i + r + 1 and i + r + 2, so one shift a row does a row. */
static inline uint32_t covered_left(uint32_t pyr) {
    return ((pyr >> 1) & 0x1u) | ((pyr >> 2) & 0x6u) | ((pyr >> 3) & 0x38u)
           | ((pyr >> 4) & 0x3c0u) | ((pyr >> 5) & 0x7c00u) | ((pyr >> 6) & 0x1f8000u);
}

static inline uint32_t covered_right(uint32_t pyr) {
    return ((pyr >> 2) & 0x1u) | ((pyr >> 3) & 0x6u) | ((pyr >> 4) & 0x38u)
           | ((pyr >> 5) & 0x3c0u) | ((pyr >> 6) & 0x7c00u) | ((pyr >> 7) & 0x1f8000u);
}

/* The free pyramid cards: those present whose two covering slots are empty. Slot j of `either`
 * tells whether slot j or j + 1 holds a card, so covered_left | covered_right is `either` read
 * with covered_left's shifts: half the work (it is asked several times a node). */
static inline uint32_t free_pyramid(uint32_t pyr) {
    uint32_t either = pyr | pyr >> 1;
    return pyr & ~covered_left(either);
}

/* Pyramid cards with exactly one covering card left: overlap pairs start from these. */
static inline uint32_t half_free(uint32_t pyr) {
    return pyr & (covered_left(pyr) ^ covered_right(pyr));
}

/* The covering card still there of a half-free slot x. */
static inline int present_cover(const Ctx *c, uint32_t pyr, int x) {
    int a = c->cover[x][0];
    return (pyr >> a) & 1 ? a : c->cover[x][1];
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
    c->path[c->depth] = (Step){(uint8_t)op, (uint8_t)a, (uint8_t)b};
    c->depth++;
}

static inline int won(const Ctx *c, const Pos *p) {
    return p->pyr == 0 && (!c->wholedeck || p->rest == 0);
}

static inline void apply(const Ctx *c, Pos *p, Step m) {
    switch (m.op) {
    case OP_KING: take(c, p, m.a); break;
    case OP_PAIR: take(c, p, m.a); take(c, p, m.b); break;
    case OP_DRAW: p->top = next_at(c, p->rest, p->top + 1); break;
    default: p->top = next_at(c, p->rest, 0); p->pass += c->passes ? 1 : 0; break;
    }
}

/* May the waste be recycled now? */
static inline int can_recycle(const Ctx *c, const Pos *p) {
    return p->top >= c->n && waste_bits(p->rest, p->top)
           && (!c->passes || p->pass < c->passes - 1);
}

/* _moves.c */
int gen_moves(const Ctx *c, const Pos *p, Step *out, int kings, uint32_t before, int drawn);
int game_moves(const Ctx *c, const Pos *p, Step *out);
int play_forced(Ctx *c, Pos *p, int talon_kings);
int drawn_moves(const Ctx *c, const Pos *p, Step *out);
int draw_may_force(const Ctx *c, const Pos *p);
/* _prune.c */
int is_dead(const Ctx *c, const Pos *p, uint32_t *usable);
int relaxed_wins(Ctx *c, uint32_t pyr, uint64_t counts);
int relaxed_lost(Ctx *c, const Pos *p, uint32_t usable, uint64_t *relaxed);
int stacked_lost(Ctx *c, const Pos *p, uint32_t usable);
/* _word.c */
int word_reduces(Ctx *c, uint32_t pyr, const uint8_t *w, int m, int waste, int takes);
int word_lost(Ctx *c, const Pos *p);
/* _apex.c */
extern uint32_t CONE[PYR]; /* every slot covering this one, directly or not (apex_init) */
void apex_init(void);
int apex_lost(Ctx *c, const Pos *p, unsigned ask);
void apex_prefetch(const Ctx *c, const Pos *p);
/* _cone.c */
void cone_init(void);
int cone_lost(Ctx *c, const Pos *p);
/* _starts.c */
int starts_first(const Ctx *c, const Pos *p);
int starts_push(Ctx *c, const Pos *p, int ctx, uint64_t relaxed, int trail, int tested);
int starts_pop(Ctx *c, Start *out);
int starts_trail(Ctx *c, int parent, int from, int to);
int starts_length(const Ctx *c, int trail);
void starts_line(Ctx *c, int trail, int length);
void starts_free(Starts *s);
/* _search.c */
/* What a call of pruned() asks beyond the tests every position gets (see `asked_at` in
 * _search.c): the cone test; the whole-deck apex test's word; the apex test only while it pays
 * (APEX_PAYS) instead of always. The par search asks ASK_APEX_WORD alone. */
enum { ASK_CONE = 1, ASK_APEX_WORD = 2, ASK_APEX_GATED = 4 };
int pruned(Ctx *c, const Pos *p, uint64_t *relaxed, unsigned ask);
int decide(Ctx *c, Pos p);
int par_search(Ctx *c, Pos p);                                   /* _par.c */
int playout(Ctx *c, Pos p, uint64_t *rng, int record, int *left); /* _playout.c */
/* _position.c: a position read into a context; a solve (1 won, 0 lost, -1 limit, -2 memory). */
enum { LOAD_MALFORMED = 1, LOAD_NO_MEMORY = 2 };
Ctx *ctx_load(const uint8_t *pyr, int pyr_len, const uint8_t *tal, int n, int top, int pass,
              int passes, int whole, int overlap, int flags, long long limit, Pos *out, int *err);
int ctx_solve(Ctx *c, Pos p, int shortest);
void ctx_free(Ctx *c);

#endif
