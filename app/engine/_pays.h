/*
 * Dead-end tests asked only while they pay: the policy, and every number of it, in one place.
 *
 * A dead-end test only ever says "lost" of a position from which no line wins (each test's
 * file argues it), so not asking it is always sound: the search then searches the position
 * itself, and finds it lost the long way, or won. Skipping a test can cost nodes, never change
 * an answer. Some tests are asked at many positions and prove few of them lost, and there they
 * cost more than they save; so a search measures what a test's asks bring, stops asking it
 * while they bring too little, and still asks it now and then to keep the measure current.
 * Nothing but the nodes searched depends on the numbers below (docs/solver.md, "Asked while
 * it pays"; their measurements in docs/solver-log.md).
 *
 * A Gate, for a test whose ask costs about what it saves when it proves a position lost: at
 * the test's first `warmup` chances it is asked; after that while at least one ask in `share`
 * proved a position lost; otherwise at every `every`-th chance only. The share is counted over
 * the asks answered (gate_answer), not over the chances: counted over the chances it would
 * fall once the test is skipped, and a test that pays would then be skipped too.
 *
 * The cone test at the starts (ConeGate) saves a whole start's search when it proves the start
 * lost, so what it brings is its share of kills times the nodes a start's search takes: every
 * CONE_PERIOD-th start decided from the queue is searched without the test, to measure those
 * nodes, and another is tested whatever the measure says, to keep its share measured; the
 * test is asked while the product is above CONE_SAVING nodes, about what a test costs.
 */
#ifndef PYRAMID_PAYS_H
#define PYRAMID_PAYS_H

typedef struct { long long seen, asked, kills; } Gate; /* chances, asks, asks that proved lost */

typedef struct { int warmup, share, every; } GatePolicy;

/* The word game before the last pass (_word.c): an ask costs about what a node does, and a
 * kill saves a few nodes. */
#define WORD_PAYS ((GatePolicy){4096, 16, 64})
/* The apex test inside a start's search (_apex.c; at the starts and in the par search it is
 * always asked): there the stacked game, asked first, closes most of what it would, and a
 * kill saves a small subtree. One in 16 was kept of one in 8, 16 and 32. */
#define APEX_PAYS ((GatePolicy){1024, 16, 16})
/* The whole-deck apex test's word at the last pass's starts, with three passes (_apex.c): the
 * word costs several times the test without it, so it must prove more starts lost. */
#define APEX_WORD_PAYS ((GatePolicy){4096, 64, 64})

/* Is the test asked at this chance? */
static inline int gate_open(Gate *g, GatePolicy policy) {
    return ++g->seen <= policy.warmup || g->kills * policy.share >= g->asked
           || g->seen % policy.every == 0;
}

/* The test was asked, and proved the position lost or not. */
static inline void gate_answer(Gate *g, int lost) {
    g->asked++;
    g->kills += lost;
}

#define CONE_PERIOD 16        /* one start in this many is searched without the cone test */
#define CONE_SAMPLED 15       /* (the one at this place of each period) */
#define CONE_PROBED 7         /* and one tested whatever the measure says */
#define CONE_WARMUP_ASKS 256  /* asked always until this many tests */
#define CONE_WARMUP_SAMPLES 16 /* and this many starts searched without it */
#define CONE_SAVING 4.0       /* nodes a test must save on average */

typedef struct {
    long long seen;                  /* starts decided from the queue so far */
    long long asked, kills;          /* tests asked, and starts they proved lost */
    long long samples, sample_nodes; /* starts searched without the test, and their nodes */
} ConeGate;

/* Is the n-th start decided from the queue (counted from 0) searched without the test? */
static inline int cone_sampled(long long n) { return n % CONE_PERIOD == CONE_SAMPLED; }

/* Is it tested whatever the measure says? */
static inline int cone_probed(long long n) { return n % CONE_PERIOD == CONE_PROBED; }

/* Do the test's kills times a start's nodes make more than CONE_SAVING a test? */
static inline int cone_pays(const ConeGate *g) {
    if (g->asked < CONE_WARMUP_ASKS || g->samples < CONE_WARMUP_SAMPLES) return 1;
    return (double)g->kills / (double)g->asked * (double)g->sample_nodes / (double)g->samples
           > CONE_SAVING;
}

#endif
