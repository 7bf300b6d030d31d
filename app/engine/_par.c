/*
 * The par search: the fewest moves that win (a move is a removal of a pair or a King, a draw
 * or a recycle, one each), proven minimal. Depth-first searches with a move budget, cut where
 * the moves made plus an admissible bound h exceed it (as in IDA*): starting from a known
 * winning line of L moves, each asks for a line of at most L - 1 moves; the first that finds
 * none proves the best line found minimal. A table keeps, per position, a lower bound on the
 * moves it needs (learnt when a search of it with some budget fails), across the searches.
 *
 * What the decision search does at once stays sound for the par search (see _moves.c,
 * _prune.c and _search.c): a forced move is in every winning line and the lemma's line with
 * it played first is no longer, so the distance of a position is exactly the forced moves plus
 * the distance after them; a position whose only move is a draw is one move from the next;
 * F_COMMUTE's rewriting keeps the length of a line; F_DEAD and F_RELAXED only prune lost
 * positions. Only F_KINGS narrows: in the standard game a talon King is an ordinary move.
 *
 * THE BOUND h (admissible: never more than the moves a win still needs). Split the moves of
 * any winning line into those that remove a pyramid card ("pyramid moves") and the others.
 * - Standard game, pyramid moves. A pyramid King takes a move of its own. Any other move
 *   removes at most one card of value v and one of 13 - v; two pyramid cards go together only
 *   if compat says they can (neither covers the other), so a "lonely" card, with no such
 *   partner left in the pyramid, never does. Per value pair {v, w = 13 - v} with y[v], y[w]
 *   pyramid cards, l[v], l[w] of them lonely, at most M = min(y[v] - l[v], y[w] - l[w]) moves
 *   take two pyramid cards, so the pair needs y[v] + y[w] - I >= y[v] + y[w] - M pyramid moves
 *   (I: the moves that do take two). The y[v] - I pyramid cards of value v not paired inside
 *   the pyramid each take a talon card of value w: A[w] = y[v] - I of them, and with
 *   need[w] = y[v] - M, the pyramid moves are y[v] + y[w] - M + max(0, A[w] - need[w],
 *   A[v] - need[v]).
 * - Standard game, the other moves (draws, recycles, talon pairs, talon Kings). At least
 *   need[w] talon cards of value w must each reach a talon top. To reach a stock card, every
 *   stock card above it leaves first; to reach a waste card, every waste card above it leaves
 *   first, or (passes allowing) the whole stock leaves, the waste is recycled (a move) and the
 *   waste cards under it leave first. A card in the way leaves by a move of its own (two stock
 *   cards, or two waste cards, never go in one move; a talon pair takes one of each side) that
 *   is either not a pyramid move (counted once per card) or takes it with a pyramid card (of
 *   value 13 - v for a card of value v: at most y[13 - v] such cards). So the cards in the way
 *   cost at least the larger of: (a) those beyond what the pyramid could take, sum over v of
 *   max(0, b[v] - y[13 - v]), Kings all (b[v]: the cards of value v in the way); (b) by the
 *   formula for the pyramid moves above, taking b[v] of them with pyramid cards costs
 *   max(0, b[v] - need[v], b[w] - need[w]) moves more than counted, and leaving one to a move
 *   of its own costs one: at least the sum over value pairs of max(e[v], e[w]), e[v] =
 *   max(0, b[v] - need[v]), plus the Kings. A talon card's cost is the cheaper way's; the
 *   bound adds the largest, over w, of the need[w]-th cheapest talon card of value w (the
 *   same moves may serve several cards: the largest, not the sum).
 * - Whole-deck game. Every card goes, so the removals are exactly the Kings plus half the
 *   other cards. The other moves (draws and recycles): two cards now in the stock can only go
 *   together after one of them is drawn (a draw each pair); two cards now in the waste only
 *   after a recycle and a draw. Per pair of values {v, 13 - v}, the stock's cards of value v
 *   beyond the pyramid's and waste's cards of value 13 - v must pair inside the stock (and
 *   likewise for the waste), so draws >= those counts and one recycle if any waste pair.
 * The two parts count different moves, so their sum is a lower bound.
 */
#include "_core.h"

#define FOUND (-1)
#define INF 255

/* The talon cards in the way of a talon card, counted as they are met (see THE BOUND): cards
 * of each value b[]; `loose`, those beyond what the pyramid's cards could ever take
 * (cap[v] = the pyramid's cards of value 13 - v); `dear`, the moves they cost at least when
 * taking a card of value v beyond slack[v] (what the pyramid's unmatched cards need anyway)
 * costs a pyramid move (shared with a card of value 13 - v). */
typedef struct {
    int b[14], loose, dear;
} Tally;

static inline int excess(const Tally *t, const int *slack, int v) {
    return t->b[v] > slack[v] ? t->b[v] - slack[v] : 0;
}

static inline void tally_in(Tally *t, const int *cap, const int *slack, int v) {
    if (v == 13) {
        t->b[13]++;
        t->loose++;
        t->dear++;
        return;
    }
    int ew = excess(t, slack, 13 - v), ev = excess(t, slack, v);
    int before = ev > ew ? ev : ew;
    if (t->b[v]++ >= cap[v]) t->loose++;
    ev = excess(t, slack, v);
    t->dear += (ev > ew ? ev : ew) - before;
}

static inline int tally_cost(const Tally *t) { return t->loose > t->dear ? t->loose : t->dear; }

static int h_standard(const Ctx *c, const Pos *p) {
    int y[14] = {0}, lonely[14] = {0}, need[14] = {0}, cap[14] = {0}, any = 0;
    for (uint32_t m = p->pyr; m; m &= m - 1) {
        int x = __builtin_ctz(m), v = c->val[x];
        y[v]++;
        if (v != 13 && !(c->compat[x] & p->pyr)) lonely[v]++;
    }
    int removals = y[13];
    for (int v = 1; v <= 6; v++) {
        int w = 13 - v, mv = y[v] - lonely[v], mw = y[w] - lonely[w];
        int match = mv < mw ? mv : mw; /* pairs inside the pyramid, at most */
        removals += y[v] + y[w] - match;
        need[w] = y[v] - match; /* talon cards of value w the pyramid's v cards need */
        need[v] = y[w] - match;
        any |= need[w] > 0 || need[v] > 0;
    }
    if (!any) return removals;
    for (int v = 1; v <= 12; v++) cap[v] = y[13 - v];
    /* cost[t]: what the talon cards in the way of talon card t cost at least. */
    uint8_t cost[MAXTALON];
    Tally ahead = {{0}, 0, 0};
    for (int t = p->top; t < c->n; t++) { /* stock, top down */
        if (!((p->rest >> t) & 1)) continue;
        cost[t] = (uint8_t)tally_cost(&ahead);
        tally_in(&ahead, cap, need, c->val[PYR + t]);
    }
    Tally stock = ahead;
    uint32_t waste = waste_bits(p->rest, p->top);
    memset(&ahead, 0, sizeof ahead);
    for (uint32_t m = waste; m; ) { /* waste, top down */
        int t = 31 - __builtin_clz(m);
        m &= ~(1u << t);
        cost[t] = (uint8_t)tally_cost(&ahead);
        tally_in(&ahead, cap, need, c->val[PYR + t]);
    }
    if (!c->passes || p->pass < c->passes - 1) { /* or the stock goes, a recycle, the rest */
        for (uint32_t m = waste; m; m &= m - 1) { /* waste, bottom up */
            int t = __builtin_ctz(m), via = tally_cost(&stock) + 1;
            if (via < cost[t]) cost[t] = (uint8_t)via;
            tally_in(&stock, cap, need, c->val[PYR + t]);
        }
    }
    int other = 0;
    for (int w = 1; w <= 12; w++) {
        if (need[w] <= 0) continue;
        int got[4], k = 0;
        for (uint32_t m = p->rest & (uint32_t)(c->of_value[w] >> PYR); m; m &= m - 1)
            if (k < 4) got[k++] = cost[__builtin_ctz(m)];
        if (k < need[w]) return INF;
        for (int i = 1; i < k; i++) /* insertion sort of at most 4 */
            for (int j = i; j > 0 && got[j - 1] > got[j]; j--) {
                int x = got[j]; got[j] = got[j - 1]; got[j - 1] = x;
            }
        if (got[need[w] - 1] > other) other = got[need[w] - 1];
    }
    return removals + other;
}

static int h_wholedeck(const Ctx *c, const Pos *p) {
    int y[14] = {0}, s[14] = {0}, a[14] = {0}, cards = 0;
    for (uint32_t m = p->pyr; m; m &= m - 1) y[c->val[__builtin_ctz(m)]]++;
    for (uint32_t m = p->rest; m; m &= m - 1) {
        int t = __builtin_ctz(m);
        (t >= p->top ? s : a)[c->val[PYR + t]]++;
    }
    for (int v = 1; v <= 13; v++) cards += y[v] + s[v] + a[v];
    int kings = y[13] + s[13] + a[13];
    int moves = kings + (cards - kings) / 2, draws = 0, waste_pairs = 0;
    for (int v = 1; v <= 6; v++) {
        int w = 13 - v;
        int ss = s[v] - y[w] - a[w], ss2 = s[w] - y[v] - a[v];
        int ww = a[v] - y[w] - s[w], ww2 = a[w] - y[v] - s[v];
        if (ss2 > ss) ss = ss2;
        if (ww2 > ww) ww = ww2;
        if (ss > 0) draws += ss;
        if (ww > 0) waste_pairs += ww;
    }
    return moves + draws + waste_pairs + (waste_pairs > 0);
}

static inline int h_par(const Ctx *c, const Pos *p) {
    return c->wholedeck ? h_wholedeck(c, p) : h_standard(c, p);
}

/* Search p with r moves to spend: FOUND with the line on the path, or a lower bound on the
 * moves p needs, above r. */
static int search(Ctx *c, Pos p, int r, int check, uint64_t relaxed, int ctx) {
    int base = c->depth, k = 0, n;
    Step moves[PYR * 4 + 8];
    int kings = !(c->flags & F_KINGS) ? 2 : c->wholedeck ? 0 : 1;
    if (++c->nodes > c->limit && c->limit > 0) {
        c->aborted = 1;
        return INF;
    }
    for (;;) {
        if (c->depth + 8 >= MAXPATH) {
            c->aborted = 1;
            return INF;
        }
        int f = play_forced(c, &p, c->wholedeck);
        if (f) {
            k += f;
            check = 1;
            ctx = CTX_FULL;
        }
        if (won(c, &p)) {
            if (k <= r) return FOUND;
            c->depth = base;
            return k;
        }
        if (is_last_pass(c, &p)) check = 1;
        n = gen_moves(c, &p, moves, kings, context_pyramid(p.pyr, ctx), 0);
        if (n == 1 && (moves[0].op == OP_DRAW || (moves[0].op == OP_RECYCLE && c->passes))) {
            apply(c, &p, moves[0]);
            push(c, moves[0].op, 0, 0);
            k++;
            check = 0;
            ctx = (c->flags & F_COMMUTE) ? CTX_PYRAMID_SAME : CTX_FULL;
            continue;
        }
        break;
    }
    c->depth = base;
    if (n == 0) return INF;
    int h = h_par(c, &p);
    if (h >= INF) return INF;
    if (k + h > r) return k + h;
    uint64_t key = table_key(c, &p);
    int lb = h;
    for (int i = 0; i < (ctx ? 2 : 1); i++) {
        uint64_t k2 = i ? with_context(key, ctx) : key;
        size_t slot = set_slot(&c->bound, k2);
        if (c->bound.slots[slot] == k2 && c->bound.vals[slot] > lb) lb = c->bound.vals[slot];
    }
    if (lb >= INF) return INF;
    if (k + lb > r) return k + lb;
    if (check && pruned(c, &p, &relaxed, ASK_APEX_WORD)) {
        set_put(&c->bound, key, INF);
        return INF;
    }
    c->depth = base + k;
    int best = INF;
    for (int i = 0; i < n; i++) {
        Pos q = p;
        Step m = moves[i];
        apply(c, &q, m);
        push(c, m.op, m.a, m.b);
        /* (The draw rule of F_COMMUTE is not used here: CTX_DRAWN never arises.) */
        int next = (c->flags & F_COMMUTE) && p.pyr == q.pyr ? CTX_PYRAMID_SAME : CTX_FULL;
        int res = search(c, q, r - k - 1, m.op < OP_DRAW, relaxed, next);
        if (res == FOUND) return FOUND;
        c->depth = base + k;
        if (c->aborted) break;
        if (res + 1 < best) best = res + 1;
    }
    c->depth = base;
    if (c->aborted) return INF;
    if (best > INF) best = INF;
    set_put(&c->bound, with_context(key, ctx), (uint8_t)best);
    return best >= INF ? INF : k + best;
}

/* The fewest moves that win from p, the line on the path; -1 when the node limit stopped it.
 * On entry the path holds a winning line from p (the decision search's): the search goes
 * down from there, each time asking for a line one move shorter than the best so far, until
 * none is found. That beats going up from the bound, as iterative deepening does: the decision
 * search's line is often close to par, and the bound is weakest where the gap is widest
 * (docs/solver-log.md). */
int par_search(Ctx *c, Pos p) {
    int best = c->depth;
    memcpy(c->best, c->path, sizeof(Step) * (size_t)best);
    while (best > 0) {
        c->depth = 0;
        int res = search(c, p, best - 1, 1, 0, 0);
        if (c->aborted) return -1;
        if (res != FOUND) break; /* no line of best - 1 moves or fewer: best is the par */
        best = c->depth;
        memcpy(c->best, c->path, sizeof(Step) * (size_t)best);
    }
    memcpy(c->path, c->best, sizeof(Step) * (size_t)best);
    c->depth = best;
    return best;
}
