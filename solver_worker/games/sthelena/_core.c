/*
 * St. Helena's compiled core: the same search as search.py beside it (read its
 * docstring for the compact state, the moves, rules 1-6 each with its
 * argument, the greedy pass's choices and the restarts), in C for speed.
 * search.py stays the reference: the tests hold this core to it node for
 * node (same count, same line) and, rule by rule, to the plain search.
 *
 * What is the core's own:
 *
 * - The walk is driver.py's _Walk with its own stack: a node is a state
 *   entered that is not in the failed set; dead states and exhausted ones go
 *   into it. A frame's children are made when it is entered (the reference
 *   makes them lazily, but it advances a new frame at once and nothing else
 *   changes between), and each child is checked against the path only when
 *   it is reached, as the reference's generator does.
 * - Keys are exact byte strings, never hashes alone (a collision could fake a
 *   loss): a tag byte, the wants, then either the redeals, the stock and the
 *   piles in place, or (symmetry, final stage) the piles in sorted order;
 *   each pile or stock carries its length, so the encoding is one to one.
 *   The failed set keeps them in an arena with a hash index; the on-path set
 *   is a hash over the frames themselves (entered and left last in, first
 *   out, so a frame is always the head of its bucket's chain when it leaves).
 * - Memory: the failed set grows up to table_mb; when it cannot grow (the
 *   cap, or malloc failing) the pass ends as "budget", never as a verdict.
 *   The stack of frames (some 2 KB each, a State copy apiece) is outside that
 *   cap: it grows with the path's depth, and a failed realloc also ends the
 *   pass as "budget".
 * - The restarts draw their random numbers from MT19937 seeded exactly as
 *   CPython's random.Random(int) is (init_by_array over the 32-bit words of
 *   abs(seed)), with random() and shuffle() built as CPython builds them, and
 *   called in the order ShuffledSearch calls them: the same seed gives the
 *   same restarts, node for node, as the reference.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core_common.h"

#define CARDS 104
#define FACES 52
#define PILES 12
#define FOUNDATIONS 8
#define MAX_KEY 160 /* at most 1 + 8 + 1 + 1 + 12 lengths + 104 cards = 127 */
#define MAX_CHILDREN 128 /* at most 24 home moves, 48 builds and a deal */
#define BUCKETS 4096 /* the on-path set's chains */
#define FIRST_SLOTS (1u << 14)
#define TIME_CHECK_EVERY 64 /* as driver.py */

/* Pruning flags: search.py's Pruning fields in order, one bit each. */
#define P_SYMMETRY 1
#define P_NO_EMPTYING_BUILD 2
#define P_FORCED_HOME 4
#define P_DEAD_TEST 8
#define P_REACH_TEST 16

enum { M_HOME, M_BUILD, M_DEAL, M_REDEAL };

typedef struct {
    uint8_t kind, from, to; /* home: pile, foundation; build: source, target pile */
} Move;

typedef struct {
    uint8_t nstock, redeals, home;
    uint8_t len[PILES];
    uint8_t wants[FOUNDATIONS]; /* rank each foundation wants, 0 once complete */
    uint8_t stock[CARDS];       /* faces, top last */
    uint8_t pile[PILES][CARDS]; /* faces, bottom first */
} State;

typedef struct {
    State s;
    Move via; /* the move from the parent frame */
    Move children[MAX_CHILDREN];
    int count, next;
    int chain; /* the next frame in this frame's on-path bucket, -1 none */
    int keylen;
    uint64_t hash;
    uint8_t key[MAX_KEY];
} Frame;

/* The failed set: keys in an arena (a length byte, then the bytes), indexed by
   open addressing; a slot is 0 when empty, else tag << 48 | (offset + 1). */
typedef struct {
    uint8_t *arena;
    size_t used, size;
    uint64_t *slots;
    size_t capacity, count, max_bytes;
} Table;

typedef struct {
    uint32_t mt[624];
    int index;
} Twister;

typedef struct {
    int exact, flags, shuffled;
    double deal_first;
    long long nodes, node_limit; /* node_limit < 0: none */
    double deadline;             /* 0: none */
    Table failed;
    Frame *frames;
    int depth, frame_capacity;
    int bucket[BUCKETS];
    Twister rng;
} Ctx;

/* FOUNDATION_SUIT of the engine: k1..k4, a1..a4. */
static const int FOUNDATION_SUIT[FOUNDATIONS] = {1, 2, 0, 3, 1, 2, 0, 3};
static const int KING_FOUNDATION_OF[4] = {2, 0, 1, 3};
static const int ACE_FOUNDATION_OF[4] = {6, 4, 5, 7};
static const char *FOUNDATION_NAME[FOUNDATIONS] = {"k1", "k2", "k3", "k4", "a1", "a2", "a3", "a4"};

static inline int suit_of(int face) { return face / 13; }
static inline int rank_of(int face) { return face % 13 + 1; }
static inline int top_of(const State *s, int p) { return s->pile[p][s->len[p] - 1]; }

/* ---- Python's random numbers: MT19937 as CPython's _random ---- */

static void twister_init(Twister *r, uint32_t seed) {
    r->mt[0] = seed;
    for (int i = 1; i < 624; i++)
        r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->index = 624;
}

/* random.Random(n) for an int n: init_by_array over the 32-bit words of abs(n). */
static void twister_seed(Twister *r, const uint32_t *key, size_t length) {
    twister_init(r, 19650218U);
    size_t i = 1, j = 0;
    for (size_t k = 624 > length ? 624 : length; k; k--) {
        r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525U)) + key[j] +
                   (uint32_t)j;
        i++;
        j++;
        if (i >= 624) { r->mt[0] = r->mt[623]; i = 1; }
        if (j >= length) j = 0;
    }
    for (size_t k = 623; k; k--) {
        r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941U)) -
                   (uint32_t)i;
        i++;
        if (i >= 624) { r->mt[0] = r->mt[623]; i = 1; }
    }
    r->mt[0] = 0x80000000U;
}

static uint32_t twister_next(Twister *r) {
    static const uint32_t MAG01[2] = {0, 0x9908b0dfU};
    uint32_t y;
    if (r->index >= 624) {
        int k;
        for (k = 0; k < 624 - 397; k++) {
            y = (r->mt[k] & 0x80000000U) | (r->mt[k + 1] & 0x7fffffffU);
            r->mt[k] = r->mt[k + 397] ^ (y >> 1) ^ MAG01[y & 1];
        }
        for (; k < 623; k++) {
            y = (r->mt[k] & 0x80000000U) | (r->mt[k + 1] & 0x7fffffffU);
            r->mt[k] = r->mt[k + 397 - 624] ^ (y >> 1) ^ MAG01[y & 1];
        }
        y = (r->mt[623] & 0x80000000U) | (r->mt[0] & 0x7fffffffU);
        r->mt[623] = r->mt[396] ^ (y >> 1) ^ MAG01[y & 1];
        r->index = 0;
    }
    y = r->mt[r->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    return y ^ (y >> 18);
}

/* random(): 53 bits from two draws. */
static double twister_random(Twister *r) {
    uint32_t a = twister_next(r) >> 5, b = twister_next(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* _randbelow(n), n >= 1: getrandbits(n.bit_length()) until below n. */
static int twister_below(Twister *r, int n) {
    int k = 0;
    while ((n >> k) != 0) k++;
    uint32_t drawn;
    do drawn = twister_next(r) >> (32 - k); while (drawn >= (uint32_t)n);
    return (int)drawn;
}

/* shuffle(): Fisher-Yates from the end. */
static void twister_shuffle(Twister *r, Move *moves, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = twister_below(r, i + 1);
        Move t = moves[i]; moves[i] = moves[j]; moves[j] = t;
    }
}

/* ---- exact keys ---- */

static uint64_t hash_key(const uint8_t *key, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n, word;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&word, key + i, 8);
        h = (h ^ word) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 29;
    }
    word = 0;
    memcpy(&word, key + i, (size_t)(n - i));
    return mix(h ^ word);
}

/* Python's bytes order. A loop, not memcmp: piles mostly differ at their first card. */
static inline int pile_less(const State *s, int a, int b) {
    const uint8_t *x = s->pile[a], *y = s->pile[b];
    int n = s->len[a] < s->len[b] ? s->len[a] : s->len[b];
    for (int i = 0; i < n; i++)
        if (x[i] != y[i]) return x[i] < y[i];
    return s->len[a] < s->len[b];
}

/* A pile's first seven cards (each + 1; 0 past its end), as a number in bytes order. */
static inline uint64_t pile_head(const State *s, int p) {
    uint64_t head = 0;
    for (int i = 0; i < 7; i++) head = head << 8 | (i < s->len[p] ? s->pile[p][i] + 1u : 0u);
    return head;
}

/* search.py's key, as bytes: equal exactly when the reference's keys are equal. */
static int make_key(const Ctx *c, const State *s, uint8_t *out) {
    int n = 0, order[PILES];
    int symmetric = (c->flags & P_SYMMETRY) && !s->nstock && !s->redeals;
    out[n++] = (uint8_t)symmetric;
    memcpy(out + n, s->wants, FOUNDATIONS);
    n += FOUNDATIONS;
    for (int p = 0; p < PILES; p++) order[p] = p;
    if (symmetric) { /* rule 2: the piles as a multiset, sorted by their first cards */
        uint64_t head[PILES];
        for (int p = 0; p < PILES; p++) head[p] = pile_head(s, p);
        for (int i = 1; i < PILES; i++)
            for (int j = i; j > 0; j--) {
                int a = order[j], b = order[j - 1];
                if (head[a] > head[b] || (head[a] == head[b] && !pile_less(s, a, b))) break;
                order[j] = b; order[j - 1] = a;
            }
    } else {
        out[n++] = s->redeals;
        out[n++] = s->nstock;
        memcpy(out + n, s->stock, s->nstock);
        n += s->nstock;
    }
    for (int i = 0; i < PILES; i++) {
        int p = order[i];
        out[n++] = s->len[p];
        memcpy(out + n, s->pile[p], s->len[p]);
        n += s->len[p];
    }
    return n;
}

/* ---- the failed set ---- */

static int table_init(Table *t, size_t max_bytes) {
    t->max_bytes = max_bytes;
    t->size = 1 << 20;
    t->used = t->count = 0;
    t->capacity = FIRST_SLOTS;
    t->arena = malloc(t->size);
    t->slots = calloc(t->capacity, sizeof(uint64_t));
    return t->arena != NULL && t->slots != NULL;
}

/* Empty again, for the next restart (a grown index shrinks back). */
static int table_clear(Table *t) {
    t->used = t->count = 0;
    if (t->capacity == FIRST_SLOTS) {
        memset(t->slots, 0, t->capacity * sizeof(uint64_t));
        return 1;
    }
    free(t->slots);
    t->capacity = FIRST_SLOTS;
    t->slots = calloc(t->capacity, sizeof(uint64_t));
    return t->slots != NULL;
}

static inline uint64_t slot_of(uint64_t hash, size_t offset) {
    return (hash >> 48) << 48 | (uint64_t)(offset + 1);
}

static inline size_t offset_of(uint64_t slot) { return (size_t)(slot & 0xFFFFFFFFFFFFULL) - 1; }

static int table_fits(const Table *t, size_t arena, size_t capacity) {
    return arena + capacity * sizeof(uint64_t) <= t->max_bytes;
}

static int table_grow_index(Table *t) {
    size_t bigger = t->capacity * 2, mask = bigger - 1;
    if (!table_fits(t, t->size, bigger)) return 0;
    uint64_t *slots = calloc(bigger, sizeof(uint64_t));
    if (slots == NULL) return 0;
    for (size_t i = 0; i < t->capacity; i++) {
        if (!t->slots[i]) continue;
        const uint8_t *key = t->arena + offset_of(t->slots[i]);
        size_t j = hash_key(key + 1, key[0]) & mask;
        while (slots[j]) j = (j + 1) & mask;
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->capacity = bigger;
    return 1;
}

static int table_grow_arena(Table *t, size_t wanted) {
    size_t bigger = t->size;
    while (bigger < wanted) bigger *= 2;
    if (!table_fits(t, bigger, t->capacity)) return 0;
    uint8_t *arena = realloc(t->arena, bigger);
    if (arena == NULL) return 0;
    t->arena = arena;
    t->size = bigger;
    return 1;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t table_probe(const Table *t, const uint8_t *key, int n, uint64_t h) {
    size_t mask = t->capacity - 1, i = h & mask;
    uint64_t tag = (h >> 48) << 48;
    for (; t->slots[i]; i = (i + 1) & mask) {
        if ((t->slots[i] & ~0xFFFFFFFFFFFFULL) != tag) continue;
        const uint8_t *held = t->arena + offset_of(t->slots[i]);
        if (held[0] == n && memcmp(held + 1, key, (size_t)n) == 0) return i;
    }
    return i;
}

static int table_has(const Table *t, const uint8_t *key, int n, uint64_t h) {
    return t->slots[table_probe(t, key, n, h)] != 0;
}

/* 1: added (or there already), 0: the set cannot grow. */
static int table_add(Table *t, const uint8_t *key, int n, uint64_t h) {
    if ((t->count + 1) * 2 > t->capacity && !table_grow_index(t)) return 0;
    if (t->used + (size_t)n + 1 > t->size && !table_grow_arena(t, t->used + (size_t)n + 1))
        return 0;
    size_t i = table_probe(t, key, n, h);
    if (t->slots[i]) return 1;
    t->arena[t->used] = (uint8_t)n;
    memcpy(t->arena + t->used + 1, key, (size_t)n);
    t->slots[i] = slot_of(h, t->used);
    t->used += (size_t)n + 1;
    t->count++;
    return 1;
}

/* ---- the moves on the compact state ---- */

static void play(State *s, const Move *m) {
    if (m->kind == M_HOME) {
        int face = top_of(s, m->from), rank = rank_of(face);
        s->len[m->from]--;
        s->wants[m->to] = (uint8_t)(m->to < 4 ? rank - 1 : rank == 13 ? 0 : rank + 1);
        s->home++;
    } else if (m->kind == M_BUILD) {
        s->pile[m->to][s->len[m->to]++] = top_of(s, m->from);
        s->len[m->from]--;
    } else if (m->kind == M_DEAL) {
        int any_empty = 0;
        for (int p = 0; p < PILES; p++) any_empty |= !s->len[p];
        for (int p = 0; p < PILES && s->nstock; p++)
            if (!any_empty || !s->len[p]) s->pile[p][s->len[p]++] = s->stock[--s->nstock];
    } else { /* R: the stock, top last, reads p1 top..bottom, ..., p12 top..bottom */
        int n = 0;
        for (int p = 0; p < PILES; p++) {
            for (int i = s->len[p] - 1; i >= 0; i--) s->stock[n++] = s->pile[p][i];
            s->len[p] = 0;
        }
        s->nstock = (uint8_t)n;
        s->redeals--;
    }
}

/* The face each foundation wants (-1 when complete). */
static void fitting_faces(const State *s, int *fit) {
    for (int f = 0; f < FOUNDATIONS; f++)
        fit[f] = s->wants[f] ? FOUNDATION_SUIT[f] * 13 + s->wants[f] - 1 : -1;
}

static inline int allowed_while_stock(int pile, int foundation) {
    if (pile < 4) return foundation < 4;
    if (pile >= 6 && pile < 10) return foundation >= 4;
    return 1;
}

/* home_moves: pile order, then foundation order; at most `most` of them. */
static int home_moves(const State *s, Move *out, int most) {
    int fit[FOUNDATIONS], n = 0;
    fitting_faces(s, fit);
    for (int p = 0; p < PILES; p++) {
        if (!s->len[p]) continue;
        int top = top_of(s, p);
        for (int f = 0; f < FOUNDATIONS; f++) {
            if (fit[f] != top || (s->nstock && !allowed_while_stock(p, f))) continue;
            if (n == most) return n;
            out[n++] = (Move){M_HOME, (uint8_t)p, (uint8_t)f};
        }
    }
    return n;
}

static inline int neighbours(int a, int b) {
    return suit_of(a) == suit_of(b) && (rank_of(a) - rank_of(b) == 1 || rank_of(b) - rank_of(a) == 1);
}

/* The faces a face may go onto, lower rank first (NEIGHBOURS). */
static int neighbour_faces(int face, int *out) {
    int n = 0;
    if (rank_of(face) > 1) out[n++] = face - 1;
    if (rank_of(face) < 13) out[n++] = face + 1;
    return n;
}

/* build_moves: (source, target) in source order, then neighbour, then target. */
static int build_moves(const State *s, Move *out, int most) {
    int n = 0, near[2];
    if (s->nstock) return 0;
    for (int src = 0; src < PILES; src++) {
        if (!s->len[src]) continue;
        int count = neighbour_faces(top_of(s, src), near);
        for (int k = 0; k < count; k++)
            for (int tgt = 0; tgt < PILES; tgt++) {
                if (!s->len[tgt] || top_of(s, tgt) != near[k]) continue;
                if (n == most) return n;
                out[n++] = (Move){M_BUILD, (uint8_t)src, (uint8_t)tgt};
            }
    }
    return n;
}

/* Copies of each face home: 2 less those on the table or in the stock. */
static void home_counts(const State *s, int *counts) {
    for (int f = 0; f < FACES; f++) counts[f] = 2;
    for (int p = 0; p < PILES; p++)
        for (int i = 0; i < s->len[p]; i++) counts[s->pile[p][i]]--;
    for (int i = 0; i < s->nstock; i++) counts[s->stock[i]]--;
}

/* Rule 4: the first home move whose card's twin and both neighbours' copies are home. */
static int forced_home(const State *s, Move *out) {
    Move homes[MAX_CHILDREN];
    int n = home_moves(s, homes, MAX_CHILDREN), counts[FACES];
    if (!n) return 0;
    home_counts(s, counts);
    for (int i = 0; i < n; i++) {
        int card = top_of(s, homes[i].from), rank = rank_of(card), base = suit_of(card) * 13 - 1;
        if (counts[card] < 1) continue; /* the twin is on the table */
        if ((rank == 1 || counts[base + rank - 1] == 2) && (rank == 13 || counts[base + rank + 1] == 2)) {
            *out = homes[i];
            return 1;
        }
    }
    return 0;
}

/* H for a card with its T (goes_home). */
static int goes_home(int card, const uint8_t *wants, const int *down, const int *up) {
    int suit = suit_of(card), rank = rank_of(card);
    int king_wants = wants[KING_FOUNDATION_OF[suit]], ace_wants = wants[ACE_FOUNDATION_OF[suit]];
    return (king_wants != 0 && rank <= king_wants && down[suit] <= rank + 1) ||
           (ace_wants != 0 && rank >= ace_wants && up[suit] >= rank - 1);
}

/* Rule 6 (unreachable): whether some card can never be uncovered. */
static int unreachable(const State *s) {
    int exposed[PILES], top_faces[FACES] = {0}, down[4], up[4], near[2];
    for (int p = 0; p < PILES; p++) {
        exposed[p] = s->len[p] - 1;
        if (s->len[p]) top_faces[top_of(s, p)]++;
    }
    for (int i = 0; i < s->nstock; i++) top_faces[s->stock[i]]++; /* each a top once dealt */
    for (int suit = 0; suit < 4; suit++) {
        down[suit] = s->wants[KING_FOUNDATION_OF[suit]] + 1;
        up[suit] = s->wants[ACE_FOUNDATION_OF[suit]] - 1;
        if (down[suit] == 1) down[suit] = 0;
        if (up[suit] == -1) up[suit] = 14;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int suit = 0; suit < 4; suit++) {
            int base = suit * 13 - 1;
            while (down[suit] > 1 && top_faces[base + down[suit] - 1]) down[suit]--;
            while (up[suit] < 13 && top_faces[base + up[suit] + 1]) up[suit]++;
        }
        for (int p = 0; p < PILES; p++) {
            while (exposed[p] > 0) {
                int card = s->pile[p][exposed[p]], leaves = goes_home(card, s->wants, down, up);
                int count = neighbour_faces(card, near);
                for (int k = 0; k < count && !leaves; k++) leaves = top_faces[near[k]] > 0;
                if (!leaves) break;
                exposed[p]--;
                top_faces[s->pile[p][exposed[p]]]++;
                changed = 1;
            }
        }
    }
    for (int p = 0; p < PILES; p++)
        if (exposed[p] > 0) return 1;
    return 0;
}

/* StHelenaSearch.dead: rules 5 and 6, once no redeal is left. */
static int dead(const Ctx *c, const State *s) {
    Move any;
    if (s->redeals) return 0;
    if ((c->flags & P_DEAD_TEST) && !s->nstock && !home_moves(s, &any, 1) && !build_moves(s, &any, 1))
        return 1;
    return (c->flags & P_REACH_TEST) && unreachable(s);
}

/* can_build on the child of a build: can the uncovered card go onto another top? */
static int uncovered_can_build(const State *s, int src, int tgt) {
    int under = s->pile[src][s->len[src] - 2];
    for (int p = 0; p < PILES; p++) {
        if (p == src || !s->len[p]) continue;
        if (neighbours(under, p == tgt ? top_of(s, src) : top_of(s, p))) return 1;
    }
    return 0;
}

/* _builds: those that uncover a card that fits home first; greedy keeps only the useful. */
static int ordered_builds(const Ctx *c, const State *s, int final, Move *out) {
    Move all[MAX_CHILDREN], other[MAX_CHILDREN];
    int fit[FOUNDATIONS], wanted[FACES] = {0}, n = 0, others = 0;
    int total = build_moves(s, all, MAX_CHILDREN);
    fitting_faces(s, fit);
    for (int f = 0; f < FOUNDATIONS; f++)
        if (fit[f] >= 0) wanted[fit[f]] = 1;
    for (int i = 0; i < total; i++) {
        int src = all[i].from;
        if (s->len[src] == 1) {
            if (!c->exact || (final && (c->flags & P_NO_EMPTYING_BUILD))) continue; /* rule 3 */
            other[others++] = all[i];
        } else if (wanted[s->pile[src][s->len[src] - 2]]) {
            out[n++] = all[i];
        } else if (c->exact || uncovered_can_build(s, src, all[i].to)) {
            other[others++] = all[i];
        }
    }
    memcpy(out + n, other, sizeof(Move) * (size_t)others);
    return n + others;
}

/* ShuffledSearch._moves: each group shuffled, then the deal first now and then. */
static void shuffle_groups(Ctx *c, Frame *f) {
    Move homes[MAX_CHILDREN], builds[MAX_CHILDREN], deals[2];
    int nh = 0, nb = 0, nd = 0;
    for (int i = 0; i < f->count; i++) {
        Move m = f->children[i];
        if (m.kind == M_HOME) homes[nh++] = m;
        else if (m.kind == M_BUILD) builds[nb++] = m;
        else deals[nd++] = m;
    }
    twister_shuffle(&c->rng, homes, nh);
    twister_shuffle(&c->rng, builds, nb);
    int deal_first = nd && twister_random(&c->rng) < c->deal_first;
    Move *out = f->children;
    if (deal_first) { memcpy(out, deals, sizeof(Move) * (size_t)nd); out += nd; }
    memcpy(out, homes, sizeof(Move) * (size_t)nh);
    memcpy(out + nh, builds, sizeof(Move) * (size_t)nb);
    if (!deal_first) memcpy(out + nh + nb, deals, sizeof(Move) * (size_t)nd);
}

/* StHelenaSearch._moves (and ShuffledSearch's order in a restart). */
static void make_children(Ctx *c, Frame *f) {
    const State *s = &f->s;
    int final = !s->nstock && !s->redeals;
    f->next = 0;
    if (c->exact && final && (c->flags & P_FORCED_HOME) && forced_home(s, &f->children[0])) {
        f->count = 1;
    } else {
        f->count = home_moves(s, f->children, c->exact ? MAX_CHILDREN : 1);
        if (c->exact || !f->count) { /* the greedy pass plays its first home move alone */
            f->count += ordered_builds(c, s, final, f->children + f->count);
            int any_card = 0;
            for (int p = 0; p < PILES; p++) any_card |= s->len[p] != 0;
            if (s->nstock) f->children[f->count++] = (Move){M_DEAL, 0, 0};
            else if (s->redeals && any_card) f->children[f->count++] = (Move){M_REDEAL, 0, 0};
        }
    }
    if (c->shuffled) shuffle_groups(c, f);
}

/* ---- the walk (driver.py's _Walk) ---- */

static int on_path(const Ctx *c, const uint8_t *key, int n, uint64_t h) {
    for (int i = c->bucket[h & (BUCKETS - 1)]; i >= 0; i = c->frames[i].chain) {
        const Frame *f = &c->frames[i];
        if (f->hash == h && f->keylen == n && memcmp(f->key, key, (size_t)n) == 0) return 1;
    }
    return 0;
}

static int push(Ctx *c, const State *s, const uint8_t *key, int n, uint64_t h, Move via) {
    if (c->depth == c->frame_capacity) {
        int more = c->frame_capacity * 2;
        Frame *frames = realloc(c->frames, sizeof(Frame) * (size_t)more);
        if (frames == NULL) return 0;
        c->frames = frames;
        c->frame_capacity = more;
    }
    Frame *f = &c->frames[c->depth];
    f->s = *s;
    f->via = via;
    memcpy(f->key, key, (size_t)n);
    f->keylen = n;
    f->hash = h;
    make_children(c, f);
    f->chain = c->bucket[h & (BUCKETS - 1)];
    c->bucket[h & (BUCKETS - 1)] = c->depth++;
    return 1;
}

static void pop(Ctx *c) {
    const Frame *f = &c->frames[--c->depth];
    c->bucket[f->hash & (BUCKETS - 1)] = f->chain;
}

/* _Walk.enter: 1 pushed, 0 known to fail or dead, -1 out of budget or memory. */
static int enter(Ctx *c, const State *s, const uint8_t *key, int n, uint64_t h, Move via) {
    if (table_has(&c->failed, key, n, h)) return 0;
    c->nodes++;
    if (c->node_limit >= 0 && c->nodes > c->node_limit) return -1;
    if (c->deadline > 0 && c->nodes % TIME_CHECK_EVERY == 0 && now_s() > c->deadline) return -1;
    if (dead(c, s)) return table_add(&c->failed, key, n, h) ? 0 : -1;
    return push(c, s, key, n, h, via) ? 1 : -1;
}

/* The next child of the top frame whose key is not on the path; 0 when none is left. */
static int next_child(Ctx *c, State *child, Move *move, uint8_t *key, int *n, uint64_t *h) {
    Frame *f = &c->frames[c->depth - 1];
    while (f->next < f->count) {
        *move = f->children[f->next++];
        *child = f->s;
        play(child, move);
        *n = make_key(c, child, key);
        *h = hash_key(key, *n);
        if (!on_path(c, key, *n, *h)) return 1;
    }
    return 0;
}

/* 1: won (the frames' moves, then *last, are the line), 0: exhausted, -1: budget or memory. */
static int walk(Ctx *c, const State *start, Move *last) {
    static const Move NONE = {M_DEAL, 0, 0};
    uint8_t key[MAX_KEY];
    int n;
    uint64_t h;
    State child;
    c->nodes = 0;
    c->depth = 0;
    for (int b = 0; b < BUCKETS; b++) c->bucket[b] = -1;
    if (start->home == CARDS) return 1;
    n = make_key(c, start, key);
    h = hash_key(key, n);
    int entered = enter(c, start, key, n, h, NONE);
    if (entered <= 0) return entered;
    while (c->depth) {
        if (!next_child(c, &child, last, key, &n, &h)) {
            const Frame *f = &c->frames[c->depth - 1];
            if (!table_add(&c->failed, f->key, f->keylen, f->hash)) return -1;
            pop(c);
            continue;
        }
        if (child.home == CARDS) return 1;
        if (enter(c, &child, key, n, h, *last) < 0) return -1;
    }
    return 0;
}

/* ---- the restarts ---- */

static long long luby(long long index) {
    for (;;) {
        int k = 1;
        while ((1LL << k) - 1 < index) k++;
        if ((1LL << k) - 1 == index) return 1LL << (k - 1);
        index -= (1LL << (k - 1)) - 1;
    }
}

/* search.py's restarts(): each a shuffled exact pass, capped by the Luby sequence. */
static int restarts(Ctx *c, const State *start, long long restart_nodes, double seconds,
                    long long *spent, Move *last) {
    long long node_budget = c->node_limit, number = 0;
    double began = now_s();
    *spent = 0;
    for (;;) {
        double elapsed = now_s() - began;
        if ((seconds > 0 && elapsed >= seconds) || (node_budget >= 0 && *spent >= node_budget))
            return -1;
        long long left = node_budget < 0 ? -1 : node_budget - *spent;
        long long cap = restart_nodes * luby(++number);
        c->node_limit = left < 0 || cap < left ? cap : left;
        c->deadline = seconds > 0 ? now_s() + (seconds - elapsed > 0.001 ? seconds - elapsed : 0.001) : 0;
        if (!table_clear(&c->failed)) return -1;
        int status = walk(c, start, last);
        *spent += c->nodes;
        if (status >= 0) return status; /* a budget (or a full table) ends only this restart */
    }
}

/* ---- reading a state, writing a line ---- */

static int append_move(PyObject *line, const Move *m) {
    char text[16];
    if (m->kind == M_DEAL) snprintf(text, sizeof text, "D");
    else if (m->kind == M_REDEAL) snprintf(text, sizeof text, "R");
    else if (m->kind == M_HOME) snprintf(text, sizeof text, "P@p%d@%s", m->from + 1, FOUNDATION_NAME[m->to]);
    else snprintf(text, sizeof text, "P@p%d@p%d", m->from + 1, m->to + 1);
    return append_text(line, text);
}

static PyObject *line_of(const Ctx *c, int status, const Move *last) {
    PyObject *line = PyList_New(0);
    if (line == NULL || status != 1 || c->depth == 0) return line; /* a won start: no move */
    for (int i = 1; i < c->depth; i++)
        if (append_move(line, &c->frames[i].via)) { Py_DECREF(line); return NULL; }
    if (append_move(line, last)) { Py_DECREF(line); return NULL; }
    return line;
}

static int read_faces(PyObject *o, uint8_t *out, int *count, int *seen, const char *what) {
    Py_ssize_t n = PyBytes_GET_SIZE(o);
    const uint8_t *bytes = (const uint8_t *)PyBytes_AS_STRING(o);
    if (n + *count > CARDS) {
        PyErr_Format(PyExc_ValueError, "more than %d cards (at the %s)", CARDS, what);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (bytes[i] >= FACES || ++seen[bytes[i]] > 2) {
            PyErr_Format(PyExc_ValueError, "%s: face %d is not a face, or a third copy", what, bytes[i]);
            return 0;
        }
        out[i] = bytes[i];
    }
    *count += (int)n;
    return 1;
}

/* search.py's State: stock, twelve piles, wants, redeals, home. */
static int read_state(PyObject *stock, PyObject *piles, PyObject *wants, int redeals, int home, State *s) {
    int count = 0, seen[FACES] = {0};
    memset(s, 0, sizeof *s);
    if (PyTuple_GET_SIZE(piles) != PILES || PyBytes_GET_SIZE(wants) != FOUNDATIONS) {
        PyErr_SetString(PyExc_ValueError, "a state has 12 piles and 8 foundations' wants");
        return 0;
    }
    if (!read_faces(stock, s->stock, &count, seen, "stock")) return 0;
    s->nstock = (uint8_t)count;
    for (int p = 0; p < PILES; p++) {
        PyObject *pile = PyTuple_GET_ITEM(piles, p);
        int before = count;
        if (!PyBytes_Check(pile)) {
            PyErr_SetString(PyExc_TypeError, "each pile is bytes");
            return 0;
        }
        if (!read_faces(pile, s->pile[p], &count, seen, "piles")) return 0;
        s->len[p] = (uint8_t)(count - before);
    }
    for (int f = 0; f < FOUNDATIONS; f++) {
        s->wants[f] = (uint8_t)PyBytes_AS_STRING(wants)[f];
        if (s->wants[f] > 13) {
            PyErr_SetString(PyExc_ValueError, "a foundation wants a rank 1..13, or 0 when complete");
            return 0;
        }
    }
    if (redeals < 0 || redeals > 255 || home < 0 || home + count != CARDS) {
        PyErr_SetString(PyExc_ValueError, "redeals out of range, or home and the cards left are not 104");
        return 0;
    }
    s->redeals = (uint8_t)redeals;
    s->home = (uint8_t)home;
    return 1;
}

static Ctx *new_ctx(int flags, long long node_limit, double seconds, int table_mb) {
    if (flags < 0 || flags > 31 || table_mb < 1) {
        PyErr_SetString(PyExc_ValueError, "flags are 0..31 and table_mb is positive");
        return NULL;
    }
    Ctx *c = calloc(1, sizeof(Ctx));
    if (c == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    c->flags = flags;
    c->node_limit = node_limit;
    c->deadline = seconds > 0 ? now_s() + seconds : 0;
    c->frame_capacity = 256;
    c->frames = malloc(sizeof(Frame) * (size_t)c->frame_capacity);
    if (c->frames == NULL || !table_init(&c->failed, (size_t)table_mb << 20)) {
        free(c->frames);
        free(c->failed.arena);
        free(c->failed.slots);
        free(c);
        PyErr_NoMemory();
        return NULL;
    }
    return c;
}

static void free_ctx(Ctx *c) {
    free(c->frames);
    free(c->failed.arena);
    free(c->failed.slots);
    free(c);
}

static PyObject *outcome(Ctx *c, int status, const Move *last, long long nodes) {
    PyObject *line = line_of(c, status, last);
    if (line == NULL) return NULL;
    const char *name = status == 1 ? "won" : status == 0 ? "exhausted" : "budget";
    return Py_BuildValue("(sNL)", name, line, nodes);
}

/* search(stock, piles, wants, redeals, home, exact, flags, node_limit, seconds, table_mb)
   -> (status, line, nodes): one pass, greedy or exact, as search_pass on StHelenaSearch.
   node_limit < 0: none; seconds <= 0: none. */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *stock, *piles, *wants;
    int redeals, home, exact, flags, table_mb;
    long long node_limit;
    double seconds;
    State start;
    Move last = {M_DEAL, 0, 0};
    (void)self;
    if (!PyArg_ParseTuple(args, "SO!SiipiLdi", &stock, &PyTuple_Type, &piles, &wants, &redeals, &home,
                          &exact, &flags, &node_limit, &seconds, &table_mb) ||
        !read_state(stock, piles, wants, redeals, home, &start))
        return NULL;
    Ctx *c = new_ctx(flags, node_limit, seconds, table_mb);
    if (c == NULL) return NULL;
    c->exact = exact;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = walk(c, &start, &last);
    Py_END_ALLOW_THREADS
    PyObject *result = outcome(c, status, &last, c->nodes);
    free_ctx(c);
    return result;
}

/* restarts(stock, piles, wants, redeals, home, flags, node_limit, seconds, table_mb,
            seed_words, restart_nodes, deal_first) -> (status, line, nodes), as search.py's
   restarts() with random.Random(seed), seed_words being abs(seed)'s 32-bit words, low first. */
static PyObject *py_restarts(PyObject *self, PyObject *args) {
    PyObject *stock, *piles, *wants, *words;
    int redeals, home, flags, table_mb;
    long long node_limit, restart_nodes, spent = 0;
    double seconds, deal_first;
    State start;
    Move last = {M_DEAL, 0, 0};
    uint32_t key[64];
    (void)self;
    if (!PyArg_ParseTuple(args, "SO!SiiiLdiO!Ld", &stock, &PyTuple_Type, &piles, &wants, &redeals,
                          &home, &flags, &node_limit, &seconds, &table_mb, &PyTuple_Type, &words,
                          &restart_nodes, &deal_first) ||
        !read_state(stock, piles, wants, redeals, home, &start))
        return NULL;
    Py_ssize_t length = PyTuple_GET_SIZE(words);
    if (length < 1 || length > 64 || restart_nodes < 1) {
        PyErr_SetString(PyExc_ValueError, "a seed is 1..64 words; restart_nodes is positive");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < length; i++) {
        unsigned long word = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
        if (PyErr_Occurred() || word > 0xFFFFFFFFUL) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a seed word is 0..2**32 - 1");
            return NULL;
        }
        key[i] = (uint32_t)word;
    }
    Ctx *c = new_ctx(flags, node_limit, 0, table_mb);
    if (c == NULL) return NULL;
    c->exact = 1;
    c->shuffled = 1;
    c->deal_first = deal_first;
    twister_seed(&c->rng, key, (size_t)length);
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = restarts(c, &start, restart_nodes, seconds, &spent, &last);
    Py_END_ALLOW_THREADS
    PyObject *result = outcome(c, status, &last, spent);
    free_ctx(c);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, "One pass over a compact St. Helena state; see _core.c."},
    {"restarts", py_restarts, METH_VARARGS, "search.py's restarts on a compact state; see _core.c."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", NULL, -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
