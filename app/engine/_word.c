/*
 * The word game (F_WORD): in the whole-deck game, a test of whether the talon can still be
 * cleared at all, pass limit aside. Sound for the decision search and the par search alike:
 * it only ever says "lost" of a position from which no line wins.
 *
 * Take any winning line. Let D be the talon cards it removes together with pyramid cards, and
 * R the other talon cards that are not Kings. Its pyramid moves, in their order, are a
 * winning line of the relaxed game (see _prune.c) that uses exactly the cards of D. Each card
 * of R goes with another card of R, as the waste's top and the stock's top: two cards with
 * nothing left between them in the talon's fixed order (waste bottom to top, then stock top to
 * bottom), a King or a card of D that was between them having gone before. So R, written as a
 * word in talon order, reduces to nothing by cancelling adjacent cards that make 13; that is
 * the word problem of a free group (a value v and 13 - v are inverses), whose reduction is
 * confluent: a stack decides it, cancelling whenever the next card makes 13 with the top. A
 * position for which no D does both is lost. This holds in every pass and with unlimited
 * passes (a line within a pass limit is a line without one); with unlimited passes it is
 * exact, as there every talon card can be brought to the stock's top at any time.
 *
 * Which D: a pyramid card that goes with a talon card of value w takes one of value w, so per
 * pair of values {v, 13 - v}, with p[v] and p[13 - v] pyramid cards and k pairs made inside the
 * pyramid, D holds p[13 - v] - k talon cards of value v and p[v] - k of value 13 - v. The
 * relaxed game with exactly D's counts as its talon is won if and only if some line uses
 * exactly D: a line that uses fewer pairs more inside the pyramid, and each such pair can be
 * split into two pairs with talon cards (both its cards are free then; D has the cards).
 *
 * The search walks the word once: each card is either put into D (only while some pyramid card
 * could take it) or kept (cancelled with the stack's top when they make 13, else pushed); at
 * the end, with an empty stack and D of the right shape, it asks the relaxed game (whose
 * verdicts are kept for the whole solve). The stack's cards leave top first, each with a card
 * still to come, so the partners they need must come in that order: a state where they do not
 * is dropped at once (without this, a deal could spend seconds in states that all end stuck:
 * deal 54092, whole deck). States that failed (place in the word, the stack as a set of
 * places, D so far) are kept for the call in a table reused from call to call (a stamp tells
 * this call's entries); a call that visits more than WORD_BUDGET states says "not lost", which
 * is always sound. Verdicts are kept per pyramid and talon for the solve.
 *
 * In the last pass the stacked game already prunes most of what this would, and asking both
 * cost more than it saved, so it is asked only before the last; and there only while it pays
 * (WORD_PAYS in _pays.h). The apex test (_apex.c) runs the same search on the talon left when
 * the apex goes.
 */
#include "_core.h"

#define WORD_SEEN (1u << 14) /* slots of the failed-state table */
#define WORD_BUDGET 20000    /* states a call may visit */
#define STATE_BITS 47        /* place 5, stack 24, D's count of each value 1..6: 3 each */

typedef struct {
    Ctx *c;
    uint32_t pyr;
    int m;                          /* the word: talon cards other than Kings, in talon order */
    int waste;                      /* w[0..waste): waste cards of the last pass, which never
                                       go with each other */
    int takes;                      /* only w[0..takes) may go into D */
    const uint8_t *w;
    uint32_t at[14];                /* the places holding each value, a bit each */
    int p[14];                      /* the pyramid's cards of each value */
    int d[14];                      /* D so far, per value */
    long budget;
} Word;

/* Has `state` failed in this call? (A slot of another call's stamp is empty for this one.) */
static int seen(const Ctx *c, uint64_t state) {
    uint64_t k = state | (c->word_stamp << STATE_BITS);
    size_t mask = WORD_SEEN - 1, j = mix(state) & mask;
    for (int probe = 0; probe < 8; probe++, j = (j + 1) & mask) {
        uint64_t e = c->word_seen[j];
        if (e == k) return 1;
        if (e >> STATE_BITS != c->word_stamp) return 0;
    }
    return 0;
}

static void failed(Ctx *c, uint64_t state) {
    uint64_t k = state | (c->word_stamp << STATE_BITS);
    size_t mask = WORD_SEEN - 1, j = mix(state) & mask;
    for (int probe = 0; probe < 8; probe++, j = (j + 1) & mask) {
        if (c->word_seen[j] >> STATE_BITS != c->word_stamp) break;
    }
    c->word_seen[j] = k; /* a full run: the last slot of it is overwritten (it only saves work) */
}

/* Can the word from place i on, with this stack (a set of places), end with an empty stack
 * and a D the relaxed game wins with? */
static int reduces(Word *x, int i, uint32_t stack) {
    if (i == x->m) {
        if (stack) return 0;
        uint64_t counts = 0;
        for (int v = 1; v <= 6; v++)
            if (x->d[v] - x->d[13 - v] != x->p[13 - v] - x->p[v]) return 0;
        for (int v = 1; v <= 12; v++) counts += (uint64_t)x->d[v] * count_unit(v);
        return relaxed_wins(x->c, x->pyr, counts);
    }
    int at = i; /* the stack's cards go top first, each with a later card: those, in order */
    for (uint32_t left = stack; left; left &= ~(1u << (31 - __builtin_clz(left)))) {
        uint32_t later = x->at[13 - x->w[31 - __builtin_clz(left)]] & (~0u << at);
        if (!later) return 0;
        at = __builtin_ctz(later) + 1;
    }
    if (--x->budget < 0) return 1;
    uint64_t state = (uint64_t)i | (uint64_t)stack << 5;
    for (int v = 1; v <= 6; v++) state |= (uint64_t)x->d[v] << (29 + 3 * (v - 1));
    if (seen(x->c, state)) return 0;
    int v = x->w[i], top = stack ? 31 - __builtin_clz(stack) : -1;
    if (i < x->takes && x->d[v] < x->p[13 - v]) { /* into D */
        x->d[v]++;
        int r = reduces(x, i + 1, stack);
        x->d[v]--;
        if (r) return 1;
    }
    if (top >= 0 && x->w[top] + v == 13 && i >= x->waste) { /* kept, cancelling the top */
        if (reduces(x, i + 1, stack & ~(1u << top))) return 1;
    } else if (reduces(x, i + 1, stack | 1u << i)) { /* kept, pushed */
        return 1;
    }
    failed(x->c, state);
    return 0;
}

int word_reduces(Ctx *c, uint32_t pyr, const uint8_t *w, int m, int waste, int takes) {
    if (!c->word_seen) {
        c->word_seen = calloc(WORD_SEEN, sizeof(uint64_t));
        if (!c->word_seen) return 1;
    }
    if (++c->word_stamp >> (64 - STATE_BITS)) { /* the stamps ran out: start the table again */
        memset(c->word_seen, 0, WORD_SEEN * sizeof(uint64_t));
        c->word_stamp = 1;
    }
    Word x = {.c = c, .pyr = pyr, .m = m, .waste = waste, .takes = takes, .w = w,
              .budget = WORD_BUDGET};
    for (uint32_t b = pyr; b; b &= b - 1) x.p[c->val[__builtin_ctz(b)]]++;
    for (int i = 0; i < m; i++) x.at[w[i]] |= 1u << i;
    return reduces(&x, 0, 0);
}

int word_lost(Ctx *c, const Pos *p) {
    if (!(c->flags & F_WORD) || !c->wholedeck || !p->pyr || is_last_pass(c, p)) return 0;
    if (!gate_open(&c->word_gate, WORD_PAYS)) return 0; /* not paying (_pays.h) */
    uint64_t key = (uint64_t)p->pyr | (uint64_t)p->rest << PYR; /* never 0: pyr is not */
    size_t at = 0, cap;
    uint64_t known = memo_find(&c->word, key, &at, &cap); /* 1 won, 2 lost, 0 unknown */
    if (known) {
        gate_answer(&c->word_gate, known == 2);
        return known == 2;
    }
    uint8_t w[MAXTALON];
    int m = 0;
    for (uint32_t b = p->rest; b; b &= b - 1) {
        int v = c->val[PYR + __builtin_ctz(b)];
        if (v != 13) w[m++] = (uint8_t)v;
    }
    int lost = !word_reduces(c, p->pyr, w, m, 0, m);
    memo_put(&c->word, key, lost ? 2 : 1, at, cap);
    gate_answer(&c->word_gate, lost);
    return lost;
}
