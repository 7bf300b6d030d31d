/*
 * The apex test (F_APEX), for the last pass: a test of how the last pyramid card can go. Sound
 * for the decision search and the par search alike: it only ever says "lost" of a position
 * from which no line wins.
 *
 * Every pyramid card covers the apex, so (without overlap pairs) none can go with it, and it is
 * free only once all the others are gone: a winning line removes it last of the pyramid (a
 * King alone, else) together with a talon card t that makes 13 with it, the stock's or the
 * waste's top then. Take such a line in the last pass, and t in the stock now. Until t leaves
 * the stock, the pyramid can use the waste's cards and the stock's cards before t (the
 * phase-1 cards, C1). If t then goes with the apex from the stock's top, that was all. Else t
 * is drawn and stays on the waste until the apex takes it: from then on the cards under t are
 * out of reach for good, and each stock card turned up after t (a prefix of the stock after t,
 * up to where the drawing stopped) is removed before the apex goes, so that t is the top again:
 * with a pyramid card (D) or with another of them (as waste top and stock top; never with t,
 * the apex's, nor with a card under t). So with P1 the pyramid when t left the stock:
 *   - P minus P1 went in phase 1 with pairs inside it and cards of C1: the relaxed game (see
 *     _prune.c) of P - P1 with C1's counts is won;
 *   - P1 without the apex went in phase 2 with pairs inside it and the cards of D, and the
 *     prefix without D went in pairs among themselves: so per pair of values {v, 13 - v} the
 *     prefix holds as many more cards of v than of 13 - v as P1 without the apex holds fewer
 *     (each pyramid card that takes a talon card takes one of the complementary value, and
 *     the rest pair off), and the relaxed game of P1 without the apex with the prefix's counts
 *     is won (it may use D; it does not matter that it uses no more: the balance of what it
 *     leaves does not depend on how many pairs it makes inside the pyramid).
 * With t in the waste now there is no phase 1 (P1 is the pyramid now, C1 is empty) and the
 * prefix starts with the waste's cards above t, all of which must go. Every part holds in the
 * whole-deck game too, up to the apex's removal, and there more is asked: when the apex goes
 * the pyramid is gone, yet every talon card left must still go, as waste top and stock top:
 * the cards before t that phase 1 did not take (by then all in the waste, under t) and the
 * stock after the stop. The cards before t that phase 1 took, D1, cleared P - P1 (with pairs
 * inside it), so the cards before t less D1, then the stock after the stop, reduce as a word:
 * the word game's search (_word.c) with P - P1 as its pyramid, where only cards before t may go
 * into D (none when t is in the waste: those are under it all along) and two cards in the waste
 * now never cancel. A position is lost when no t, no prefix and no P1 do all that.
 *
 * P1 is one of the shapes the pyramid can have: sets of slots that hold a card whenever a slot
 * covering it does, 1,430 of them (SHAPES, made once when the module loads). Per deal they are
 * indexed by their imbalance (per pair of values, the cards of v less those of 13 - v; about
 * three shapes share one), so a prefix's balance names the few P1 to try: a shape inside the
 * pyramid now, whose two relaxed games are won. Of the prefixes with the same balance only the
 * longest counts (the relaxed game is monotone in its cards). In the standard game the verdict
 * for each t is kept for the solve: it depends on the pyramid and the talon, and on where the
 * waste ends only when t is in the waste, so a draw asks again only then. In the whole-deck
 * game it depends on where the waste ends too (the word keeps the waste's cards apart), so
 * positions seldom find their verdict kept, and it is not kept: its table cost more than it
 * saved. The word is asked only where the search says (ASK_APEX_WORD: see asked_at in
 * _search.c); the test without it is weaker, never wrong.
 */
#include "_shapes.h"

uint32_t SHAPES[NSHAPES];
int shapes_made;

/* Every shape, slot by slot from the last: a slot may be empty only when both slots covering
 * it are. */
static void make_shapes(int slot, uint32_t present) {
    if (slot < 0) {
        SHAPES[shapes_made++] = present;
        return;
    }
    make_shapes(slot - 1, present | 1u << slot);
    int row = 0;
    while ((row + 1) * (row + 2) / 2 <= slot) row++;
    if (row == 6 || !(present >> (slot + row + 1) & 3)) make_shapes(slot - 1, present);
}

uint32_t CONE[PYR]; /* every slot covering this one, directly or not (declared in _core.h) */

void apex_init(void) {
    if (shapes_made) return;
    make_shapes(PYR - 1, 0);
    for (int r = 6; r >= 0; r--)
        for (int col = 0; col <= r; col++) {
            int i = r * (r + 1) / 2 + col;
            CONE[i] = r < 6 ? (3u << (i + r + 1)) | CONE[i + r + 1] | CONE[i + r + 2] : 0;
        }
}

/* The imbalance of a set of pyramid cards (see the header), 5 bits a pair, offset by 16. */
static inline uint32_t imbalance(const Ctx *c, uint32_t cards) {
    uint32_t k = 0;
    for (int v = 1; v <= 6; v++) {
        int d = __builtin_popcount(cards & (uint32_t)c->of_value[v])
                - __builtin_popcount(cards & (uint32_t)c->of_value[13 - v]);
        k |= (uint32_t)(d + 16) << (5 * (v - 1));
    }
    return k;
}

/* The shapes that hold the apex, chained by the imbalance of the rest of their cards. */
int index_shapes(Ctx *c) {
    ShapeIndex *x = malloc(sizeof(ShapeIndex));
    if (!x) return 0;
    for (int b = 0; b < SHAPE_BUCKETS; b++) x->head[b] = -1;
    for (int i = 0; i < shapes_made; i++) {
        uint32_t s = SHAPES[i];
        x->next[i] = -1;
        if (!(s & 1)) continue;
        x->key[i] = imbalance(c, s & ~1u);
        x->bytes[i] = 0; /* the same, a byte a pair of values (affordable_box in _shapes.h) */
        for (int v = 0; v < 6; v++)
            x->bytes[i] |= (uint64_t)((x->key[i] >> (5 * v) & 31) - 16 + 64) << (8 * v);
        int b = (int)(mix(x->key[i]) & (SHAPE_BUCKETS - 1));
        x->next[i] = x->head[b];
        x->head[b] = (int16_t)i;
    }
    c->shapes = x;
    return 1;
}

/* The talon left when the apex goes, in the whole-deck game (see the header): the cards before
 * t still there, then the stock after the stop. */
typedef struct {
    uint8_t w[MAXTALON];
    int m, waste, takes; /* w[0..waste) in the waste now; w[0..takes) may go with the pyramid */
} Left;

/* In the whole-deck game, with the pyramid less P1 (`r1`) gone in phase 1: can the cards
 * before t, then the stock from talon place `at` on, go as a word? */
static int clears(Ctx *c, const Pos *p, int t, uint32_t r1, Left *left, int before, int at) {
    left->m = before;
    for (uint32_t m = p->rest & ~((1u << at) - 1) & ~((2u << t) - 1); m; m &= m - 1) {
        int v = c->val[PYR + __builtin_ctz(m)];
        if (v != 13) left->w[left->m++] = (uint8_t)v;
    }
    return word_reduces(c, r1, left->w, left->m, left->waste, left->takes);
}

/* Is there a P1 inside pyr with the imbalance of stop s, with P1 less the apex won by the
 * relaxed game with the prefix's counts and pyr less P1 with c1's? In the whole-deck game the
 * talon left must go too, for s or for a shorter stop of the same imbalance (the relaxed game
 * is monotone in its cards: once it loses with a stop's prefix it loses with the shorter). */
static int phased(Ctx *c, const Pos *p, int t, uint64_t c1, const Stops *stops, int s,
                  Left *left, int before, int word) {
    const ShapeIndex *x = c->shapes;
    uint32_t key = stops->key[s], pyr = p->pyr;
    for (int i = x->head[mix(key) & (SHAPE_BUCKETS - 1)]; i >= 0; i = x->next[i]) {
        uint32_t p1 = SHAPES[i];
        if (x->key[i] != key || (p1 & ~pyr)) continue;
        if (!relaxed_wins(c, p1 & ~1u, stops->counts[s])
            || (p1 != pyr && !relaxed_wins(c, pyr & ~p1, c1)))
            continue;
        if (!c->wholedeck || !word) return 1;
        for (int r = s; r >= 0; r--) {
            if (stops->key[r] != key) continue;
            if (r < s && !relaxed_wins(c, p1 & ~1u, stops->counts[r])) break;
            if (clears(c, p, t, pyr & ~p1, left, before, stops->at[r])) return 1;
        }
    }
    return 0;
}

/* The stops after t: the places the drawing may stop at, from the first after t (once every
 * waste card above t is in) to the end of the stock, each with its prefix's key, counts and
 * place. */
void find_stops(const Ctx *c, const Pos *p, int t, Stops *stops) {
    uint64_t counts = 0;
    int balance[7] = {0};
    stops->n = 0;
    for (uint32_t m = p->rest & ~((2u << t) - 1);; m &= m - 1) {
        int i = m ? __builtin_ctz(m) : c->n;
        if (i >= p->top) {
            uint32_t k = 0;
            for (int v = 1; v <= 6; v++) k |= (uint32_t)(16 - balance[v]) << (5 * (v - 1));
            stops->key[stops->n] = k;
            stops->at[stops->n] = i;
            stops->counts[stops->n++] = counts;
        }
        if (!m) break;
        int v = c->val[PYR + i];
        if (v == 13) continue; /* a King goes alone */
        counts += count_unit(v);
        if (v <= 6) balance[v]++;
        else balance[13 - v]--;
    }
}

/* The imbalance of the pyramid pyr less the apex, per pair of values (for `affordable`). */
void pyramid_imbalance(const Ctx *c, uint32_t pyr, int *imbalance) {
    for (int v = 1; v <= 6; v++)
        imbalance[v] = __builtin_popcount(pyr & ~1u & (uint32_t)c->of_value[v])
                       - __builtin_popcount(pyr & ~1u & (uint32_t)c->of_value[13 - v]);
}

/* Can the apex still go with the talon card at index t (see the header)? With `word`, in the
 * whole-deck game the talon left must go too. */
static int partner_can(Ctx *c, const Pos *p, int t, int word) {
    uint64_t c1 = 0;
    Stops stops;
    Left left = {.m = 0};
    for (uint32_t m = p->rest & ((1u << t) - 1); m; m &= m - 1) { /* the cards before t */
        int i = __builtin_ctz(m), v = c->val[PYR + i];
        if (v == 13) continue;
        if (t >= p->top) c1 += count_unit(v); /* t in the stock: phase 1's cards */
        if (i < p->top) left.waste++;
        left.w[left.m++] = (uint8_t)v;
    }
    int before = left.m;
    left.takes = t >= p->top ? before : 0; /* under t in the waste, nothing goes in phase 1 */
    find_stops(c, p, t, &stops);
    int imbalance[7];
    pyramid_imbalance(c, p->pyr, imbalance);
    uint32_t longer[64] = {0};
    for (int s = stops.n - 1; s >= 0; s--) { /* the longest stop of each imbalance */
        uint32_t k = stops.key[s];
        if (longest_of_its_key(longer, k) && affordable(imbalance, k, c1)
            && phased(c, p, t, c1, &stops, s, &left, before, word))
            return 1;
    }
    return 0;
}

static inline int apex_asked(const Ctx *c, const Pos *p) {
    return (c->flags & F_APEX) && !c->overlap && is_last_pass(c, p) && (p->pyr & 1)
           && c->val[0] != 13 && shapes_made;
}

/* The apex's partners still in the talon. */
static inline uint32_t apex_partners(const Ctx *c, const Pos *p) {
    return p->rest & (uint32_t)(c->of_value[13 - c->val[0]] >> PYR);
}

/* The key of the verdict for partner t in the standard game: where the waste ends counts only
 * when t is in it (see the header). */
static inline uint64_t apex_key(const Pos *p, int t) {
    int in_waste = t < p->top;
    return (uint64_t)p->pyr | (uint64_t)p->rest << PYR | (uint64_t)t << 52
           | (uint64_t)in_waste << 57 | (uint64_t)(in_waste ? p->top : 0) << 58;
}

/* Start loading the table slots apex_lost will read, so that the cache misses overlap the
 * tests asked before it. */
void apex_prefetch(const Ctx *c, const Pos *p) {
    if (!apex_asked(c, p) || !c->apex.cap) return;
    for (uint32_t m = apex_partners(c, p); m; m &= m - 1)
        __builtin_prefetch(&c->apex.w[2 * (mix(apex_key(p, __builtin_ctz(m)))
                                           & (c->apex.cap - 1))]);
}

/* With ASK_APEX_GATED (inside a start's search) the test is asked while it pays (APEX_PAYS). */
static int apex_pays(Ctx *c) { return gate_open(&c->apex_gate, APEX_PAYS); }

/* Count an answer for the gates that asked the test and its word (_pays.h). */
static void apex_answer(Ctx *c, int lost, unsigned ask) {
    if (ask & ASK_APEX_GATED) gate_answer(&c->apex_gate, lost);
    if (c->passes >= 2 && (ask & ASK_APEX_WORD)) gate_answer(&c->apex_word_gate, lost);
}

/* The partner that last passed the test is asked first: the positions a search asks about one
 * after another are alike, and the partner that passed for one mostly passes for the next,
 * while the first in talon order often fails first. The verdict is the same in any order. */
int apex_lost(Ctx *c, const Pos *p, unsigned ask) {
    if (!apex_asked(c, p)) return 0;
    if ((ask & ASK_APEX_GATED) && !apex_pays(c)) return 0;
    if (!c->shapes && !index_shapes(c)) return 0;
    int kept = !c->wholedeck; /* verdicts are kept in the standard game only (see the header) */
    uint32_t partners = apex_partners(c, p);
    int hint = c->apex_hint; /* asked first (see below) */
    while (partners) {
        int t = next_partner(&partners, &hint);
        uint64_t key = apex_key(p, t);
        size_t at = 0, cap;
        uint64_t verdict = kept ? memo_find(&c->apex, key, &at, &cap) : 0; /* 0: unknown */
        if (!verdict) {
            verdict = partner_can(c, p, t, (ask & ASK_APEX_WORD) != 0) ? 1 : 2;
            if (kept) memo_put(&c->apex, key, verdict, at, cap);
        }
        if (verdict == 1) {
            c->apex_hint = t;
            apex_answer(c, 0, ask);
            return 0;
        }
    }
    apex_answer(c, 1, ask);
    return 1;
}
