/*
 * The pyramid's shapes, and what the apex test (_apex.c) and the cone test (_cone.c) share:
 * the stops a partner's prefix may end at, and the checks asked before any shape.
 */
#ifndef PYRAMID_SHAPES_H
#define PYRAMID_SHAPES_H

#include "_core.h"

extern uint32_t SHAPES[NSHAPES]; /* every shape a pyramid can have (made by apex_init) */
extern int shapes_made;

/* The stops after t, from the first the drawing may end at to the end of the stock: for each,
 * the imbalance P1 without the apex must have (the prefix's, negated: see _apex.c's header), the
 * prefix's counts, and the place the stock goes on from. */
typedef struct {
    int n;
    uint32_t key[MAXTALON + 1];
    uint64_t counts[MAXTALON + 1];
    int at[MAXTALON + 1];
} Stops;

int index_shapes(Ctx *c);
void find_stops(const Ctx *c, const Pos *p, int t, Stops *stops);
void pyramid_imbalance(const Ctx *c, uint32_t pyr, int *imbalance);

/* Can the cards before t (counts c1) pay for what P - P1 cannot pair inside itself, when P1
 * less the apex has the imbalance `key`? Per pair of values, each card of P - P1 in excess
 * (of v over 13 - v, or the other way) must go with a talon card of the complementary value,
 * so phase 1's relaxed game needs at least that many; and P - P1's imbalance is the pyramid's
 * less P1's, whatever P1's shape (`imbalance` is the pyramid's without the apex). A necessary
 * condition, asked before any shape of that imbalance is looked at: most shapes that fail
 * phase 1 fail it for want of cards. */
static inline int affordable(const int *imbalance, uint32_t key, uint64_t c1) {
    for (int v = 1; v <= 6; v++) {
        int d = imbalance[v] - ((int)(key >> (5 * (v - 1)) & 31) - 16);
        if (d > 0 && (int)(c1 >> (3 * (12 - v)) & 7) < d) return 0;  /* cards of 13 - v */
        if (d < 0 && (int)(c1 >> (3 * (v - 1)) & 7) < -d) return 0; /* cards of v */
    }
    return 1;
}

/* `affordable` for many shapes at once: the cone test (_cone.c) asks it of every P2 at each
 * stop, with P1's imbalance P2's plus the prefix's (the stop's key k). Per pair of values
 * `affordable` asks P1's imbalance to lie within what c1 pays for, so P2's must lie in a box:
 * lo..hi, a byte a pair of values offset by 64, as ShapeIndex.bytes holds a shape's. in_box
 * checks the six bytes at once (all below 128, so the high bit of each catches its borrow):
 * the cone test's loop over the P2s is its innermost. */
#define BYTE_HIGH 0x0000808080808080ULL

static inline void affordable_box(const int *imbalance, uint32_t k, uint64_t c1, uint64_t *lo,
                                  uint64_t *hi) {
    *lo = *hi = 0;
    for (int v = 1; v <= 6; v++) {
        int prefix = (int)(k >> (5 * (v - 1)) & 31) - 16;
        int below = (int)(c1 >> (3 * (12 - v)) & 7), above = (int)(c1 >> (3 * (v - 1)) & 7);
        *lo |= (uint64_t)(64 + imbalance[v] - below - prefix) << (8 * (v - 1));
        *hi |= (uint64_t)(64 + imbalance[v] + above - prefix) << (8 * (v - 1));
    }
}

static inline int in_box(uint64_t bytes, uint64_t lo, uint64_t hi) {
    return ((((bytes | BYTE_HIGH) - lo) & ((hi | BYTE_HIGH) - bytes)) & BYTE_HIGH) == BYTE_HIGH;
}

/* Asked of the stops longest first: is this the first (so the longest) stop of imbalance k?
 * `longer` (64 slots, zeroed) holds the imbalances seen; an imbalance is never 0. */
static inline int longest_of_its_key(uint32_t *longer, uint32_t k) {
    uint32_t h = (k * 2654435761u) >> 26;
    while (longer[h] && longer[h] != k) h = (h + 1) & 63;
    if (longer[h]) return 0;
    longer[h] = k;
    return 1;
}

/* The next partner to ask: *hint first when it is one (then no more), else in talon order. */
static inline int next_partner(uint32_t *partners, int *hint) {
    int t = *hint >= 0 && (*partners >> *hint & 1) ? *hint : __builtin_ctz(*partners);
    *hint = -1;
    *partners &= ~(1u << t);
    return t;
}

#endif
