/*
 * Positions proven lost without searching them: each test below only ever says "lost" of a
 * position from which no line of legal moves wins, so it is sound for the decision search and
 * the par search alike (a lost position has no winning line of any length).
 *
 * F_DEAD: a position is lost when some card that every win must remove has no remaining
 *   partner it can ever be removed together with. Two pyramid cards can never be free together
 *   when one covers the other, directly or through other cards (with overlap pairs, a card and
 *   a card directly covering it can go together; the compat table says which pairs can). In
 *   the last pass, two cards now in the waste are never free together (only the top of the
 *   waste is free, and what is under it stays under it), so a waste card can only leave with a
 *   pyramid or stock card, and only after every card above it has left, each with a partner of
 *   its own. Digging down the waste, the first card for which some value runs out of pyramid
 *   and stock partners (the cards above it and itself need more than there are) can never
 *   leave: in the whole-deck game that is a loss; in the standard game the cards under it are
 *   out of reach for good, and are no partners for anything (also in the relaxed game below).
 *   There is no last pass with unlimited passes: the waste is turned over again.
 * F_NESTED: in the whole-deck game, a card of a value v such that the pyramid holds no card of
 *   value v or 13 - v can only go with a talon card (or alone, a King). Two talon cards go
 *   together only as the waste top and the stock top, the waste holding the talon's lower
 *   indices: so the pair is (a, b), a < b, with every talon card between them gone. Two such
 *   pairs never cross: if a < c < b < d, whichever pair goes first finds a card of the other
 *   still between its two. So these talon-only cards, in talon order, pair off as nested
 *   brackets, each with a complementary card: cancelling adjacent complementary cards must
 *   leave none (the cancelling is confluent, like reducing a word of a free group: a stack
 *   does it). The pyramid only loses values, so this holds in every pass, not only the last.
 * F_RELAXED: the relaxed game (see relaxed_wins) must still be winnable.
 * F_STACKED: in the last pass, the stacked game (see stacked_wins) must still be winnable.
 * (F_WORD, the word game, is in _word.c; F_APEX, the apex test, in _apex.c; the order the
 * searches ask them in, `pruned`, in _search.c.)
 */
#include "_core.h"

/* Is the position lost for want of partners (F_DEAD)? Also tells, through *usable, which
 * talon cards can still ever be used: all of them but in the last pass. Talon cards always
 * have a partner somewhere: the pack stays balanced, with as many cards of value v as of
 * 13 - v. Pyramid cards may not, because of what covers what. */
int is_dead(const Ctx *c, const Pos *p, uint32_t *usable) {
    uint64_t present = (uint64_t)p->pyr | ((uint64_t)p->rest << PYR);
    uint64_t avail = present;
    *usable = p->rest;
    if (is_last_pass(c, p)) {
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
    if (c->wholedeck && (c->flags & F_NESTED)) { /* the talon-only values (F_NESTED) */
        uint32_t talon_only = 0; /* the talon's places holding them: only those are read */
        for (int v = 1; v <= 6; v++) {
            uint64_t pair = c->of_value[v] | c->of_value[13 - v];
            if (!(p->pyr & (uint32_t)pair)) talon_only |= (uint32_t)(pair >> PYR);
        }
        uint8_t stack[MAXTALON];
        int depth = 0;
        for (uint32_t m = p->rest & talon_only; m; m &= m - 1) {
            int v = c->val[PYR + __builtin_ctz(m)];
            if (depth && stack[depth - 1] + v == 13) depth--;
            else stack[depth++] = (uint8_t)v;
        }
        if (depth) return 1;
    }
    return 0;
}

/* ---- the relaxed game ------------------------------------------------------------------------
 * The same pyramid, but every talon card is reachable at any time, once: only how many talon
 * cards of each value are left matters. Any real winning line is a winning line of the
 * relaxed game (play its pyramid moves in the same order, overlap pairs included; its talon
 * pairs are not needed), so a position whose relaxed game is lost is lost. The relaxed game
 * is small (pyramid shapes times talon counts) and its verdicts are kept, so the real search
 * asks it at every new position. A free King goes at once there too (F_KINGS's argument, in
 * the relaxed game). */

static inline uint64_t relaxed_key(uint32_t pyr, uint64_t counts) {
    return (uint64_t)pyr | (counts << PYR); /* 28 + 36 bits; never 0 while pyr is not empty */
}

int relaxed_wins(Ctx *c, uint32_t pyr, uint64_t counts) {
    uint32_t fp;
    for (;;) {
        if (!pyr) return 1;
        fp = free_pyramid(pyr);
        uint32_t kings = fp & c->pyramid_kings;
        if (!kings) break;
        pyr &= ~kings;
    }
    uint64_t key = relaxed_key(pyr, counts);
    size_t at = 0, cap;
    int known = (int)memo_find(&c->relaxed, key, &at, &cap); /* 1 won, 2 lost, 0 unknown */
    if (known) return known == 1;
    for (uint32_t m = fp; m; m &= m - 1) {
        int a = __builtin_ctz(m), va = c->val[a];
        for (uint32_t r = m & (m - 1); r; r &= r - 1) {
            int b = __builtin_ctz(r);
            if (va + c->val[b] == 13 && relaxed_wins(c, pyr & ~(1u << a) & ~(1u << b), counts))
                goto win;
        }
        uint64_t unit = count_unit(13 - va);
        if (((counts / unit) & 7) && relaxed_wins(c, pyr & ~(1u << a), counts - unit)) goto win;
    }
    if (c->overlap) {
        for (uint32_t m = half_free(pyr); m; m &= m - 1) {
            int x = __builtin_ctz(m), y = present_cover(c, pyr, x);
            if (((fp >> y) & 1) && c->val[x] + c->val[y] == 13
                && relaxed_wins(c, pyr & ~(1u << x) & ~(1u << y), counts))
                goto win;
        }
    }
    memo_put(&c->relaxed, key, 2, at, cap);
    return 0;
win:
    memo_put(&c->relaxed, key, 1, at, cap);
    return 1;
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

/* Is the relaxed game of p's usable talon cards lost (F_RELAXED)? `relaxed` is the relaxed
 * game already known to be winnable (from the parent), updated when p asks a different one. */
int relaxed_lost(Ctx *c, const Pos *p, uint32_t usable, uint64_t *relaxed) {
    if (!(c->flags & F_RELAXED) || !p->pyr) return 0;
    uint64_t counts = usable == p->rest ? p->counts : usable_counts(c, p, usable);
    uint64_t key = relaxed_key(p->pyr, counts);
    if (key == *relaxed) return 0;
    if (!relaxed_wins(c, p->pyr, counts)) return 1;
    *relaxed = key;
    return 0;
}

static int stacked_wins(Ctx *c, uint32_t pyr, uint32_t waste, uint64_t counts);

/* ---- the stacked game (F_STACKED) -------------------------------------------------------------
 * In the last pass: the same pyramid, the stock's cards reachable at any time, once (only how
 * many of each value are left matters), but the waste as it is now: only its top card can go,
 * with a pyramid card or a stock card, or alone if a King. It is won when the pyramid is gone
 * (whole deck: and the waste; the stock's cards left then make pairs among themselves, the
 * pack being balanced). Any real winning line from here gives a winning line of the stacked
 * game: its pyramid moves in the same order; a card it draws stays among the stock's cards (in
 * the real game it covers the waste: the stacked game only lets more happen); a real move on
 * the waste top takes either a card of the waste as it is now, which is then the stacked
 * game's top too (the same cards above it are gone), or a card drawn since, which the stacked
 * game takes from the stock's cards; a pair of two cards from the stock is left out (it only
 * uses up stock cards, which nothing else needs then). So a position whose stacked game is
 * lost is lost. With a waste of one card it is the relaxed game (the top is always free, and
 * in the whole-deck game the card has a partner among the stock's once the pyramid is gone);
 * it is asked only when the waste has two usable cards or more, and it first asks the relaxed
 * game with the waste's cards free too. (Keeping the stock's top card in place too, until it
 * pairs or is drawn, prunes more but cost more time than it saved: docs/solver-log.md.) */

/* The stacked game's verdicts: two words a slot, the first (pyramid and waste, never 0 with a
 * waste) and the second (the stock's counts spread to 4 bits a value, with the verdict in its
 * top two bits: 1 won, 2 lost). The stacked game is monotone in the stock's counts (a stock
 * card is only ever used up, and the game never asks for one to be gone), so a verdict counts
 * beyond its own counts: won with these counts is won with more of every value, lost with
 * these is lost with fewer. Slots are hashed by the first word alone, so that the entries of a
 * pyramid and waste lie in one probe run. Returns the verdict known (0: none). */
#define SPREAD_GUARD 0x888888888888ULL
static inline uint64_t spread_counts(uint64_t counts) {
    uint64_t s = 0;
    for (int v = 0; v < 12; v++) s |= ((counts >> (3 * v)) & 7) << (4 * v);
    return s;
}
/* Every value of a at least its value in b (4-bit fields, each below 8). */
static inline int counts_cover(uint64_t a, uint64_t b) {
    return (((a | SPREAD_GUARD) - b) & SPREAD_GUARD) == SPREAD_GUARD;
}
static int stacked_find(const Ctx *c, uint64_t k1, uint64_t k2, size_t *at, size_t *cap) {
    const Memo *m = &c->stacked;
    *cap = m->cap;
    if (!m->cap) return 0;
    size_t j = mix(k1) & (m->cap - 1);
    for (; m->w[2 * j]; j = (j + 1) & (m->cap - 1)) {
        if (m->w[2 * j] != k1) continue;
        uint64_t e = m->w[2 * j + 1] & ~(3ULL << 62);
        int v = (int)(m->w[2 * j + 1] >> 62);
        if (e == k2 || (v == 1 && counts_cover(k2, e)) || (v == 2 && counts_cover(e, k2)))
            return v;
    }
    *at = j;
    return 0;
}

static int stacked_wins(Ctx *c, uint32_t pyr, uint32_t waste, uint64_t counts) {
    uint32_t fp;
    for (;;) { /* free Kings go at once: the pyramid's and the waste top */
        if (!pyr && (!c->wholedeck || !waste)) return 1;
        fp = free_pyramid(pyr);
        uint32_t kings = fp & c->pyramid_kings;
        if (kings) {
            pyr &= ~kings;
            continue;
        }
        if (waste && c->val[PYR + 31 - __builtin_clz(waste)] == 13) {
            waste &= ~(1u << (31 - __builtin_clz(waste)));
            continue;
        }
        break;
    }
    if (!waste) return relaxed_wins(c, pyr, counts);
    uint64_t k1 = (uint64_t)pyr | ((uint64_t)waste << PYR), k2 = spread_counts(counts);
    size_t at = 0, cap;
    int known = stacked_find(c, k1, k2, &at, &cap);
    if (known) return known == 1;
    int wt = 31 - __builtin_clz(waste), vt = c->val[PYR + wt];
    uint32_t below = waste & ~(1u << wt);
    uint64_t all = counts; /* the relaxed game, with the waste's cards free too, must be won */
    for (uint32_t m = waste; m; m &= m - 1) all += count_unit(c->val[PYR + __builtin_ctz(m)]);
    if (!relaxed_wins(c, pyr, all)) goto lost;
    for (uint32_t m = fp; m; m &= m - 1) {
        int a = __builtin_ctz(m), va = c->val[a];
        uint32_t rest = pyr & ~(1u << a);
        for (uint32_t r = m & (m - 1); r; r &= r - 1) {
            int b = __builtin_ctz(r);
            if (va + c->val[b] == 13 && stacked_wins(c, rest & ~(1u << b), waste, counts))
                goto win;
        }
        if (va + vt == 13 && stacked_wins(c, rest, below, counts)) goto win;
        uint64_t unit = count_unit(13 - va);
        if (((counts / unit) & 7) && stacked_wins(c, rest, waste, counts - unit)) goto win;
    }
    if (c->overlap) {
        for (uint32_t m = half_free(pyr); m; m &= m - 1) {
            int x = __builtin_ctz(m), y = present_cover(c, pyr, x);
            if (((fp >> y) & 1) && c->val[x] + c->val[y] == 13
                && stacked_wins(c, pyr & ~(1u << x) & ~(1u << y), waste, counts))
                goto win;
        }
    }
    uint64_t unit = count_unit(13 - vt);
    if (((counts / unit) & 7) && stacked_wins(c, pyr, below, counts - unit)) goto win;
lost:
    memo_put(&c->stacked, k1, k2 | 2ULL << 62, at, cap);
    return 0;
win:
    memo_put(&c->stacked, k1, k2 | 1ULL << 62, at, cap);
    return 1;
}

/* Is p's stacked game lost (F_STACKED)? Only in the last pass. */
int stacked_lost(Ctx *c, const Pos *p, uint32_t usable) {
    if (!(c->flags & F_STACKED) || !is_last_pass(c, p)) return 0;
    uint32_t waste = waste_bits(usable, p->top);
    if (!(waste & (waste - 1))) return 0; /* a waste of one card is all free: the relaxed game */
    uint64_t counts = 0;
    for (uint32_t m = usable & ~waste; m; m &= m - 1) {
        int v = c->val[PYR + __builtin_ctz(m)];
        if (v != 13) counts += count_unit(v);
    }
    return !stacked_wins(c, p->pyr, waste, counts);
}
