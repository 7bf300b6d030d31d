/*
 * The cone test (F_CONE), for the last pass: sound for the decision search and the par search
 * alike (it only ever says "lost" of a position from which no line wins).
 *
 * The apex test's argument, for a pyramid card X other than the apex that no pyramid card can
 * ever go with (every card of the complementary value left there covers X or is covered by it)
 * and that some cards still cover (its cone). X goes with a talon card t once its cone is gone,
 * t being the stock's top or the waste's then. Till t leaves the stock, the pyramid P becomes P1
 * with the cards before t, as for the apex (phase 1). If t goes from the stock's top, the
 * pyramid is still P1 when X goes. Else t is drawn and stays on the waste till X takes it, and
 * each stock card turned up after t (the prefix, up to the stop) goes first, with a pyramid card
 * or with another of them; the pyramid is then P2, a shape in which X is free (it holds X and
 * no card of X's cone). So P1 less P2 went in phase 2 with pairs inside it and the prefix's
 * cards (its cards pair only inside P1 less P2: every card covering one of them is in P1 and
 * not in P2, P2 being a shape), and the rest of the prefix paired among themselves: per pair of
 * values the prefix's imbalance is the negative of P1 less P2's, and the relaxed game of P1
 * less P2 with the prefix's counts is won. For the apex P2 is the apex alone, and this is the
 * apex test without its whole-deck word, which is not asked here. A position is lost when some
 * such X has no t, stop, P2 and P1 that do all that. P2 comes from the shapes holding X free,
 * P1 from the index by the imbalance P2 and the stop's prefix give it; `affordable` first.
 */
#include "_shapes.h"

static int16_t FREE_SHAPES[PYR][NSHAPES]; /* the shapes holding slot x with x free */
static int free_shapes_n[PYR];

/* Made once, after the shapes (apex_init): at the module's load. */
void cone_init(void) {
    for (int x = 0; x < PYR; x++)
        for (int i = 0; i < shapes_made; i++)
            if ((SHAPES[i] >> x & 1) && !(SHAPES[i] & CONE[x]))
                FREE_SHAPES[x][free_shapes_n[x]++] = (int16_t)i;
}

/* Has every card of q a partner: a talon card of the complementary value among `counts`, or a
 * card of q it can go with? (The relaxed game of q with `counts` is lost otherwise.) */
static inline int partners_left(const Ctx *c, uint32_t q, uint64_t counts) {
    for (uint32_t m = q & ~c->pyramid_kings; m; m &= m - 1) {
        int x = __builtin_ctz(m);
        if (!((counts / count_unit(13 - c->val[x])) & 7) && !(c->compat[x] & q)) return 0;
    }
    return 1;
}

static int cone_partner_can(Ctx *c, const Pos *p, int x, int t, const int16_t *p2s,
                            const uint64_t *p2b, int n2) {
    const ShapeIndex *ix = c->shapes;
    uint64_t c1 = 0;
    int imbalance[7];
    Stops stops;
    if (t >= p->top) /* t in the stock: phase 1's cards */
        for (uint32_t m = p->rest & ((1u << t) - 1); m; m &= m - 1) {
            int v = c->val[PYR + __builtin_ctz(m)];
            if (v != 13) c1 += count_unit(v);
        }
    find_stops(c, p, t, &stops);
    uint32_t pyr = p->pyr, longer[64] = {0};
    pyramid_imbalance(c, pyr, imbalance);
    const uint32_t neutral = 16 | 16 << 5 | 16 << 10 | 16 << 15 | 16 << 20 | 16 << 25;
    for (int s = stops.n - 1; s >= 0; s--) { /* the longest stop of each imbalance */
        uint32_t k = stops.key[s];
        if (!longest_of_its_key(longer, k)) continue;
        uint64_t lo, hi; /* `affordable` for every P2 at once */
        affordable_box(imbalance, k, c1, &lo, &hi);
        for (int j = 0; j < n2; j++) {
            if (!in_box(p2b[j], lo, hi)) continue;
            uint32_t p2 = SHAPES[p2s[j]];
            uint32_t key = ix->key[p2s[j]] + k - neutral; /* P1's: P2's, less the prefix's */
            for (int i = ix->head[mix(key) & (SHAPE_BUCKETS - 1)]; i >= 0; i = ix->next[i]) {
                uint32_t p1 = SHAPES[i];
                if (ix->key[i] != key || (p1 & ~pyr) || (p2 & ~p1)) continue;
                if (partners_left(c, p1 & ~p2, stops.counts[s])
                    && relaxed_wins(c, p1 & ~p2, stops.counts[s])
                    && (p1 == pyr || relaxed_wins(c, pyr & ~p1, c1)))
                    return 1;
            }
        }
    }
    return 0;
}

/* The cone test asks the cards of rows 1 to 3: lower ones have cones too small to matter
 * (rows 1 and 2 pruned the same nodes as rows 1 to 5 on the slowest deals). Before any shape,
 * the likeliest way for each partner in the stock: the cone goes in phase 1 and t from the
 * stock's top; then the partner that passed last for X first. */
#define CONE_ASKED 0x3feu

int cone_lost(Ctx *c, const Pos *p) {
    if (!(c->flags & F_CONE) || c->overlap || !is_last_pass(c, p)
        || !shapes_made)
        return 0;
    if (!c->shapes && !index_shapes(c)) return 0;
    c->cone.gate.asked++;
    for (uint32_t m = p->pyr & CONE_ASKED & ~c->pyramid_kings; m; m &= m - 1) {
        int x = __builtin_ctz(m);
        if ((c->compat[x] & p->pyr) || !(CONE[x] & p->pyr)) continue;
        uint32_t partners = p->rest & (uint32_t)(c->of_value[13 - c->val[x]] >> PYR);
        uint64_t c1 = 0;
        int can = 0;
        for (uint32_t r = p->rest; r && !can; r &= r - 1) {
            int i = __builtin_ctz(r);
            if ((partners >> i & 1) && i >= p->top) can = relaxed_wins(c, CONE[x] & p->pyr, c1);
            if (c->val[PYR + i] != 13) c1 += count_unit(c->val[PYR + i]);
        }
        if (can) continue;
        int16_t p2s[NSHAPES];
        uint64_t p2b[NSHAPES];
        int n2 = 0;
        for (int j = 0; j < free_shapes_n[x]; j++)
            if (!(SHAPES[FREE_SHAPES[x][j]] & ~p->pyr)) {
                p2b[n2] = c->shapes->bytes[FREE_SHAPES[x][j]];
                p2s[n2++] = FREE_SHAPES[x][j];
            }
        int hint = c->cone.hint[x];
        while (partners && !can) {
            int t = next_partner(&partners, &hint);
            can = cone_partner_can(c, p, x, t, p2s, p2b, n2);
            if (can) c->cone.hint[x] = (uint8_t)t;
        }
        if (!can) {
            c->cone.gate.kills++;
            return 1;
        }
    }
    return 0;
}
