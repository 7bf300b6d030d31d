/*
 * Random playouts: from a position, play uniformly random legal moves until the game is over,
 * many times, and count the wins. The difficulty measures (app/odds/difficulty.py) ask how
 * often aimless play wins a deal: hundreds of games a deal over hundreds of thousands of deals,
 * too many for the Python engine (about 0.5 ms a game there, some 20 us here).
 *
 * A playout plays by the game's rules, not the solver's: every legal move of Game.legal_moves
 * is a candidate (game_moves: the same set, in a fixed order of its own), and a game ends
 * exactly when Game ends it (game_over below restates Game._compute_outcome: won, no move left,
 * a pyramid that can never be cleared, or in the whole-deck game a talon that can never be
 * cleared), so every line it reports replays through Game.play to the same end. No pruning
 * and no rule option plays a part.
 *
 * The random numbers are SplitMix64 from the seed given, one stream for all the playouts of a
 * call, a move chosen by the high 32 bits times the number of moves (bias below 2^-27): the
 * same seed gives the same games on every machine.
 */
#include "_core.h"

static inline uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Do cards of these values (bit v for value v) hold a King or two values making 13? */
static inline int removable(uint32_t values) {
    if (values >> 13 & 1) return 1;
    for (int v = 1; v <= 6; v++)
        if ((values >> v & 1) && (values >> (13 - v) & 1)) return 1;
    return 0;
}

/* 1 won, -1 lost, 0 the game goes on: Game._compute_outcome, on values. */
static int game_over(const Ctx *c, const Pos *p) {
    if (!p->pyr && (!c->wholedeck || !p->rest)) return 1;
    uint32_t free_values = 0, talon_values = 0;
    for (uint32_t m = free_pyramid(p->pyr); m; m &= m - 1)
        free_values |= 1u << c->val[__builtin_ctz(m)];
    for (uint32_t m = p->rest; m; m &= m - 1)
        talon_values |= 1u << c->val[PYR + __builtin_ctz(m)];
    int wt = waste_top(p->rest, p->top);
    if (stock_top(c, p) < 0 && !can_recycle(c, p)) {
        /* No draw and no recycle: a move needs a King or a pair among the free cards. */
        uint32_t tops = free_values | (wt >= 0 ? 1u << c->val[PYR + wt] : 0);
        if (!removable(tops)) return -1;
    }
    if (p->pyr) {
        int alive = removable(free_values);
        for (int v = 1; v <= 12 && !alive; v++)
            if ((free_values >> v & 1) && (talon_values >> (13 - v) & 1)) alive = 1;
        if (!alive) return -1;
    } else if (!removable(talon_values)) {
        return -1;
    }
    return 0;
}

/* The cards the goal still needs removed: the pyramid's, and in the whole-deck game the talon's. */
static inline int goal_left(const Ctx *c, const Pos *p) {
    return __builtin_popcount(p->pyr) + (c->wholedeck ? __builtin_popcount(p->rest) : 0);
}

/* One game of random moves from p; 1 when it is won. *left: the cards the goal still needed at
 * the end. With `record`, its moves are c->path (c->depth of them). */
int playout(Ctx *c, Pos p, uint64_t *rng, int record, int *left) {
    Step moves[PYR * 4 + 8];
    c->depth = 0;
    for (;;) {
        int over = game_over(c, &p);
        *left = goal_left(c, &p);
        if (over) return over > 0;
        int n = game_moves(c, &p, moves);
        if (n == 0 || c->depth >= MAXPATH) return 0; /* neither happens: game_over saw it */
        Step m = moves[(int)(((splitmix64(rng) >> 32) * (uint64_t)n) >> 32)];
        apply(c, &p, m);
        if (record) push(c, m.op, m.a, m.b);
    }
}
