/*
 * The tables every search keeps (_tables.h): making, growing and freeing them. Growing one
 * allocates a larger table and rehashes into it.
 */
#include "_tables.h"

int set_init(Set *s, int with_values, uint64_t ignored) {
    s->cap = 1u << 12;
    s->used = 0;
    s->ignored = ignored;
    s->slots = calloc(s->cap, sizeof(uint64_t));
    s->vals = with_values ? calloc(s->cap, 1) : NULL;
    if (!s->slots || (with_values && !s->vals)) {
        set_free(s);
        return 0;
    }
    return 1;
}

void set_free(Set *s) {
    free(s->slots);
    free(s->vals);
    s->slots = NULL;
    s->vals = NULL;
    s->cap = s->used = 0;
}

int set_grow(Set *s) {
    size_t ncap = s->cap * 2;
    uint64_t *nt = calloc(ncap, sizeof(uint64_t));
    uint8_t *nv = s->vals ? calloc(ncap, 1) : NULL;
    if (!nt || (s->vals && !nv)) {
        free(nt);
        free(nv);
        return 0;
    }
    for (size_t i = 0; i < s->cap; i++) {
        uint64_t k = s->slots[i];
        if (!k) continue;
        size_t j = mix(k & ~s->ignored) & (ncap - 1);
        while (nt[j]) j = (j + 1) & (ncap - 1);
        nt[j] = k;
        if (nv) nv[j] = s->vals[i];
    }
    free(s->slots);
    free(s->vals);
    s->slots = nt;
    s->vals = nv;
    s->cap = ncap;
    return 1;
}

/* Grow a Memo fourfold while small, not twofold: rehashing its entries costs a cache miss
 * each, and a small table grows often. From 65,536 slots on, twofold: a table a quarter full
 * spreads its cache misses over twice the memory, and is twice the pages to clear
 * (docs/solver-log.md, rounds 2 and 7). */
int memo_grow(Memo *m) {
    size_t ncap = m->cap ? m->cap * (m->cap < (1u << 16) ? 4 : 2) : 1u << 12;
    uint64_t *nw = calloc(ncap * 2, sizeof(uint64_t));
    if (!nw) return 0;
    for (size_t i = 0; i < m->cap; i++) {
        uint64_t a = m->w[2 * i];
        if (!a) continue;
        size_t j = mix(a) & (ncap - 1);
        while (nw[2 * j]) j = (j + 1) & (ncap - 1);
        nw[2 * j] = a;
        nw[2 * j + 1] = m->w[2 * i + 1];
    }
    free(m->w);
    m->w = nw;
    m->cap = ncap;
    return 1;
}

/* Store (k1, k2) at `at`, where a lookup of it ended in a table of capacity `cap`; probes
 * again only when the table has grown since or the slot was taken. Out of memory: forget. */
void memo_put(Memo *m, uint64_t k1, uint64_t k2, size_t at, size_t cap) {
    if (table_full(m->used, m->cap) && !memo_grow(m)) return;
    if (m->cap != cap || m->w[2 * at]) {
        at = mix(k1) & (m->cap - 1);
        while (m->w[2 * at]) at = (at + 1) & (m->cap - 1);
    }
    m->w[2 * at] = k1;
    m->w[2 * at + 1] = k2;
    m->used++;
}
