/*
 * The decision search: an exhaustive depth-first search for a winning line, with a table of
 * positions searched and not won. With a pass limit the positions form a DAG and a position
 * goes into the table when its search ends: the table holds verdicts. With unlimited passes
 * a position goes in when its search starts, which is what stops the search going round a
 * cycle; for a search for reachability that is enough: every position reachable from the
 * start is still entered once (or one that has all its moves is), so a reachable win is found.
 * The answer is a verdict, the winning line as (op, a, b) triples, and the nodes searched.
 *
 * PASSES: a position lost with more passes left is lost with fewer (every line of the second
 *   is a line of the first), so a table entry for the same cards and boundary in an earlier
 *   pass counts too. Only verdicts count so: with a pass limit the table holds nothing else.
 *
 * F_COMMUTE: a move on pyramid cards alone m (a pyramid pair, an overlap pair, a pyramid King)
 *   and a move r that leaves the pyramid as it was (a draw, a recycle, a pair of the two talon
 *   tops, a talon King) commute: if r then m is legal, so is m then r (m's legality depends on
 *   the pyramid alone, which r did not change; r's on the talon alone, which m does not
 *   change), and both orders end in the same position. So any winning line can be rewritten,
 *   with the same moves, until no pyramid-only move directly follows a move that left the
 *   pyramid unchanged: swap such neighbours; each swap moves a pyramid-only move one place
 *   earlier, so the rewriting ends. The search therefore tries no pyramid-only move right after
 *   a move that left the pyramid unchanged. Induction on the line: a node reached by such a
 *   move r has a winning line in that form (the rest of the parent's), whose first move is
 *   tried; where safe moves are played first (F_KINGS, F_FORCED) the lemma gives a fresh line
 *   from after them, which need not be in that form relative to r, so there every move is
 *   tried again. A node searched without its pyramid-only moves and not won proves only that
 *   no line of that form wins: its table entry says so and counts for nodes reached the same
 *   way; an entry of a fully searched node counts for both kinds.
 *   The draw rule: a draw followed by a pair of a pyramid card X with the waste's top, the card
 *   just drawn, ends where pairing X with the stock's top at once ends (the draw changed no
 *   pyramid card, so X was free before it), one move sooner. So a winning line can also be
 *   rewritten until no such pair directly follows a draw (each rewrite shortens it; with the
 *   swaps above, the pair (line length, places of the pyramid-only moves) falls at each step,
 *   so the rewriting ends), and a node reached by a draw (CTX_DRAWN) skips those pairs as well
 *   as the pyramid-only moves. Its "lost" counts for nodes reached by a draw; an entry of a
 *   node reached by another move that left the pyramid unchanged, which skips less, counts for
 *   it too.
 *
 * F_SUITS: the table is keyed by a position's class, the positions whose waste and stock hold
 *   the same values in the same order (see class_key in _core.h): a verdict of one is a
 *   verdict of every other, as they are the same game.
 *
 * Search shortcuts that are not pruning: a position whose only move is a draw (or, with a pass
 * limit, a recycle) is stepped through without a node of its own, and after a draw or recycle
 * outside the last pass the dead-end tests are not repeated: the cards are the same, and so is
 * the verdict the parent already had.
 */
#include "_core.h"

/* Is p lost by the dead-end tests (F_DEAD, F_RELAXED, F_WORD, F_APEX, F_STACKED)? Asked in
 * this order, the cheap and cached first (the par search asks the same). */
int pruned(Ctx *c, const Pos *p, uint64_t *relaxed) {
    uint32_t usable = p->rest;
    apex_prefetch(c, p);
    if ((c->flags & F_DEAD) && is_dead(c, p, &usable)) return 1;
    return relaxed_lost(c, p, usable, relaxed) || word_lost(c, p) || apex_lost(c, p)
           || stacked_lost(c, p, usable);
}

/* Is the position of key known lost for a node of context ctx (not CTX_FULL) by an entry that
 * skips fewer moves: a fully searched node's, or, for a node reached by a draw, one reached
 * by another move that left the pyramid unchanged. */
static inline int known_lost(const Ctx *c, uint64_t key, int ctx) {
    return set_has(&c->lost, key)
           || (ctx == CTX_DRAWN && set_has(&c->lost, with_context(key, CTX_PYRAMID_SAME)));
}

static int dfs(Ctx *c, Pos p, int check, uint64_t relaxed, int ctx) {
    int base = c->depth;
    Step moves[PYR * 4 + 8];
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
        if (play_forced(c, &p, 1)) {
            check = 1;
            ctx = CTX_FULL;
        }
        if (won(c, &p)) return 1;
        if (is_last_pass(c, &p)) check = 1;
        n = gen_moves(c, &p, moves, (c->flags & F_KINGS) ? 0 : 2, context_pyramid(p.pyr, ctx),
                      ctx == CTX_DRAWN);
        /* A position whose only move is a draw (or a recycle, with a pass limit) is the same
         * as the next one: step through it here, without a node or a table entry. */
        if (n == 1 && (moves[0].op == OP_DRAW || (moves[0].op == OP_RECYCLE && c->passes))) {
            apply(c, &p, moves[0]);
            push(c, moves[0].op, 0, 0);
            check = 0; /* the cards are the same (in the last pass the loop's top says 1) */
            ctx = (c->flags & F_COMMUTE) ? context_after(moves[0].op, p.pyr, p.pyr) : CTX_FULL;
            continue;
        }
        break;
    }
    if (n == 0) {
        c->depth = base;
        return 0;
    }
    uint64_t key = table_key(c, &p), entry = with_context(key, ctx);
    size_t at = set_slot(&c->lost, entry), cap = c->lost.cap; /* where its entry would go */
    if (c->lost.slots[at] == entry || (ctx && known_lost(c, key, ctx))) {
        c->depth = base;
        return 0;
    }
    for (int q = p.pass - 1; q >= 0; q--) { /* PASSES */
        uint64_t k = (key & ~KEY_PASS) | ((uint64_t)q << 58);
        if (set_has(&c->lost, with_context(k, ctx)) || (ctx && known_lost(c, k, ctx))) {
            c->depth = base;
            return 0;
        }
    }
    if (check && pruned(c, &p, &relaxed)) {
        c->depth = base;
        return 0;
    }
    if (!c->passes) set_add(&c->lost, entry); /* entered */
    for (int i = 0; i < n; i++) {
        Pos q = p;
        Step m = moves[i];
        apply(c, &q, m);
        push(c, m.op, m.a, m.b);
        int next = (c->flags & F_COMMUTE) ? context_after(m.op, p.pyr, q.pyr) : CTX_FULL;
        if (dfs(c, q, m.op < OP_DRAW, relaxed, next))
            return 1;
        if (c->aborted) return 0;
        c->depth--;
    }
    if (c->passes) set_add_at(&c->lost, entry, at, cap); /* a verdict */
    c->depth = base;
    return 0;
}

int decide(Ctx *c, Pos p) { return dfs(c, p, 1, 0, 0); }
