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
 *   pass counts too; with F_STARTS an open entry counts as well (see F_STARTS below).
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
 * F_STARTS (see _starts.c for why): the search queues the starts it reaches (a line's first node in
 *   a later pass) instead of deciding each at once, and decides them fewest cards first, at half
 *   the pace the search finds them (starts_budget); deciding a start of a middle pass queues the
 *   starts of the last pass that its search reaches. A node whose search queued a start, or met a
 *   queued one, is not lost but open: its entry says so (KEY_OPEN) and stops the search entering it
 *   again (its starts are in the queue); a node with no open child gets its verdict as before. A
 *   start decided from the queue is searched above the current line and handed its line when won.
 *   The PASSES rule reads open entries too: a position Q whose cards and boundary an open node M of
 *   an earlier pass has is not searched. Every line of Q is a line of M (more passes left), so Q
 *   can be won only if M can; and M's starts are all queued, so the search will find such a win
 *   through M, by a line with fewer recycles. So the search's answer is right, though an entry
 *   "lost" now means "lost, or won through such an M": take a winning line with the fewest recycles
 *   (and of F_COMMUTE's form, which the rewriting keeps); none of its positions has such an M (that
 *   M's line would need fewer recycles), so by induction from its end none of them gets an entry
 *   "lost", and each of its starts is queued, decided in place or met open, until the one its win
 *   is in is decided.
 *
 * F_DOMINANCE: a start S decided lost (in context ctx) makes lost every position D that is S
 *   without two cards that make 13 with nothing left between them in S's stock, or without a
 *   King in its stock (dominated_lost). For a line L that wins from D gives one that wins from
 *   S: when L first turns up the card after the two (or has drawn them all), draw the first
 *   and pair it, the waste's top, with the second, the stock's top (or take the King); then
 *   S is where D was, and L goes on. The moves put in leave the pyramid as it was, so the line
 *   can be rewritten into F_COMMUTE's form as L was, and its first move is one ctx allows
 *   whenever L's is; so D's entry, of context ctx, says what S's does. And the search's
 *   answer stays right with such entries (and the "lost" entries of F_STARTS): take the
 *   winning lines with the fewest recycles, of F_COMMUTE's form; if a position on one ever got
 *   a "lost" entry, take the first time it happened. It was not a dead-end test, nor an open
 *   node of an earlier pass (fewer recycles); it was its search, after the next position on
 *   its line had been found lost, or it was a D of some start S that had been decided lost.
 *   But S, in the same pass, then has a winning line with as many recycles, through the
 *   search's line to S, so S was such a position, decided lost before: either way not the
 *   first time. The starts are decided most cards first within a group (_starts.c), so that a
 *   start is mostly decided before the starts it dominates, and a start queued is put through
 *   the dead-end tests only when it is decided, after its table entry: one dominated by then
 *   costs a lookup. Not with three passes: there the middle pass's starts are decided in the
 *   order found (most cards first cost the won deals far more nodes), so a start is seldom
 *   decided before the ones it dominates, and the waiting tests would only cost.
 *
 * Search shortcuts that are not pruning: a position whose only move is a draw (or, with a pass
 * limit, a recycle) is stepped through without a node of its own, and after a draw or recycle
 * outside the last pass the dead-end tests are not repeated: the cards are the same, and so is
 * the verdict the parent already had.
 */
#include "_core.h"

/* Is p lost by the dead-end tests (F_DEAD, F_RELAXED, F_WORD, F_STACKED, F_APEX, F_CONE)? Asked in
 * this order, the cheap and cached first (the par search asks the same). The stacked game goes
 * before the apex test: in the last pass it prunes most of what the two prune, and the apex
 * test, whose verdicts the whole-deck game does not keep, costs more. Which of them are asked
 * beyond these is `ask` (see asked_at below). */
int pruned(Ctx *c, const Pos *p, uint64_t *relaxed, unsigned ask) {
    uint32_t usable = p->rest;
    apex_prefetch(c, p);
    if ((c->flags & F_DEAD) && is_dead(c, p, &usable)) return 1;
    return relaxed_lost(c, p, usable, relaxed) || word_lost(c, p) || stacked_lost(c, p, usable)
           || apex_lost(c, p, ask) || ((ask & ASK_CONE) && cone_lost(c, p));
}

/* What pruned() asks at a node of the decision search (ASK_*), `at_start` when the node is a
 * start (a line's first node in a later pass). Each choice only decides whether a sound test is
 * asked, so none changes an answer (_pays.h):
 * - the cone test at the starts alone, and there while it pays (ConeGate): inside a start's
 *   search the positions it would prove lost are mostly a node or two from their end;
 * - the apex test inside a start's search while it pays (APEX_PAYS), at the starts always: a
 *   start it proves lost saves the start's whole search;
 * - the whole-deck apex test's word with one pass everywhere; with two or three passes not
 *   inside a start's search, where the stacked game, asked first, prunes nearly all it would;
 *   with three passes at the starts while it pays (APEX_WORD_PAYS); with two passes not at all,
 *   as there the test without it and the cone test prove nearly every start it would. */
static unsigned asked_at(Ctx *c, int at_start) {
    unsigned ask = 0;
    if (at_start && !c->cone.sample && (c->cone.probe || cone_pays(&c->cone.gate))) ask |= ASK_CONE;
    if (c->passes < 2
        || (at_start && c->passes == 3 && gate_open(&c->apex_word_gate, APEX_WORD_PAYS)))
        ask |= ASK_APEX_WORD;
    if (!at_start) ask |= ASK_APEX_GATED;
    return ask;
}

/* What a node's search found: a win, no win, or no win yet among the starts it queued. */
enum { LOST = 0, WON = 1, OPEN = 2 };

/* A position's entries in the table differ only in the bits the table's hash leaves out (the
 * pass, the context, KEY_OPEN), so they share one probe run: entries_of walks it once and
 * answers every question a node asks, as a bit per entry (entry_bit: those bits as a number
 * below 32), instead of a lookup per question (up to eight a node in the last pass, each
 * walking the run to its end when its entry is not there). It also gives the empty slot that
 * ends the run, where a new entry of the position goes. */
static inline unsigned entry_bit(uint64_t e) {
    return (unsigned)(((e >> 57) & 1) | ((e >> 59) & 6) | ((e >> 55) & 0x18));
}

static inline uint32_t entries_of(const Set *s, uint64_t key, size_t *end) {
    uint32_t found = 0;
    size_t j = set_home(s, key);
    for (uint64_t e; (e = s->slots[j]); j = (j + 1) & (s->cap - 1))
        if (!((e ^ key) & ~s->ignored)) found |= 1u << entry_bit(e);
    *end = j;
    return found;
}

static inline int has(uint32_t entries, uint64_t e) { return entries >> entry_bit(e) & 1; }

/* Is the position of key known lost for a node of context ctx (not CTX_FULL) by an entry that
 * skips fewer moves: a fully searched node's, or, for a node reached by a draw, one reached
 * by another move that left the pyramid unchanged. */
static inline int known_lost(uint32_t entries, uint64_t key, int ctx) {
    return has(entries, key)
           || (ctx == CTX_DRAWN && has(entries, with_context(key, CTX_PYRAMID_SAME)));
}

/* Is the position of key open (F_STARTS: its starts queued) for a node of context ctx, by its
 * own entry or one that skips fewer moves (as known_lost)? */
static inline int known_open(uint32_t entries, uint64_t key, int ctx) {
    return has(entries, with_context(key, ctx) | KEY_OPEN)
           || (ctx && has(entries, key | KEY_OPEN))
           || (ctx == CTX_DRAWN && has(entries, with_context(key, CTX_PYRAMID_SAME) | KEY_OPEN));
}

/* F_STARTS: the nodes spent deciding starts are kept within half of those spent finding them.
 * More, and a won deal decides poor starts found early before its better ones are found; less,
 * and a three-pass deal's middle-pass starts, which find the last pass's, are decided too late
 * (docs/solver-log.md, round 6). The budget only orders the work: a start it holds back is
 * decided later. */
static inline int starts_budget(const Ctx *c) {
    return 2 * c->starts.spent <= c->nodes - c->starts.spent;
}

/* Queue the start p (reached in context ctx, with the relaxed game `relaxed` known won, `tested`
 * by the dead-end tests or not, its own
 * steps from c->path[base - 1] on), with the trails of the nodes above it that have none yet
 * (those below the deepest that has one, down to the start being decided, if any: its line is
 * root_trail); 0 when memory runs out. */
static int queue_start(Ctx *c, const Pos *p, int ctx, uint64_t relaxed, int base, int tested) {
    Starts *s = &c->starts;
    int f = s->frames;
    while (f > s->floor && s->frame_trail[f - 1] < 0) f--;
    for (; f < s->frames; f++) {
        int first = f == s->floor ? s->root_depth : s->frame_base[f] - 1;
        int parent = f == s->floor ? s->root_trail : s->frame_trail[f - 1];
        s->frame_trail[f] = starts_trail(c, parent, first, s->frame_end[f]);
        if (s->frame_trail[f] < 0) return 0;
    }
    int parent = s->frames > s->floor ? s->frame_trail[s->frames - 1] : s->root_trail;
    int trail = starts_trail(c, parent, base - 1, c->depth);
    return trail >= 0 && starts_push(c, p, ctx, relaxed, trail, tested);
}

static int dfs(Ctx *c, Pos p, int check, uint64_t relaxed, int ctx, int from);

/* F_DOMINANCE, with two passes only (see the header). */
static inline int dominance(const Ctx *c) { return (c->flags & F_DOMINANCE) && c->passes == 2; }

/* F_DOMINANCE: the start p, searched in context ctx, is lost; so is every position that is p
 * without two cards next to each other in its stock that make 13, or without a King there. */
static void dominated_lost(Ctx *c, const Pos *p, int ctx) {
    if (!dominance(c) || c->aborted) return;
    int before = -1; /* the stock card before this one */
    for (uint32_t m = p->top < 32 ? p->rest & (~0u << p->top) : 0; m; m &= m - 1) {
        int i = __builtin_ctz(m), v = c->val[PYR + i];
        uint32_t gone = v == 13                                           ? 1u << i
                        : before >= 0 && c->val[PYR + before] + v == 13 ? 1u << before | 1u << i
                                                                          : 0;
        before = i;
        if (!gone) continue;
        Pos d = *p;
        d.rest &= ~gone;
        d.top = next_at(c, d.rest, p->top);
        if (!won(c, &d)) set_add(&c->lost, with_context(table_key(c, &d), ctx));
    }
}

/* Decide queued starts, best first: while the budget allows, or all of them with `all`. Each
 * is put through the dead-end tests now if it was not when queued (F_DOMINANCE), and searched
 * above the current line (c->path below it stays as it is), and the starts its
 * search reaches (a middle pass's reach the last pass) are queued: only this loop decides
 * them, never one inside another. WON with the whole winning line in c->path: the start's
 * line, then what its search found; else LOST, with c->path as it was. */
static int serve(Ctx *c, int all) {
    Starts *s = &c->starts;
    if (s->serving) return LOST;
    int depth = c->depth, floor = s->floor, root_depth = s->root_depth;
    int32_t root_trail = s->root_trail;
    Start item;
    s->serving = 1;
    while (!c->aborted && (all || starts_budget(c)) && starts_pop(c, &item)) {
        s->floor = s->frames;
        s->root_trail = item.trail;
        s->root_depth = depth;
        long long before = c->nodes;
        long long seen = c->cone.gate.seen++; /* F_CONE while it pays (_pays.h): */
        c->cone.sample = !item.tested && cone_sampled(seen); /* searched without it */
        c->cone.probe = cone_probed(seen);                   /* tested with it regardless */
        /* From its own pass, so not queued again; check -2: its dead-end tests are owed, -1 not. */
        int r = dfs(c, item.p, item.tested ? -1 : -2, item.relaxed, item.ctx, item.p.pass);
        s->spent += c->nodes - before;
        if (c->cone.sample) {
            c->cone.gate.samples++;
            c->cone.gate.sample_nodes += c->nodes - before;
        }
        c->cone.sample = c->cone.probe = 0;
        if (r == LOST) dominated_lost(c, &item.p, item.ctx);
        if (r == WON) {
            int found = c->depth - depth, length = starts_length(c, item.trail);
            memmove(c->path + length, c->path + depth, (size_t)found * sizeof(Step));
            starts_line(c, item.trail, length);
            c->depth = length + found;
            return WON;
        }
        c->depth = depth;
    }
    s->serving = 0;
    s->floor = floor;
    s->root_trail = root_trail;
    s->root_depth = root_depth;
    return LOST;
}

/* Search p, reached by a move from a position in pass `from` (the root: its own pass). */
static int dfs(Ctx *c, Pos p, int check, uint64_t relaxed, int ctx, int from) {
    int base = c->depth;
    Step moves[PYR * 4 + 8];
    int n;
    if (++c->nodes > c->limit && c->limit > 0) {
        c->aborted = 1;
        return LOST;
    }
    for (;;) {
        if (c->depth + 8 >= MAXPATH) { /* cannot happen: a game has fewer than 200 moves */
            c->aborted = 1;
            return LOST;
        }
        /* A node reached by a draw (CTX_DRAWN) comes from a position with no safe move left. */
        if ((ctx != CTX_DRAWN || draw_may_force(c, &p)) && play_forced(c, &p, 1)) {
            check = 1;
            ctx = CTX_FULL;
        }
        if (won(c, &p)) return WON;
        if (is_last_pass(c, &p) && check >= 0) check = 1;
        n = ctx == CTX_DRAWN && (c->flags & F_KINGS)
                ? drawn_moves(c, &p, moves)
                : gen_moves(c, &p, moves, (c->flags & F_KINGS) ? 0 : 2,
                            context_pyramid(p.pyr, ctx), ctx == CTX_DRAWN);
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
        return LOST;
    }
    /* F_STARTS: a start is a line's first node in a later pass; the earlier passes' nodes keep
     * the frames that the lines to queued starts are made from. */
    int queueing = (c->flags & F_STARTS) && c->passes >= 2, last = is_last_pass(c, &p);
    int start = queueing && p.pass > from && c->starts.frames > 0;
    uint64_t key = table_key(c, &p), entry = with_context(key, ctx);
    size_t at, cap = c->lost.cap; /* where its entry would go */
    uint32_t entries = entries_of(&c->lost, key, &at);
    if (has(entries, entry) || (ctx && known_lost(entries, key, ctx))) {
        c->depth = base;
        return LOST;
    }
    for (int q = p.pass - 1; q >= 0; q--) { /* PASSES */
        uint64_t k = (key & ~KEY_PASS) | ((uint64_t)q << 58);
        if (has(entries, with_context(k, ctx)) || (ctx && known_lost(entries, k, ctx))
            || known_open(entries, k, ctx)) {
            c->depth = base;
            return LOST;
        }
    }
    if (queueing && (!last || start) && check >= 0 && known_open(entries, key, ctx)) {
        c->depth = base;
        return OPEN;
    }
    int queue = start && !(starts_first(c, &p) && starts_budget(c));
    int defer = queue && check > 0 && dominance(c); /* tested when decided */
    unsigned ask = asked_at(c, p.pass > from || check == -2);
    int lost = ((check > 0 && !defer) || check == -2) && pruned(c, &p, &relaxed, ask);
    if (lost) {
        c->depth = base;
        return LOST;
    }
    long long first_node = c->nodes;
    if (queue && queue_start(c, &p, ctx, relaxed, base, !defer)) {
        set_add_at(&c->lost, entry | KEY_OPEN, at, cap);
        if (serve(c, 0) == WON) return WON; /* c->path holds its line */
        c->depth = base;
        return c->aborted ? LOST : OPEN;
    }
    if (!c->passes) set_add(&c->lost, entry); /* entered */
    int frame = -1;
    if (queueing && !last && c->starts.frames < MAXPATH) {
        frame = c->starts.frames++;
        c->starts.frame_base[frame] = base;
        c->starts.frame_end[frame] = c->depth;
        c->starts.frame_trail[frame] = -1;
    }
    int result = LOST;
    for (int i = 0; i < n; i++) {
        Pos q = p;
        Step m = moves[i];
        apply(c, &q, m);
        push(c, m.op, m.a, m.b);
        int next = (c->flags & F_COMMUTE) ? context_after(m.op, p.pyr, q.pyr) : CTX_FULL;
        int r = dfs(c, q, m.op < OP_DRAW, relaxed, next, p.pass);
        if (r == WON) return WON;
        if (c->aborted) return LOST;
        if (r == OPEN) result = OPEN;
        c->depth--;
    }
    if (frame >= 0) c->starts.frames--;
    if (start && !c->starts.serving) c->starts.spent += c->nodes - first_node + 1; /* in place */
    if (result == OPEN) set_add_at(&c->lost, entry | KEY_OPEN, at, cap); /* starts queued */
    else if (c->passes) set_add_at(&c->lost, entry, at, cap); /* a verdict */
    if (p.pass > from && result == LOST) dominated_lost(c, &p, ctx); /* a start, in place */
    c->depth = base;
    return result;
}

int decide(Ctx *c, Pos p) {
    c->starts.frames = c->starts.floor = c->starts.root_depth = c->starts.serving = 0;
    c->starts.root_trail = -1;
    int r = dfs(c, p, 1, 0, 0, p.pass);
    if (r == OPEN && !c->aborted) r = serve(c, 1); /* the starts still queued, best first */
    return r == WON;
}
