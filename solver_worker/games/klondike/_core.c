/*
 * Klondike's compiled core: the same search as search.py beside it (read its
 * docstring for the move graph, every pruning rule and the argument for it),
 * in C for speed. search.py stays the reference; the tests run both, and each
 * against a plain search with its rules switched off, on thousands of
 * positions.
 *
 * What is the core's own:
 *
 * - The table holds every state entered (not only failed ones): a depth-first
 *   walk that never enters a state twice reaches a win from the start exactly
 *   when the pruned graph holds one (plain reachability), cycles or not, so
 *   no path guard is needed. A greedy restart starts on a fresh table.
 * - Keys are exact, never hashes (a collision could fake a loss): a column's
 *   face-down cards are always a bottom slice of the column it was dealt as,
 *   so they are named by that column and their count; its face-up run by its
 *   head, its length and, card by card, which of the two suits of the colour
 *   follows; the talon by which of its first cards are left (cards only ever
 *   leave it, in order). The foundations follow from the rest (every card not
 *   on the table or in the talon is home, the lowest of each suit). With
 *   ``symmetry`` the seven column codes are sorted.
 * - The walk stops at a *finished* state: the talon empty and every column
 *   card face up. Such a state is always won: the lowest-ranked card on the
 *   table ends its column (a card after it in its run would be lower still)
 *   and fits home (every lower card is home), and playing it home leaves a
 *   finished state. The line then plays home whatever fits, column by column.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core_common.h"
#include <sys/mman.h>

#define DECK 52
#define NCOL 7
#define KING 13
#define MAX_TALON 24
#define MAX_COL 40 /* face down (6 in a deal, more in a made-up table) + King to ace */
#define MAX_DOWN 26
#define MAX_DEPTH 4096
#define MAX_CHILDREN 96
#define TIME_CHECK_EVERY 1024

/* Pruning flags: search.py's Pruning, one bit each. */
#define P_SYMMETRY 1
#define P_CLASSES 2
#define P_SAFE 4
#define P_FIRST_EMPTY 8
#define P_RETURNS 16
#define P_USED 32
#define P_DEAD 64
#define P_NAIVE 128
#define P_HELD_RETURNS 256
#define P_COMPOUND 512

enum { K_COL_HOME, K_RUN, K_TALON_HOME, K_TALON_TO, K_RETURN, K_FINISH_HOME };

typedef struct {
    uint8_t kind, a, b, cnt; /* a: source column (or suit), b: target column */
    uint8_t q;               /* talon plays: the waste top reached (1-based) */
    uint8_t n_before, ptr_before, turned;
    uint8_t pair; /* 1: this move and the next are one child (rule 10) */
} Move;

typedef struct {
    uint8_t col[NCOL][MAX_COL];
    uint8_t len[NCOL], down[NCOL];
    uint8_t talon[MAX_TALON], tidx[MAX_TALON]; /* card, and its place in the start talon */
    int n, ptr;
    int found[4];
    int home;
    uint32_t code[NCOL]; /* each column's key code (column_code), kept up to date */
} State;

typedef struct {
    uint64_t w[4];
} Key;

typedef struct {
    Key *slots;
    size_t capacity, count, max_capacity;
} Table;

typedef struct {
    Move moves[MAX_CHILDREN];
    int count, next;
    int entered_at; /* the path's length before the moves that led here */
} Frame;

typedef struct {
    State s;
    int draw, exact, flags;
    Table seen;
    long long nodes, node_limit;
    double deadline;
    uint64_t rng; /* 0: the fixed order */
    Frame *frames;
    Move path[2 * MAX_DEPTH];
    uint8_t path_idx[2 * MAX_DEPTH]; /* talon plays: the card's place in the start talon */
    int depth;
    Move finish[DECK];
    int finish_count;
} Ctx;

static inline int suit_of(int c) { return c / 13; }
static inline int rank_of(int c) { return c % 13 + 1; }
static const int OTHER_COLOUR[4][2] = {{2, 3}, {2, 3}, {0, 1}, {0, 1}};
static const int TWIN_SUIT[4] = {1, 0, 3, 2};

/* HOLDS: the two cards that may lie on c (rank - 1, other colour), -1 for an ace. */
static inline int holds(int c, int which) {
    int r = rank_of(c);
    return r == 1 ? -1 : OTHER_COLOUR[suit_of(c)][which] * 13 + r - 2;
}

/* BASES: the two cards c may lie on (rank + 1, other colour), -1 for a King. */
static inline int bases(int c, int which) {
    int r = rank_of(c);
    return r == KING ? -1 : OTHER_COLOUR[suit_of(c)][which] * 13 + r;
}

static inline int fits_home(const State *s, int c) { return s->found[suit_of(c)] == rank_of(c) - 1; }

static inline int foundation_top(const State *s, int c) { return s->found[suit_of(c)] == rank_of(c); }

/* ---- the table of states entered ---- */

static inline uint64_t key_hash(const Key *k) {
    return mix(mix(mix(mix(k->w[0]) ^ k->w[1]) ^ k->w[2]) ^ k->w[3]);
}

/* Zeroed slots on huge pages where the kernel allows: a table of millions of
   states is read at random, and 4 KB pages make every read a TLB miss too. */
static Key *slots_alloc(size_t capacity) {
    size_t bytes = capacity * sizeof(Key);
    if (bytes < ((size_t)2 << 20)) return calloc(capacity, sizeof(Key));
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p; /* anonymous pages come zeroed */
}

static void slots_free(Key *slots, size_t capacity) {
    if (slots == NULL) return;
    if (capacity * sizeof(Key) < ((size_t)2 << 20)) free(slots);
    else munmap(slots, capacity * sizeof(Key));
}

static int table_init(Table *t, size_t capacity, size_t max_capacity) {
    t->slots = slots_alloc(capacity);
    t->capacity = capacity;
    t->count = 0;
    t->max_capacity = max_capacity;
    return t->slots != NULL;
}

/* Key word 3 always has its top bit set, so an all-zero slot is empty. */
static void table_put_slot(Key *slots, size_t capacity, const Key *k) {
    size_t mask = capacity - 1, i = key_hash(k) & mask;
    while (slots[i].w[3]) i = (i + 1) & mask;
    slots[i] = *k;
}

static int table_grow(Table *t) {
    size_t bigger = t->capacity * 2;
    if (bigger > t->max_capacity) return 0;
    Key *slots = slots_alloc(bigger);
    if (slots == NULL) return 0;
    for (size_t i = 0; i < t->capacity; i++)
        if (t->slots[i].w[3]) table_put_slot(slots, bigger, &t->slots[i]);
    slots_free(t->slots, t->capacity);
    t->slots = slots;
    t->capacity = bigger;
    return 1;
}

/* 1: added, 0: already there, -1: full (out of memory budget). */
static int table_add(Table *t, const Key *k) {
    if ((t->count + 1) * 2 > t->capacity && !table_grow(t)) return -1;
    size_t mask = t->capacity - 1, i = key_hash(k) & mask;
    while (t->slots[i].w[3]) {
        if (memcmp(&t->slots[i], k, sizeof(Key)) == 0) return 0;
        i = (i + 1) & mask;
    }
    t->slots[i] = *k;
    t->count++;
    return 1;
}

/* ---- keys (rule 2) ---- */

static uint32_t column_code(const State *s, int i) {
    int len = s->len[i];
    if (!len) return 0;
    int d = s->down[i], up = len - d;
    uint32_t bits = 0;
    for (int j = 1; j < up; j++) bits |= (uint32_t)(suit_of(s->col[i][d + j]) & 1) << (j - 1);
    uint32_t dealt = d ? (uint32_t)i : 7u;
    return 1u << 31 | (uint32_t)d << 25 /* 5 bits: MAX_DOWN */ | dealt << 22 | (uint32_t)s->col[i][d] << 16 |
           (uint32_t)up << 12 | bits;
}

/* The columns a move changed get their codes again. */
static inline void recode(State *s, const Move *m) {
    switch (m->kind) {
    case K_RUN: s->code[m->a] = column_code(s, m->a); s->code[m->b] = column_code(s, m->b); break;
    case K_COL_HOME: case K_FINISH_HOME: s->code[m->a] = column_code(s, m->a); break;
    case K_TALON_TO: case K_RETURN: s->code[m->b] = column_code(s, m->b); break;
    default: break;
    }
}

static void make_key(const Ctx *c, Key *k) {
    const State *s = &c->s;
    uint32_t codes[NCOL];
    memcpy(codes, s->code, sizeof codes);
    if (c->flags & P_SYMMETRY) {
        for (int i = 1; i < NCOL; i++) {
            uint32_t v = codes[i];
            int j = i - 1;
            while (j >= 0 && codes[j] > v) { codes[j + 1] = codes[j]; j--; }
            codes[j + 1] = v;
        }
    }
    uint64_t mask = 0;
    for (int i = 0; i < s->n; i++) mask |= 1ULL << s->tidx[i];
    int ptr = s->ptr;
    if ((c->flags & P_CLASSES) && (ptr % c->draw == 0 || ptr == s->n)) ptr = 0;
    k->w[0] = codes[0] | (uint64_t)codes[1] << 32;
    k->w[1] = codes[2] | (uint64_t)codes[3] << 32;
    k->w[2] = codes[4] | (uint64_t)codes[5] << 32;
    k->w[3] = codes[6] | mask << 32 | (uint64_t)ptr << 56 | 1ULL << 63;
}

/* ---- moves, made and taken back in place ---- */

static void talon_remove(State *s, int at) {
    memmove(&s->talon[at], &s->talon[at + 1], s->n - at - 1);
    memmove(&s->tidx[at], &s->tidx[at + 1], s->n - at - 1);
    s->n--;
}

static void talon_insert(State *s, int at, int card, int idx) {
    memmove(&s->talon[at + 1], &s->talon[at], s->n - at);
    memmove(&s->tidx[at + 1], &s->tidx[at], s->n - at);
    s->talon[at] = (uint8_t)card;
    s->tidx[at] = (uint8_t)idx;
    s->n++;
}

static int talon_index_of(const State *s, int at) { return s->tidx[at]; }

/* A card left a column's end: turn up a face-down card left at the end. */
static inline uint8_t settle(State *s, int i) {
    if (s->len[i] && s->len[i] == s->down[i]) { s->down[i]--; return 1; }
    return 0;
}

static void apply(State *s, Move *m, uint8_t *idx_out) {
    int card;
    m->turned = 0;
    switch (m->kind) {
    case K_COL_HOME:
    case K_FINISH_HOME:
        card = s->col[m->a][--s->len[m->a]];
        s->found[suit_of(card)]++;
        s->home++;
        m->turned = settle(s, m->a);
        break;
    case K_RUN: {
        int from = s->len[m->a] - m->cnt;
        memcpy(&s->col[m->b][s->len[m->b]], &s->col[m->a][from], m->cnt);
        s->len[m->b] += m->cnt;
        s->len[m->a] = (uint8_t)from;
        m->turned = settle(s, m->a);
        break;
    }
    case K_TALON_HOME:
    case K_TALON_TO:
        card = s->talon[m->q - 1];
        *idx_out = (uint8_t)talon_index_of(s, m->q - 1);
        m->n_before = (uint8_t)s->n;
        m->ptr_before = (uint8_t)s->ptr;
        talon_remove(s, m->q - 1);
        s->ptr = m->q - 1;
        if (m->kind == K_TALON_HOME) {
            s->found[suit_of(card)]++;
            s->home++;
        } else {
            s->col[m->b][s->len[m->b]++] = (uint8_t)card;
        }
        break;
    case K_RETURN:
        card = m->a * 13 + s->found[m->a] - 1;
        s->found[m->a]--;
        s->home--;
        s->col[m->b][s->len[m->b]++] = (uint8_t)card;
        break;
    }
}

static void undo(State *s, const Move *m, uint8_t idx) {
    int card;
    switch (m->kind) {
    case K_COL_HOME:
    case K_FINISH_HOME: {
        int i = m->a;
        if (m->turned) s->down[i]++;
        /* the card home is the top of some foundation: find it by the column */
        int suit = m->b;
        card = suit * 13 + s->found[suit] - 1;
        s->found[suit]--;
        s->home--;
        s->col[i][s->len[i]++] = (uint8_t)card;
        break;
    }
    case K_RUN: {
        if (m->turned) s->down[m->a]++;
        int from = s->len[m->b] - m->cnt;
        memcpy(&s->col[m->a][s->len[m->a]], &s->col[m->b][from], m->cnt);
        s->len[m->a] += m->cnt;
        s->len[m->b] = (uint8_t)from;
        break;
    }
    case K_TALON_HOME:
    case K_TALON_TO:
        if (m->kind == K_TALON_HOME) {
            int suit = m->b;
            card = suit * 13 + s->found[suit] - 1;
            s->found[suit]--;
            s->home--;
        } else {
            card = s->col[m->b][--s->len[m->b]];
        }
        talon_insert(s, m->q - 1, card, idx);
        s->ptr = m->ptr_before;
        break;
    case K_RETURN:
        s->len[m->b]--;
        s->found[m->a]++;
        s->home++;
        break;
    }
}

/* ---- what the position shows: tops, face-up places, the talon's cards ---- */

typedef struct {
    int tops[NCOL];
    int empties[NCOL], n_empties;
    int8_t col_of[DECK], at_of[DECK]; /* face-up cards only; -1 elsewhere */
    uint64_t in_talon;
} View;

static void look(const Ctx *c, View *v) {
    const State *s = &c->s;
    memset(v->col_of, -1, sizeof v->col_of);
    memset(v->at_of, -1, sizeof v->at_of);
    v->n_empties = 0;
    for (int i = 0; i < NCOL; i++) {
        v->tops[i] = s->len[i] ? s->col[i][s->len[i] - 1] : -1;
        if (!s->len[i]) v->empties[v->n_empties++] = i;
        for (int j = s->down[i]; j < s->len[i]; j++) {
            v->col_of[s->col[i][j]] = (int8_t)i;
            v->at_of[s->col[i][j]] = (int8_t)j;
        }
    }
    if ((c->flags & P_FIRST_EMPTY) && v->n_empties > 1) v->n_empties = 1;
    v->in_talon = 0;
    for (int i = 0; i < s->n; i++) v->in_talon |= 1ULL << s->talon[i];
}

/* ---- rule 8: search.py's ``Uses`` ---- */

typedef struct {
    const State *s;
    const View *v;
    int turn_1, lifted, at;
    uint64_t seen_under, seen_held;
} Uses;

static int uses_lift(Uses *u, int column, int index);
static int uses_king_for_empty(Uses *u);

static inline int lifted_card(const Uses *u, int card) {
    return u->lifted >= 0 && u->v->col_of[card] == u->lifted && u->v->at_of[card] >= u->at;
}

static int uses_held(Uses *u, int card);

static int uses_comes(Uses *u, int card, int onto) {
    const View *v = u->v;
    if (v->col_of[card] >= 0) {
        if (lifted_card(u, card)) return 1;
        int column = v->col_of[card];
        return column != onto && uses_lift(u, column, v->at_of[card]);
    }
    if (foundation_top(u->s, card)) return 1;
    if (v->in_talon >> card & 1) return !u->turn_1 || uses_held(u, card);
    return 0;
}

static int uses_held(Uses *u, int card) {
    if (u->seen_held >> card & 1) return 0;
    u->seen_held |= 1ULL << card;
    for (int w = 0; w < 2; w++) {
        int h = holds(card, w);
        if (h >= 0 && uses_comes(u, h, -1)) return 1;
    }
    return 0;
}

static int uses_uncovered(Uses *u, int column, int index, int head) {
    const State *s = u->s;
    int under = s->col[column][index];
    if (u->seen_under >> under & 1) return 0;
    u->seen_under |= 1ULL << under;
    if (fits_home(s, under)) return 1;
    for (int w = 0; w < 2; w++) {
        int h = holds(under, w);
        if (h >= 0 && h != head && uses_comes(u, h, column)) return 1;
    }
    return 0; /* a run that ``under`` ends moving on is no use (search.py, rule 8) */
}

static int uses_lift(Uses *u, int column, int index) {
    const State *s = u->s;
    if (index == s->down[column]) return s->down[column] || uses_king_for_empty(u);
    return uses_uncovered(u, column, index - 1, s->col[column][index]);
}

static int uses_king_for_empty(Uses *u) {
    const State *s = u->s;
    const View *v = u->v;
    for (int suit = 0; suit < 4; suit++) {
        int king = suit * 13 + KING - 1;
        if (v->col_of[king] >= 0) {
            if (s->down[(int)v->col_of[king]] || lifted_card(u, king)) return 1;
        } else if (foundation_top(s, king) ||
                   ((v->in_talon >> king & 1) && (!u->turn_1 || uses_held(u, king)))) {
            return 1;
        }
    }
    return 0;
}

static void uses_init(Uses *u, const Ctx *c, const View *v, int lifted, int at) {
    u->s = &c->s;
    u->v = v;
    u->turn_1 = c->draw == 1;
    u->lifted = lifted;
    u->at = at;
    u->seen_under = u->seen_held = 0;
}

/* ---- the talon's reach (search.py's REACH) ---- */

/* The waste tops a turn-``draw`` talon of n cards reaches from ptr, nearest first. */
static int reach(int draw, int n, int ptr, uint8_t *out) {
    uint32_t visited = 0, found = 0;
    int count = 0, at = ptr;
    while (!(visited >> at & 1)) {
        visited |= 1u << at;
        if (at >= 1 && !(found >> at & 1)) { found |= 1u << at; out[count++] = (uint8_t)at; }
        if (at < n) at = at + draw < n ? at + draw : n;
        else if (n) at = 0;
    }
    return count;
}

/* ---- rule 3 (safe home) and rule 6 (useless returns) ---- */

static int safe_card(const State *s, int suit, int naive) {
    int rank = s->found[suit] + 1;
    if (rank > KING) return -1;
    const int *other = OTHER_COLOUR[suit];
    if (rank <= 2 || (s->found[other[0]] >= rank - 1 && s->found[other[1]] >= rank - 1 &&
                      (naive || s->found[TWIN_SUIT[suit]] >= rank - 2)))
        return suit * 13 + rank - 1;
    return -1;
}

static int useless_return(const State *s, int suit) {
    int rank = s->found[suit];
    const int *other = OTHER_COLOUR[suit];
    return s->found[other[0]] >= rank - 1 && s->found[other[1]] >= rank - 1 &&
           s->found[TWIN_SUIT[suit]] >= rank - 2;
}

/* ---- rule 7: the dead test ---- */

static int column_dead(const State *s, int i) {
    int down = s->down[i], len = s->len[i];
    if (!down) return 0;
    int8_t place[DECK];
    memset(place, -1, sizeof place);
    for (int j = 0; j < len; j++) place[s->col[i][j]] = (int8_t)j;
    int last = down < len - 1 ? down : len - 1;
    for (int index = 1; index <= last; index++) {
        int card = s->col[i][index], rank = rank_of(card);
        if (rank == 1 || rank == KING) continue;
        int below = place[card - 1];
        if (below < 0 || below >= index) continue;
        int b0 = bases(card, 0), b1 = bases(card, 1);
        if (place[b0] >= 0 && place[b0] < index && place[b1] >= 0 && place[b1] < index) return 1;
    }
    return 0;
}

static int dead(const Ctx *c) {
    if (!(c->flags & P_DEAD)) return 0;
    for (int i = 0; i < NCOL; i++)
        if (column_dead(&c->s, i)) return 1;
    return 0;
}

/* Rule 9: a card back from its foundation waits for its use, a card coming onto
   it or the next card of its suit coming back after it (search.py). */
static int return_used(const Ctx *c, const View *v, int suit) {
    for (int rank = c->s.found[suit]; rank >= 2; rank--) {
        Uses u;
        uses_init(&u, c, v, -1, 0);
        if (uses_held(&u, suit * 13 + rank - 1)) return 1;
    }
    return 0;
}

/* ---- the children, best first (search.py's ``moves``) ---- */

static void push(Frame *f, int kind, int a, int b, int cnt, int q) {
    if (f->count >= MAX_CHILDREN) return; /* cannot happen: well under 96 moves */
    Move *m = &f->moves[f->count++];
    m->kind = (uint8_t)kind;
    m->a = (uint8_t)a;
    m->b = (uint8_t)b;
    m->cnt = (uint8_t)cnt;
    m->q = (uint8_t)q;
    m->turned = 0;
    m->pair = 0;
}

/* Rule 10: a run lifted off a face-up card U, with U's use right after it. */
static void push_pair(Frame *f, int a, int b, int cnt, int kind2, int a2, int b2, int cnt2, int q2) {
    if (f->count + 2 > MAX_CHILDREN) return;
    push(f, K_RUN, a, b, cnt, 0);
    f->moves[f->count - 1].pair = 1;
    push(f, kind2, a2, b2, cnt2, q2);
}

/* Rule 3's forced move (greedy: from the turn-3 talon too). */
static int safe_move(const Ctx *c, Frame *f) {
    const State *s = &c->s;
    int safe[4], count = 0;
    for (int suit = 0; suit < 4; suit++) {
        int card = safe_card(s, suit, c->flags & P_NAIVE);
        if (card >= 0) safe[count++] = card;
    }
    if (!count) return 0;
    for (int i = 0; i < NCOL; i++) {
        if (!s->len[i]) continue;
        int top = s->col[i][s->len[i] - 1];
        for (int k = 0; k < count; k++)
            if (top == safe[k]) { push(f, K_COL_HOME, i, suit_of(top), 1, 0); return 1; }
    }
    if (c->draw == 1 || !c->exact) {
        uint8_t tops[MAX_TALON + 1];
        int reached = reach(c->draw, s->n, s->ptr, tops);
        for (int k = 0; k < count; k++) {
            for (int at = 0; at < s->n; at++) {
                if (s->talon[at] != safe[k]) continue;
                for (int r = 0; r < reached; r++)
                    if (tops[r] == at + 1) {
                        push(f, K_TALON_HOME, 0, suit_of(safe[k]), 1, at + 1);
                        return 1;
                    }
            }
        }
    }
    return 0;
}

/* The columns whose last card ``card`` may go onto (a King: the empty ones). */
static int targets(const View *v, int card, int *out) {
    if (rank_of(card) == KING) {
        for (int k = 0; k < v->n_empties; k++) out[k] = v->empties[k];
        return v->n_empties;
    }
    int count = 0;
    for (int w = 0; w < 2; w++) {
        int base = bases(card, w);
        int column = v->col_of[base];
        if (column >= 0 && v->tops[column] == base) out[count++] = column;
    }
    return count;
}

/* A restart's places by kind (search.py's SHUFFLE), blurred by a random amount. */
static const double SHUFFLE[6] = {-4.0, -1.0, -0.5, 0.0, 0.0, 0.5};
#define SHUFFLE_NOISE 3.0

static double next_random(Ctx *c) {
    uint64_t x = c->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c->rng = x;
    return (double)(x >> 11) / 9007199254740992.0;
}

/* Children in a blurred order; a pair (rule 10) stays one child. */
static void blur(Ctx *c, Frame *f, const int *bounds, int n_bounds) {
    double place[MAX_CHILDREN];
    int start[MAX_CHILDREN], units = 0, kind = 0;
    for (int i = 0; i < f->count; i += f->moves[i].pair ? 2 : 1) {
        while (kind < n_bounds && i >= bounds[kind]) kind++;
        place[units] = SHUFFLE[kind] + next_random(c) * SHUFFLE_NOISE;
        start[units++] = i;
    }
    for (int i = 1; i < units; i++) {
        double p = place[i];
        int first = start[i], j = i - 1;
        while (j >= 0 && place[j] > p) { place[j + 1] = place[j]; start[j + 1] = start[j]; j--; }
        place[j + 1] = p;
        start[j + 1] = first;
    }
    Move sorted[MAX_CHILDREN];
    int count = 0;
    for (int i = 0; i < units; i++) {
        sorted[count++] = f->moves[start[i]];
        if (f->moves[start[i]].pair) sorted[count++] = f->moves[start[i] + 1];
    }
    memcpy(f->moves, sorted, sizeof(Move) * count);
}

#define REVEALS 0
#define EMPTIES 1
#define PARTIAL 2

/* Whether a card can come onto ``card`` (rule 8's ``held``). */
static int held_now(const Ctx *c, const View *v, int card) {
    Uses u;
    uses_init(&u, c, v, -1, 0);
    return uses_held(&u, card);
}

/* Rule 10's second move, a run lifted from ``column`` at ``at``, when it waits
   too (it uncovers a face-up card, or empties the column): rule 8's test. */
static int second_used(const Ctx *c, const View *v, int column, int at) {
    if (!(c->flags & P_USED)) return 1;
    const State *s = &c->s;
    Uses u;
    uses_init(&u, c, v, column, at);
    if (at > s->down[column]) return uses_uncovered(&u, column, at - 1, s->col[column][at]);
    return s->down[column] || uses_king_for_empty(&u);
}

/* Rule 10 (the core's own; the argument is in search.py): the run a[j..] lifted
   onto column b, each time with a use of the card U it uncovers right after
   it: U home, or U's other holder H' onto U from a column, the talon or its
   foundation. */
static void pairs_for(const Ctx *c, const View *v, int a, int j, int b, int n, Frame *pairs) {
    const State *s = &c->s;
    int under = s->col[a][j - 1], head = s->col[a][j];
    if (fits_home(s, under)) push_pair(pairs, a, b, n, K_COL_HOME, a, suit_of(under), 1, 0);
    for (int w = 0; w < 2; w++) {
        int other = holds(under, w);
        if (other < 0 || other == head) continue;
        int column = v->col_of[other];
        if (column >= 0) {
            if (column != a && column != b && second_used(c, v, column, v->at_of[other]))
                push_pair(pairs, a, b, n, K_RUN, column, a, s->len[column] - v->at_of[other], 0);
        } else if (foundation_top(s, other)) {
            if (!(c->flags & P_HELD_RETURNS) || held_now(c, v, other))
                push_pair(pairs, a, b, n, K_RETURN, suit_of(other), a, 1, 0);
        } else if ((v->in_talon >> other & 1) && (c->draw == 3 || !(c->flags & P_USED) ||
                                                   held_now(c, v, other))) {
            uint8_t tops[MAX_TALON + 1];
            int reached = reach(c->draw, s->n, s->ptr, tops);
            for (int r = 0; r < reached; r++)
                if (s->talon[tops[r] - 1] == other) {
                    push_pair(pairs, a, b, n, K_TALON_TO, 0, a, 1, tops[r]);
                    break;
                }
        }
    }
}

static void children(Ctx *c, Frame *f) {
    const State *s = &c->s;
    f->count = f->next = 0;
    if (((c->flags & P_SAFE) || !c->exact) && safe_move(c, f)) return;
    View v;
    look(c, &v);
    int used = (c->flags & P_USED) || !c->exact;
    Move turning[MAX_CHILDREN], others[MAX_CHILDREN], emptying[MAX_CHILDREN], partial[MAX_CHILDREN];
    int depth_of[MAX_CHILDREN];
    int nt = 0, no = 0, ne = 0, np = 0;
    Frame tmp, pairs;
    pairs.count = 0;
#define ADD(list, n, kind_, a_, b_, cnt_)                                                        \
    do {                                                                                         \
        tmp.count = 0;                                                                           \
        push(&tmp, kind_, a_, b_, cnt_, 0);                                                      \
        list[n++] = tmp.moves[0];                                                                \
    } while (0)
    for (int i = 0; i < NCOL; i++) {
        int card = v.tops[i];
        if (card >= 0 && fits_home(s, card)) {
            int turns = s->len[i] - 1 == s->down[i] && s->down[i];
            if (turns) { depth_of[nt] = -s->down[i]; ADD(turning, nt, K_COL_HOME, i, suit_of(card), 1); }
            else ADD(others, no, K_COL_HOME, i, suit_of(card), 1);
        }
    }
    for (int b = 0; b < NCOL; b++) {
        int target = v.tops[b];
        int heads[4], nh = 0;
        if (target >= 0) {
            for (int w = 0; w < 2; w++) if (holds(target, w) >= 0) heads[nh++] = holds(target, w);
        } else {
            int first = 0;
            for (int k = 0; k < v.n_empties; k++) first |= v.empties[k] == b;
            if (first) for (int suit = 0; suit < 4; suit++) heads[nh++] = suit * 13 + KING - 1;
        }
        for (int h = 0; h < nh; h++) {
            int head = heads[h];
            int a = v.col_of[head];
            if (a < 0 || a == b) continue;
            int j = v.at_of[head], down = s->down[a], kind;
            if (j == down) {
                if (!down && target < 0) continue; /* rule 5: a King shuffle */
                kind = down ? REVEALS : EMPTIES;
            } else {
                kind = PARTIAL;
            }
            int n = s->len[a] - j;
            Uses u;
            if (kind == EMPTIES) {
                uses_init(&u, c, &v, a, j);
                if (used && !uses_king_for_empty(&u)) continue;
            } else if (kind == PARTIAL) {
                if (c->exact && (c->flags & P_COMPOUND)) {
                    pairs_for(c, &v, a, j, b, n, &pairs);
                    continue;
                }
                if (!c->exact) {
                    if (!fits_home(s, s->col[a][j - 1])) continue;
                } else if (used) {
                    uses_init(&u, c, &v, a, j);
                    if (!uses_uncovered(&u, a, j - 1, s->col[a][j])) continue;
                }
            }
            if (kind == REVEALS) { depth_of[nt] = -down; ADD(turning, nt, K_RUN, a, b, n); }
            else if (kind == EMPTIES) ADD(emptying, ne, K_RUN, a, b, n);
            else ADD(partial, np, K_RUN, a, b, n);
        }
    }
    /* turning: deepest column first, stable */
    for (int i = 1; i < nt; i++) {
        Move m = turning[i];
        int d = depth_of[i], j = i - 1;
        while (j >= 0 && depth_of[j] > d) { depth_of[j + 1] = depth_of[j]; turning[j + 1] = turning[j]; j--; }
        depth_of[j + 1] = d;
        turning[j + 1] = m;
    }
    for (int i = 0; i < nt; i++) f->moves[f->count++] = turning[i];
    for (int i = 0; i < no; i++) f->moves[f->count++] = others[i];
    int talon_from = f->count;
    /* talon plays, nearest first; at turn-1 (rule 8) onto a column only a held card */
    uint8_t tops[MAX_TALON + 1];
    int reached = reach(c->draw, s->n, s->ptr, tops);
    int chain = used && c->draw == 1;
    for (int r = 0; r < reached; r++) {
        int q = tops[r], card = s->talon[q - 1];
        if (fits_home(s, card)) push(f, K_TALON_HOME, 0, suit_of(card), 1, q);
        int to[NCOL];
        int nto = targets(&v, card, to);
        if (!nto) continue;
        if (chain) {
            Uses u;
            uses_init(&u, c, &v, -1, 0);
            if (!uses_held(&u, card)) continue;
        }
        for (int k = 0; k < nto; k++) push(f, K_TALON_TO, 0, to[k], 1, q);
    }
    int talon_to = f->count;
    for (int i = 0; i < ne; i++) f->moves[f->count++] = emptying[i];
    for (int i = 0; i < np; i++) f->moves[f->count++] = partial[i];
    for (int i = 0; i < pairs.count && f->count < MAX_CHILDREN; i++) f->moves[f->count++] = pairs.moves[i];
    int after_partial = f->count;
    if (c->exact) {
        for (int suit = 0; suit < 4; suit++) {
            int rank = s->found[suit];
            if (!rank || ((c->flags & P_RETURNS) && useless_return(s, suit))) continue;
            int card = suit * 13 + rank - 1;
            if ((c->flags & P_HELD_RETURNS) && !return_used(c, &v, suit)) continue;
            int to[NCOL];
            int nto = targets(&v, card, to);
            for (int k = 0; k < nto; k++) push(f, K_RETURN, suit, to[k], 1, 0);
        }
    }
    if (c->rng && f->count > 1) {
        int bounds[5] = {nt, talon_from, talon_to, talon_to + ne, after_partial};
        blur(c, f, bounds, 5);
    }
#undef ADD
}

/* ---- the walk ---- */

static int finished(const State *s) {
    if (s->n) return 0;
    for (int i = 0; i < NCOL; i++)
        if (s->down[i]) return 0;
    return 1;
}

/* The home moves that end a finished state, column by column. */
static void finish_line(Ctx *c) {
    State s = c->s;
    c->finish_count = 0;
    while (s.home < DECK) {
        int played = 0;
        for (int i = 0; i < NCOL && !played; i++) {
            if (!s.len[i]) continue;
            int card = s.col[i][s.len[i] - 1];
            if (!fits_home(&s, card)) continue;
            Move m = {K_FINISH_HOME, (uint8_t)i, (uint8_t)suit_of(card), 1, 0, 0, 0, 0};
            uint8_t idx = 0;
            apply(&s, &m, &idx);
            c->finish[c->finish_count++] = m;
            played = 1;
        }
        if (!played) return; /* cannot happen (the argument at the top) */
    }
}

/* Apply the child at f->next (one move, or two for a pair) onto the path. */
static void enter_child(Ctx *c, Frame *f, int *plen) {
    int parts = f->moves[f->next].pair ? 2 : 1;
    for (int i = 0; i < parts; i++) {
        Move *m = &c->path[*plen];
        *m = f->moves[f->next++];
        apply(&c->s, m, &c->path_idx[*plen]);
        recode(&c->s, m);
        (*plen)++;
    }
}

static void back_to(Ctx *c, int *plen, int length) {
    while (*plen > length) {
        (*plen)--;
        undo(&c->s, &c->path[*plen], c->path_idx[*plen]);
        recode(&c->s, &c->path[*plen]);
    }
}

/* 1: won (path and finish hold the line), 0: no win in the graph, -1: budget. */
static int walk(Ctx *c) {
    static const int BUDGET = -1;
    Key k;
    int plen = 0;
    c->depth = 0;
    if (c->s.home == DECK || finished(&c->s)) { finish_line(c); return 1; }
    make_key(c, &k);
    if (table_add(&c->seen, &k) < 0) return BUDGET;
    c->nodes = 1;
    if (dead(c)) return 0;
    children(c, &c->frames[0]);
    c->frames[0].entered_at = 0;
    int top = 0; /* frames[top] is the frame being walked */
    for (;;) {
        Frame *f = &c->frames[top];
        if (f->next >= f->count) {
            if (top == 0) return 0;
            back_to(c, &plen, f->entered_at);
            top--;
            continue;
        }
        int before = plen;
        enter_child(c, f, &plen);
        if (c->s.home == DECK || finished(&c->s)) {
            c->depth = plen;
            finish_line(c);
            return 1;
        }
        make_key(c, &k);
        int added = table_add(&c->seen, &k);
        if (added < 0) return BUDGET;
        if (added == 0) { back_to(c, &plen, before); continue; }
        c->nodes++;
        if ((c->node_limit && c->nodes > c->node_limit) ||
            (c->deadline && c->nodes % TIME_CHECK_EVERY == 0 && now_s() > c->deadline))
            return BUDGET;
        if (dead(c) || top + 1 >= MAX_DEPTH) { back_to(c, &plen, before); continue; }
        top++;
        children(c, &c->frames[top]);
        c->frames[top].entered_at = before;
    }
}

/* ---- the line, in the engine's notation ---- */

static int append_move(PyObject *line, const Move *m, int draw) {
    char text[16];
    switch (m->kind) {
    case K_COL_HOME:
    case K_FINISH_HOME:
        snprintf(text, sizeof text, "t%d-f%d", m->a + 1, m->b + 1);
        return append_text(line, text);
    case K_RUN:
        if (m->cnt > 1) snprintf(text, sizeof text, "t%d-t%dx%d", m->a + 1, m->b + 1, m->cnt);
        else snprintf(text, sizeof text, "t%d-t%d", m->a + 1, m->b + 1);
        return append_text(line, text);
    case K_RETURN:
        snprintf(text, sizeof text, "f%d-t%d", m->a + 1, m->b + 1);
        return append_text(line, text);
    default: { /* a talon play: the turns and redeals that bring q to the top */
        int at = m->ptr_before, n = m->n_before;
        for (int guard = 0; !(at >= 1 && at == m->q) && guard < 64; guard++) {
            if (at < n) { at = at + draw < n ? at + draw : n; if (append_text(line, "D")) return -1; }
            else { at = 0; if (append_text(line, "R")) return -1; }
        }
        if (m->kind == K_TALON_HOME) snprintf(text, sizeof text, "w-f%d", m->b + 1);
        else snprintf(text, sizeof text, "w-t%d", m->b + 1);
        return append_text(line, text);
    }
    }
}

/* search(columns, talon, ptr, foundations, draw, exact, flags, node_limit, seconds,
          seed, table_mb) -> (status, line, nodes)
   columns: seven bytes objects, each its face-down count then its cards bottom
   first; talon: the waste bottom first then the stock in the order it turns;
   ptr: how many talon cards lie on the waste; foundations: four counts.
   status: "won" (line: the engine's moves), "exhausted" (no win in the graph:
   with exact, the position is lost), "budget". seed 0: the fixed order. */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *columns;
    Py_buffer talon, found;
    int ptr, draw, exact, flags, table_mb;
    long long node_limit;
    unsigned long long seed;
    double seconds;
    if (!PyArg_ParseTuple(args, "O!y*iy*ipiLdKi", &PyTuple_Type, &columns, &talon, &ptr, &found,
                          &draw, &exact, &flags, &node_limit, &seconds, &seed, &table_mb))
        return NULL;
    PyObject *result = NULL;
    Ctx *c = calloc(1, sizeof(Ctx));
    int bad = c == NULL || PyTuple_GET_SIZE(columns) != NCOL || talon.len > MAX_TALON ||
              found.len != 4 || ptr < 0 || ptr > talon.len || (draw != 1 && draw != 3);
    uint64_t cards = 0;
    int count = 0;
    if (!bad) {
        State *s = &c->s;
        for (int i = 0; i < NCOL && !bad; i++) {
            PyObject *column = PyTuple_GET_ITEM(columns, i);
            if (!PyBytes_Check(column) || PyBytes_GET_SIZE(column) < 1 ||
                PyBytes_GET_SIZE(column) > MAX_COL + 1) { bad = 1; break; }
            const uint8_t *bytes = (const uint8_t *)PyBytes_AS_STRING(column);
            int len = (int)PyBytes_GET_SIZE(column) - 1;
            s->down[i] = bytes[0];
            s->len[i] = (uint8_t)len;
            bad |= bytes[0] > MAX_DOWN || (len && bytes[0] >= len) || (!len && bytes[0]);
            for (int j = 0; j < len && !bad; j++) {
                int card = bytes[j + 1];
                bad |= card >= DECK || (cards >> card & 1);
                if (!bad) { cards |= 1ULL << card; count++; s->col[i][j] = (uint8_t)card; }
            }
        }
        const uint8_t *t = talon.buf;
        for (int i = 0; i < talon.len && !bad; i++) {
            bad |= t[i] >= DECK || (cards >> t[i] & 1);
            if (!bad) { cards |= 1ULL << t[i]; count++; s->talon[i] = t[i]; s->tidx[i] = (uint8_t)i; }
        }
        s->n = (int)talon.len;
        s->ptr = ptr;
        const uint8_t *fd = found.buf;
        s->home = 0;
        for (int suit = 0; suit < 4 && !bad; suit++) {
            bad |= fd[suit] > 13;
            s->found[suit] = fd[suit];
            s->home += fd[suit];
            for (int r = 0; r < fd[suit] && !bad; r++) {
                int card = suit * 13 + r;
                bad |= cards >> card & 1;
                cards |= 1ULL << card;
                count++;
            }
        }
        bad |= count != DECK;
    }
    if (bad) {
        if (c == NULL) PyErr_NoMemory();
        else PyErr_SetString(PyExc_ValueError, "bad position");
        goto done;
    }
    for (int i = 0; i < NCOL; i++) c->s.code[i] = column_code(&c->s, i);
    c->draw = draw;
    c->exact = exact;
    c->flags = flags;
    c->node_limit = node_limit > 0 ? node_limit : 0;
    c->deadline = seconds > 0 ? now_s() + seconds : 0;
    c->rng = seed ? seed * 0x9E3779B97F4A7C15ULL | 1 : 0;
    size_t max_capacity = ((size_t)(table_mb > 0 ? table_mb : 256) << 20) / sizeof(Key);
    size_t power = 1;
    while (power * 2 <= max_capacity) power *= 2;
    c->frames = malloc(sizeof(Frame) * MAX_DEPTH);
    if (c->frames == NULL ||
        !table_init(&c->seen, power < (1 << 14) ? power : (1 << 14), power)) {
        PyErr_NoMemory();
        goto done;
    }
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = walk(c);
    Py_END_ALLOW_THREADS
    PyObject *line = PyList_New(0);
    if (line == NULL) goto done;
    if (status == 1) {
        for (int i = 0; i < c->depth; i++)
            if (append_move(line, &c->path[i], draw)) { Py_DECREF(line); goto done; }
        for (int i = 0; i < c->finish_count; i++)
            if (append_move(line, &c->finish[i], draw)) { Py_DECREF(line); goto done; }
    }
    const char *name = status == 1 ? "won" : status == 0 ? "exhausted" : "budget";
    result = Py_BuildValue("(sNL)", name, line, c->nodes);
done:
    if (c) { slots_free(c->seen.slots, c->seen.capacity); free(c->frames); free(c); }
    PyBuffer_Release(&talon);
    PyBuffer_Release(&found);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, "Search a compact Klondike position; see _core.c."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", NULL, -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
