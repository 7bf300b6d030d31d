/*
 * Moves: the legal moves of a position, and the moves safe to play at once.
 *
 * SIMULATION LEMMA. Let S' be S with a set of cards C taken out, and let some winning line L
 * from S contain no move that pairs a card of C with a card outside C. Then L, with the moves
 * on C and the draws of C's cards left out, is a winning line from S' (with a recycle left
 * out when S' has nothing to recycle), and it is no longer than L. Taking cards away only
 * uncovers pyramid cards (a card that was free stays free; an overlap pair's X keeps its one
 * covering card Y, which is not in C, and loses no other), only brings talon cards to the
 * tops sooner, and never needs more recycles; the winning conditions ask only for cards to be
 * gone.
 *
 * F_KINGS: a free King (pyramid, stock top or waste top) is removed at once. By the lemma with
 *   C = {King}: a King is never paired, so every winning line qualifies; and a line that never
 *   removes a talon King can still have it removed first in the decision search, whose only
 *   question is whether a win exists (the lemma's S' is then S without the King, where L
 *   still wins). For the par search the King's removal must be a move that L makes anyway:
 *   so a pyramid King always (every win removes it: once, in one move), a talon King only in
 *   the whole-deck game. A standard-game line may leave a talon King where it is, and
 *   removing it would cost a move: there the par search treats it as an ordinary move.
 * F_FORCED: if a card X that every win must remove (a pyramid card; in the whole-deck game any
 *   card) has exactly one remaining card Y it can ever be paired with, and X and Y are both
 *   free now, X+Y is played at once. Every winning line pairs X with Y, so the lemma applies
 *   with C = {X, Y}; the line it gives plus the move X+Y is no longer than L, so the par
 *   search may play it too. (In the last pass the cards under the waste top are never its
 *   partners: see F_DEAD in _prune.c. With overlap pairs, "ever be paired" includes the card
 *   directly covering X, and the card X directly covers: see the compat table in _solver.c.)
 */
#include "_core.h"

/* ---- move generation ---------------------------------------------------------------------- */

/* The King moves: the pyramid's Kings in `pyramid_kings`, then with `talon` a King on the
 * stock's top and one on the waste's. Appended at out[n]; returns the new count. */
static inline int king_moves(const Ctx *c, uint32_t pyramid_kings, int talon, int st, int wt,
                             Step *out, int n) {
    for (uint32_t m = pyramid_kings; m; m &= m - 1)
        out[n++] = (Step){OP_KING, (uint8_t)__builtin_ctz(m), 0};
    if (talon && st >= 0 && c->val[PYR + st] == 13)
        out[n++] = (Step){OP_KING, (uint8_t)(PYR + st), 0};
    if (talon && wt >= 0 && c->val[PYR + wt] == 13)
        out[n++] = (Step){OP_KING, (uint8_t)(PYR + wt), 0};
    return n;
}

/* Pairs of a free pyramid card (pl[0..np), slot order) with a talon top, appended at out[n];
 * `up`: from the lowest free card up, else from the apex down. With `drawn`, none with the
 * waste's top. Returns the new count. */
static inline int talon_pairs(const Ctx *c, const int *pl, int np, int up, int st, int wt,
                              int drawn, Step *out, int n) {
    for (int k = 0; k < np; k++) {
        int a = pl[up ? np - 1 - k : k], va = c->val[a];
        if (st >= 0 && va + c->val[PYR + st] == 13)
            out[n++] = (Step){OP_PAIR, (uint8_t)a, (uint8_t)(PYR + st)};
        if (wt >= 0 && !drawn && va + c->val[PYR + wt] == 13)
            out[n++] = (Step){OP_PAIR, (uint8_t)a, (uint8_t)(PYR + wt)};
    }
    return n;
}

/* Pairs of two free pyramid cards a < b, by a as talon_pairs goes; none of two cards both free
 * in `before` (fb). */
static inline int pyramid_pairs(const Ctx *c, const int *pl, int np, int up, uint32_t fp,
                                uint32_t fb, Step *out, int n) {
    for (int k = 0; k < np; k++) { /* each free partner b after a (of_value[0] is empty) */
        int a = pl[up ? np - 1 - k : k];
        uint32_t partners = fp & (uint32_t)c->of_value[13 - c->val[a]] & ~((2u << a) - 1);
        if ((fb >> a) & 1) partners &= ~fb;
        for (; partners; partners &= partners - 1)
            out[n++] = (Step){OP_PAIR, (uint8_t)a, (uint8_t)__builtin_ctz(partners)};
    }
    return n;
}

/* The two talon tops as a pair, then a draw or a recycle: the last moves of either order. */
static inline int talon_moves(const Ctx *c, const Pos *p, int st, int wt, Step *out, int n) {
    if (st >= 0 && wt >= 0 && c->val[PYR + st] + c->val[PYR + wt] == 13)
        out[n++] = (Step){OP_PAIR, (uint8_t)(PYR + st), (uint8_t)(PYR + wt)};
    if (st >= 0) out[n++] = (Step){OP_DRAW, 0, 0};
    else if (can_recycle(c, p)) out[n++] = (Step){OP_RECYCLE, 0, 0};
    return n;
}

/* The free pyramid cards, in slot order; returns how many. */
static inline int free_list(uint32_t fp, int *pl) {
    int np = 0;
    for (uint32_t m = fp; m; m &= m - 1) pl[np++] = __builtin_ctz(m);
    return np;
}

/* The moves from p, in the order the searches try them: Kings (only those `kings` asks for:
 * the rest were played already), pyramid cards with a talon top (the stock's, then the
 * waste's), pyramid pairs, overlap pairs, the two talon tops, then a draw or a recycle; the
 * pairs with a pyramid card from the lowest free card up. The order decides only how soon a
 * win is found (a lost position's whole tree is searched), and this one (a pyramid card goes
 * with the talon before two go together, the low cards before those near the apex) finds wins
 * sooner than pyramid pairs first from the apex down (docs/solver-log.md, round 4). The moves
 * on pyramid cards alone that were legal in the pyramid `before`
 * are left out, and with `drawn` (p was reached by a draw) the pairs of a pyramid card with the
 * waste's top, the card just drawn (see F_COMMUTE in _search.c; 0 and 0 leave out none).
 * `kings`: 0 none, 1 talon Kings only, 2 all. Returns how many. */
int gen_moves(const Ctx *c, const Pos *p, Step *out, int kings, uint32_t before, int drawn) {
    int n = 0;
    uint32_t fp = free_pyramid(p->pyr), fb = free_pyramid(before), hb = half_free(before);
    int st = stock_top(c, p), wt = waste_top(p->rest, p->top);
    int pl[PYR], np = free_list(fp, pl);
    n = king_moves(c, kings == 2 ? fp & c->pyramid_kings & ~fb : 0, kings, st, wt, out, n);
    n = talon_pairs(c, pl, np, 1, st, wt, drawn, out, n);
    n = pyramid_pairs(c, pl, np, 1, fp, fb, out, n);
    if (c->overlap) {
        for (uint32_t m = half_free(p->pyr); m; m &= m - 1) {
            int x = __builtin_ctz(m), y = present_cover(c, p->pyr, x);
            if (((fp >> y) & 1) && c->val[x] + c->val[y] == 13 && ((hb >> x) & (fb >> y) & 1) == 0)
                out[n++] = (Step){OP_PAIR, (uint8_t)x, (uint8_t)y};
        }
    }
    return talon_moves(c, p, st, wt, out, n);
}

/* The moves of a node reached by a draw, with F_KINGS and F_COMMUTE: gen_moves's with `drawn`
 * and the pyramid before the draw the same, which leave only the stock top's pairs (from the
 * lowest free card up), the two tops as a pair and a draw or a recycle. Made without the list of
 * free cards: most nodes of the passes before the last are reached by a draw. */
int drawn_moves(const Ctx *c, const Pos *p, Step *out) {
    int n = 0, st = stock_top(c, p), wt = waste_top(p->rest, p->top);
    if (st >= 0) {
        uint32_t m = free_pyramid(p->pyr) & (uint32_t)c->of_value[13 - c->val[PYR + st]];
        for (; m; m &= ~(1u << (31 - __builtin_clz(m))))
            out[n++] = (Step){OP_PAIR, (uint8_t)(31 - __builtin_clz(m)), (uint8_t)(PYR + st)};
    }
    return talon_moves(c, p, st, wt, out, n);
}

/* Every legal move by the game's rules (no overlap pairs), for the random playouts, in their
 * own fixed order: Kings (pyramid, stock, waste), pyramid pairs and then pyramid cards with a
 * talon top, each from the apex down, then the talon's moves. A playout picks a move by its
 * place in this list, so the order is part of every difficulty figure already published: it
 * must not follow the search's. */
int game_moves(const Ctx *c, const Pos *p, Step *out) {
    int n = 0;
    uint32_t fp = free_pyramid(p->pyr);
    int st = stock_top(c, p), wt = waste_top(p->rest, p->top);
    int pl[PYR], np = free_list(fp, pl);
    n = king_moves(c, fp & c->pyramid_kings, 1, st, wt, out, n);
    n = pyramid_pairs(c, pl, np, 0, fp, 0, out, n);
    n = talon_pairs(c, pl, np, 0, st, wt, 0, out, n);
    return talon_moves(c, p, st, wt, out, n);
}

/* ---- moves that are safe to play at once ------------------------------------------------ */

/* Is the card at loc free now? */
static inline int loc_free(const Ctx *c, const Pos *p, uint32_t freepyr, int loc) {
    if (loc < PYR) return (freepyr >> loc) & 1;
    int t = loc - PYR;
    return t == stock_top(c, p) || t == waste_top(p->rest, p->top);
}

/* The cards the card at loc can still be paired with; wt is the waste's top (-1: none), which in
 * the last pass can never meet a card under it (see F_DEAD). */
static inline uint64_t partners_of(const Ctx *c, const Pos *p, int loc, int wt) {
    uint64_t partners = ((uint64_t)p->pyr | ((uint64_t)p->rest << PYR)) & c->compat[loc];
    if (wt >= 0 && loc == PYR + wt && is_last_pass(c, p))
        partners &= ~((uint64_t)waste_bits(p->rest, wt) << PYR);
    return partners;
}

/* Is `partners` a single card, free now? */
static inline int one_free(const Ctx *c, const Pos *p, uint32_t fp, uint64_t partners) {
    return partners && !(partners & (partners - 1))
           && loc_free(c, p, fp, __builtin_ctzll(partners));
}

/* Is there a safe move to play after a draw from a position that had none? Only what the draw
 * changed can make one: the new stock top s is free now (a King; or a card whose one partner
 * left is free, or the one partner left of a free card), and the waste top may have lost
 * partners (in the last pass, the cards now under it). So when none of those holds, play_forced
 * would play nothing, and need not be asked. */
int draw_may_force(const Ctx *c, const Pos *p) {
    int st = stock_top(c, p), wt = waste_top(p->rest, p->top);
    uint32_t fp = free_pyramid(p->pyr);
    if (st >= 0 && c->val[PYR + st] == 13) return (c->flags & F_KINGS) != 0;
    if (!(c->flags & F_FORCED)) return 0;
    if (st >= 0) {
        uint64_t partners = partners_of(c, p, PYR + st, wt);
        if (c->wholedeck && one_free(c, p, fp, partners)) return 1;
        for (uint64_t m = partners & fp; m; m &= m - 1) /* a free pyramid card with s alone */
            if (partners_of(c, p, __builtin_ctzll(m), wt) == 1ULL << (PYR + st)) return 1;
    }
    return c->wholedeck && wt >= 0 && one_free(c, p, fp, partners_of(c, p, PYR + wt, wt));
}

/* Play the moves that are safe to play at once (F_KINGS, F_FORCED); returns how many.
 * `talon_kings`: whether a free talon King counts as safe (see F_KINGS). */
int play_forced(Ctx *c, Pos *p, int talon_kings) {
    int played = 0;
    while (!won(c, p)) {
        uint32_t fp = free_pyramid(p->pyr);
        int st = stock_top(c, p), wt = waste_top(p->rest, p->top);
        if (c->flags & F_KINGS) {
            int king = -1;
            uint32_t kings = fp & c->pyramid_kings;
            if (kings) king = __builtin_ctz(kings);
            else if (talon_kings && st >= 0 && c->val[PYR + st] == 13) king = PYR + st;
            else if (talon_kings && wt >= 0 && c->val[PYR + wt] == 13) king = PYR + wt;
            if (king >= 0) {
                take(c, p, king);
                push(c, OP_KING, king, 0);
                played++;
                continue;
            }
        }
        if (!(c->flags & F_FORCED)) break;
        uint64_t free_locs = fp;
        if (c->wholedeck) { /* in the standard game a talon card need not go */
            if (st >= 0) free_locs |= 1ULL << (PYR + st);
            if (wt >= 0) free_locs |= 1ULL << (PYR + wt);
        }
        int x = -1, y = -1;
        for (uint64_t m = free_locs; m; m &= m - 1) {
            int loc = __builtin_ctzll(m);
            if (c->val[loc] == 13) continue;
            uint64_t partners = partners_of(c, p, loc, wt);
            if (one_free(c, p, fp, partners)) {
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
