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
 * F_RELAXED: the relaxed game (see relaxed_wins) must still be winnable.
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

static int relaxed_wins(Ctx *c, uint32_t pyr, uint64_t counts) {
    uint32_t fp;
    for (;;) {
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
    set_add(&c->relaxed_lost, key);
    return 0;
win:
    set_add(&c->relaxed_won, key);
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

/* Is p lost by the dead-end tests (F_DEAD, F_RELAXED)? */
int pruned(Ctx *c, const Pos *p, uint64_t *relaxed) {
    uint32_t usable = p->rest;
    if ((c->flags & F_DEAD) && is_dead(c, p, &usable)) return 1;
    return relaxed_lost(c, p, usable, relaxed);
}
