/*
 * The starts of the later passes, fewest cards first (F_STARTS): the order in which the
 * decision search (_search.c) decides them.
 *
 * With two or three passes, every line of play that recycles reaches the next pass at a
 * "start": its first position there (after the recycle, and whatever is stepped through or
 * forced after it). A depth-first search decides each start as it reaches it, so a won deal
 * whose few winning starts lie late in depth-first order is decided only after every earlier
 * start has been proven lost: the slowest won deals spent nearly all their nodes so. So the
 * search queues the starts it reaches, and decides them fewest cards first (a start with few
 * cards left is the likelier win and the cheaper to decide), keeping the nodes spent deciding
 * starts within half of those spent finding them (starts_budget in _search.c); when the search
 * from the root is through, the rest of the queue is decided in order. Deciding a middle
 * pass's start (three passes) queues the last pass's starts its search reaches. A start that
 * is the best there is when it is found, while the budget allows, is decided at once, in
 * place: an easy deal is decided as before.
 *
 * This file keeps the queue: a binary heap of starts by (cards left, order found), and the
 * lines that reach them, so that a start decided won hands back a whole winning line. A line is
 * kept as trails: each the steps one node of the earlier passes added to its parent's line
 * (the move into it, and what it stepped through or played as forced), with a link to the
 * parent's trail; the trails of the nodes on the current line are made only when a start
 * below them is queued, so a search that queues nothing makes none.
 */
#include "_core.h"

/* Make room for `need` items of `size` bytes in *buf; 0 when memory runs out. */
static int reserve(void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 1;
    size_t ncap = *cap ? *cap * 2 : 1024;
    while (ncap < need) ncap *= 2;
    void *nb = realloc(*buf, ncap * size);
    if (!nb) return 0;
    *buf = nb;
    *cap = ncap;
    return 1;
}

/* A new trail: the steps c->path[from .. to) after trail `parent` (-1: none). Returns its
 * index, or -1 when memory runs out. */
int starts_trail(Ctx *c, int parent, int from, int to) {
    Starts *s = &c->starts;
    if (!reserve((void **)&s->trails, &s->trails_cap, s->ntrails + 1, sizeof(Trail))
        || !reserve((void **)&s->steps, &s->steps_cap, s->nsteps + (size_t)(to - from),
                    sizeof(Step)))
        return -1;
    memcpy(s->steps + s->nsteps, c->path + from, (size_t)(to - from) * sizeof(Step));
    s->trails[s->ntrails] = (Trail){parent, (int32_t)s->nsteps, to - from};
    s->nsteps += (size_t)(to - from);
    return (int)s->ntrails++;
}

/* The length of the line of `trail`. */
int starts_length(const Ctx *c, int trail) {
    int length = 0;
    for (int t = trail; t >= 0; t = c->starts.trails[t].parent) length += c->starts.trails[t].n;
    return length;
}

/* Write the line of `trail`, `length` steps (starts_length), into c->path[0 .. length). */
void starts_line(Ctx *c, int trail, int length) {
    const Starts *s = &c->starts;
    int end = length;
    for (int t = trail; t >= 0; t = s->trails[t].parent) {
        end -= s->trails[t].n;
        memcpy(c->path + end, s->steps + s->trails[t].first, (size_t)s->trails[t].n * sizeof(Step));
    }
}

/* Starts are ordered by their cards left in groups of this many, then in the order found:
 * within a group the depth-first order is kept, whose neighbours share much of their searches'
 * tables. A lost deal decides all its starts in any order, and loses only that sharing to the
 * grouping, less with wider groups; a won deal gains as long as the groups set its winning
 * starts (on the slowest won deals, a dozen to two dozen cards left) apart from most lost ones
 * (thirty and more): 16 does both (docs/solver-log.md, round 6). With two passes, within a
 * group the starts with more cards go first: a start is then mostly decided before the starts
 * it dominates (F_DOMINANCE in _search.c), which the depth-first order finds first, as it
 * pairs before it draws. (With three passes that cost the slowest won deals far more nodes:
 * their middle pass's starts are kept in the order found.) */
#define CARDS_GROUP 16

static inline uint64_t start_order(const Ctx *c, const Pos *p) {
    int cards = __builtin_popcount(p->pyr) + __builtin_popcount(p->rest);
    uint64_t more = c->passes == 2 ? (uint64_t)(CARDS_GROUP - 1 - cards % CARDS_GROUP) : 0;
    return (uint64_t)(cards / CARDS_GROUP) << 40 | more << 32 | c->starts.found;
}

/* Is p no worse than the best queued start (its group of cards left no larger)? */
int starts_first(const Ctx *c, const Pos *p) {
    return !c->starts.n || start_order(c, p) >> 40 <= c->starts.heap[0].order >> 40;
}

/* Queue the start p, reached in context ctx by the line of `trail`, `tested` by the dead-end
 * tests or not (F_DOMINANCE); 0 when memory runs out. */
int starts_push(Ctx *c, const Pos *p, int ctx, uint64_t relaxed, int trail, int tested) {
    Starts *s = &c->starts;
    if (!reserve((void **)&s->heap, &s->cap, s->n + 1, sizeof(Start))) return 0;
    Start item = {*p, start_order(c, p), relaxed, trail, ctx, tested};
    s->found++;
    size_t i = s->n++;
    while (i > 0 && s->heap[(i - 1) / 2].order > item.order) { /* sift up */
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = item;
    return 1;
}

/* Take the best queued start into *out; 0 when the queue is empty. */
int starts_pop(Ctx *c, Start *out) {
    Starts *s = &c->starts;
    if (!s->n) return 0;
    *out = s->heap[0];
    Start last = s->heap[--s->n];
    size_t i = 0;
    for (;;) { /* sift down */
        size_t child = 2 * i + 1;
        if (child >= s->n) break;
        if (child + 1 < s->n && s->heap[child + 1].order < s->heap[child].order) child++;
        if (s->heap[child].order >= last.order) break;
        s->heap[i] = s->heap[child];
        i = child;
    }
    if (s->n) s->heap[i] = last;
    return 1;
}

void starts_free(Starts *s) {
    free(s->heap);
    free(s->trails);
    free(s->steps);
    s->heap = NULL;
    s->trails = NULL;
    s->steps = NULL;
    s->n = s->cap = s->ntrails = s->trails_cap = s->nsteps = s->steps_cap = 0;
}
