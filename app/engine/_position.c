/*
 * A position read into a search's context, and one solve run on it: what every binding of the
 * core shares (_solver.c, the Python module; _wasm.c, the WebAssembly module), so that neither
 * holds a line of the search's logic. Portable C: no Python, no I/O.
 */
#include "_core.h"

/* Which pairs of locations could ever be removed together: values making 13, and for two
 * pyramid cards, neither covering the other (directly or not), except that with overlap pairs
 * a card and a card directly covering it can go together. */
static void setup_tables(Ctx *c) {
    for (int r = 0; r <= 6; r++) {
        for (int col = 0; col <= r; col++) {
            int i = r * (r + 1) / 2 + col;
            c->cover[i][0] = r < 6 ? (uint8_t)(i + r + 1) : NONE;
            c->cover[i][1] = r < 6 ? (uint8_t)(i + r + 2) : NONE;
        }
    }
    int total = PYR + c->n;
    for (int x = 0; x < total; x++) {
        int v = c->val[x];
        if (!v) continue;
        c->of_value[v] |= 1ULL << x;
        if (x < PYR && v == 13) c->pyramid_kings |= 1u << x;
    }
    for (int x = 0; x < total; x++) {
        uint64_t m = 0;
        for (int y = 0; y < total; y++) {
            if (y == x || !c->val[x] || !c->val[y] || c->val[x] + c->val[y] != 13) continue;
            if (x < PYR && y < PYR && (((CONE[x] >> y) & 1) || ((CONE[y] >> x) & 1))) {
                int direct = c->cover[x][0] == y || c->cover[x][1] == y
                             || c->cover[y][0] == x || c->cover[y][1] == x;
                if (!(c->overlap && direct)) continue;
            }
            m |= 1ULL << y;
        }
        c->compat[x] = m;
    }
    for (int t = 0; t < c->n; t++) /* for class_key */
        c->same_value[t] = (uint32_t)(c->of_value[c->val[PYR + t]] >> PYR);
}

void ctx_free(Ctx *c) {
    set_free(&c->lost);
    starts_free(&c->starts);
    free(c->relaxed.w);
    set_free(&c->bound);
    free(c->stacked.w);
    free(c->word.w);
    free(c->word_seen);
    free(c->apex.w);
    free(c->shapes);
    free(c);
}

/* A position (see _core.h: the pyramid's 28 values, 0 where a card is gone; the talon's n
 * values; the stock's top; the pass; the rules) read into a fresh context; NULL with *error set
 * (LOAD_MALFORMED, LOAD_NO_MEMORY) when the arguments are malformed or memory runs out. */
Ctx *ctx_load(const uint8_t *pv, int pyr_len, const uint8_t *tv, int n, int top, int pass,
              int passes, int wholedeck, int overlap, int flags, long long limit, Pos *out,
              int *error) {
    /* passes: 1..MAX_PASSES, or 0 for unlimited (then pass_index must be 0). */
    int bad = pyr_len != PYR || n < 0 || n > MAXTALON || top < 0 || top > n || passes < 0
              || passes > MAX_PASSES || pass < 0 || (passes ? pass >= passes : pass != 0);
    for (int i = 0; !bad && i < PYR; i++) bad = pv[i] > 13;
    for (int t = 0; !bad && t < n; t++) bad = tv[t] < 1 || tv[t] > 13;
    if (bad) {
        *error = LOAD_MALFORMED;
        return NULL;
    }
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) {
        *error = LOAD_NO_MEMORY;
        return NULL;
    }
    Pos p = {0, 0, 0, pass, 0};
    c->n = n;
    c->passes = passes;
    c->wholedeck = wholedeck;
    c->overlap = overlap;
    c->flags = flags;
    c->limit = limit;
    for (int i = 0; i < PYR; i++) {
        c->val[i] = pv[i];
        if (pv[i]) p.pyr |= 1u << i;
    }
    for (int t = 0; t < n; t++) {
        c->val[PYR + t] = tv[t];
        p.rest |= 1u << t;
        if (tv[t] <= 12) p.counts += count_unit(tv[t]);
    }
    p.top = next_at(c, p.rest, top);
    setup_tables(c);
    *out = p;
    *error = 0;
    return c;
}

/* One solve of the position: 1 won (c->path, c->depth: a winning line, the shortest with
 * `shortest`), 0 lost, -1 stopped at the node limit, -2 out of memory. */
int ctx_solve(Ctx *c, Pos p, int shortest) {
    uint64_t ignored = KEY_PASS | KEY_CONTEXT;
    if (!set_init(&c->lost, 0, ignored) || !set_init(&c->bound, 1, ignored)) return -2;
    int result = decide(c, p);
    if (result == 1 && shortest && !c->aborted) {
        set_free(&c->lost); /* the decision search's table is not needed any more */
        result = par_search(c, p) >= 0; /* -1 only when the node limit stopped it */
    }
    return c->aborted ? -1 : result;
}
