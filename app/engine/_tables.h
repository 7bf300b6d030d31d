/*
 * The hash tables every search keeps (implemented in _tables.c): sets and maps of 64-bit keys
 * (Set) and tables of verdicts (Memo), open addressing with linear probing, a key of 0 marking
 * an empty slot. The lookups are inline: they run at every node.
 */
#ifndef PYRAMID_TABLES_H
#define PYRAMID_TABLES_H

#include <stdint.h>
#include <stdlib.h>

typedef struct {
    uint64_t *slots;
    uint8_t *vals; /* a byte per key, for the maps (NULL for sets) */
    size_t cap, used;
    uint64_t ignored; /* key bits the hash leaves out (see set_slot) */
} Set;

static inline uint64_t mix(uint64_t k) {
    k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

int set_init(Set *s, int with_values, uint64_t ignored);
void set_free(Set *s);
int set_grow(Set *s);

/* The slot of key k, or of the empty slot where it would go. Keys that differ only in the
 * bits s->ignored leaves out start their probes at the same slot: for the tables of
 * positions, the pass and how a node was searched (_search.c), so that one cache miss finds
 * all the entries a node looks for. */
static inline size_t set_home(const Set *s, uint64_t k) {
    return mix(k & ~s->ignored) & (s->cap - 1);
}

static inline size_t set_slot(const Set *s, uint64_t k) {
    size_t j = set_home(s, k);
    while (s->slots[j] && s->slots[j] != k) j = (j + 1) & (s->cap - 1);
    return j;
}

/* Would one more entry fill a table of cap slots past three quarters? Sets and tables of
 * verdicts are kept below that: a probe run stays in few cache lines, and a smaller table is
 * less to clear (docs/solver-log.md, round 6). */
static inline int table_full(size_t used, size_t cap) { return (used + 1) * 4 > cap * 3; }

static inline int set_full(const Set *s) { return table_full(s->used, s->cap); }

/* Add k (with value v for a map); an existing key gets the new value. Out of memory: forget. */

static inline void set_put(Set *s, uint64_t k, uint8_t v) {
    if (set_full(s) && !set_grow(s)) return;
    size_t j = set_slot(s, k);
    if (!s->slots[j]) {
        s->slots[j] = k;
        s->used++;
    }
    if (s->vals) s->vals[j] = v;
}

static inline void set_add(Set *s, uint64_t k) { set_put(s, k, 0); }

/* Add k to a set where set_slot(k) gave `at` at capacity `cap`: no second probe while the set
 * has not grown since and the slot is still empty (keys are never removed, so the probe run up
 * to it is unchanged). */
static inline void set_add_at(Set *s, uint64_t k, size_t at, size_t cap) {
    if (s->cap != cap || s->slots[at] || set_full(s)) {
        set_add(s, k);
        return;
    }
    s->slots[at] = k;
    s->used++;
}

/* A table of two words a slot, hashed by the first word alone (never 0 in a used slot): the
 * verdicts of the relaxed and the stacked games, where a verdict sits beside its key, so that
 * one cache line answers. A lookup leaves where its key would go (`at`, with the capacity it
 * was found at): a store there needs no second probe while the table has not grown and the
 * slot is still empty (entries are never removed, so the probe run up to it is unchanged). */
typedef struct {
    uint64_t *w;
    size_t cap, used;
} Memo;

int memo_grow(Memo *m);
void memo_put(Memo *m, uint64_t k1, uint64_t k2, size_t at, size_t cap);

/* The word kept beside key k1 (0: none), and where k1 would go (`at`, with the capacity `cap`
 * it was found at, for memo_put). For tables whose keys are exact; see stacked_find for one
 * whose verdicts cover other keys too. */
static inline uint64_t memo_find(const Memo *m, uint64_t k1, size_t *at, size_t *cap) {
    *cap = m->cap;
    if (!m->cap) return 0;
    size_t j = mix(k1) & (m->cap - 1);
    for (; m->w[2 * j]; j = (j + 1) & (m->cap - 1))
        if (m->w[2 * j] == k1) return m->w[2 * j + 1];
    *at = j;
    return 0;
}

#endif
