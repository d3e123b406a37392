/*
 * The two-deck Tomb's compiled core: the same search as search.py beside it
 * (read its docstring for the classes of lateral moves, every pruning rule,
 * the safe home moves and the dead test, each with its argument), in C for
 * speed. search.py stays the reference; the tests run both, and each against
 * the plain search with its rules switched off, on small late positions.
 *
 * What is the core's own:
 *
 * - The table holds every class entered (not only failed ones): the graph of
 *   classes has no cycle and a depth-first walk that never enters a class
 *   twice reaches a win from the start exactly when the graph holds one.
 * - Keys are exact, never hashes (a collision could fake a loss). A wall is
 *   always a bottom slice of the wall it started as: its side and its length.
 *   A working place and the centre are runs up in suit: their bottom card and
 *   length. The bases: suit and count each. The waste piles and the stock as
 *   a *segment* (the cards they held when the search began or at the last
 *   gathering, in the order they lie, each with its pile) interned once, with
 *   how many of its stock cards are dealt and which of its cards are gone
 *   (cards only leave a waste pile from its top, and a deal of the round
 *   always sends its i-th stock card to pile i mod piles). With ``symmetry``
 *   the four (wall, place) pairs and the four bases are sorted.
 * - A class's key is the least key of its members (any fixed choice names the
 *   class; it need not be the reference's).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core_common.h"

#define CARDS 104
#define ROUNDS 5
#define MAX_WALL 15
#define MAX_TALON 64
#define MAX_MEMBERS 128
#define MAX_CHILDREN 2048
#define MAX_DEPTH 1200
#define MAX_PATH 16384
#define TIME_CHECK_EVERY 256

/* Pruning flags: search.py's Pruning, one bit each. */
#define P_SYMMETRY 1
#define P_SINGLES 2
#define P_SAFE 4
#define P_DEAD 8

enum { K_CARD, K_STACK, K_DEAL, K_REDEAL };

typedef struct {
    uint8_t kind, src, tgt, cnt; /* src 0..13 (walls, places, centre, waste), tgt 0..8 */
} Move;

typedef struct {
    uint64_t gone;            /* segment cards no longer in the waste */
    uint32_t seg;             /* the interned segment */
    uint8_t wlen[4];          /* wall i is the start's wall i, cut to this length */
    uint8_t pbot[4], plen[4]; /* working places: bottom face, length */
    uint8_t cbot, clen;       /* the centre */
    int8_t bsuit[4];          /* -1: an empty corner */
    uint8_t bcnt[4];
    uint8_t dealt, round, home;
} State;

typedef struct {
    uint64_t w[4];
} Key;

typedef struct {
    int n, nwaste, round;     /* cards, of which the first nwaste lay on the waste at its start */
    uint8_t card[MAX_TALON], pile[MAX_TALON];
} Segment;

typedef struct {
    Key *slots;
    size_t capacity, count, max_capacity;
} Table;

typedef struct {
    State s;
    int16_t parent;
    Move move; /* the lateral move from the parent */
} Member;

typedef struct {
    uint16_t member;
    Move move;
} Child;

typedef struct {
    Member members[MAX_MEMBERS];
    int nmembers;
    Child children[MAX_CHILDREN];
    int count, next;
    int path_at; /* the path's length once this frame's state is reached */
} Frame;

typedef struct {
    uint8_t wall[4][MAX_WALL];
    int exact, flags;
    Table seen;
    Segment **segs;
    int nsegs, capsegs;
    uint32_t *seg_index; /* open addressing over segment ids + 1 */
    size_t seg_cap;
    long long nodes, node_limit;
    double deadline;
    uint64_t rng; /* 0: the fixed order (a greedy restart's seed otherwise) */
    int overflow;
    Frame *frames;
    Move path[MAX_PATH];
    int plen;
} Ctx;

static inline int suit_of(int c) { return c / 13; }
static inline int rank_of(int c) { return c % 13 + 1; }

/* ---- the tables ---- */

static inline uint64_t key_hash(const Key *k) {
    return mix(mix(mix(mix(k->w[0]) ^ k->w[1]) ^ k->w[2]) ^ k->w[3]);
}

static int table_init(Table *t, size_t capacity, size_t max_capacity) {
    t->slots = calloc(capacity, sizeof(Key));
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
    Key *slots = calloc(bigger, sizeof(Key));
    if (slots == NULL) return 0;
    for (size_t i = 0; i < t->capacity; i++)
        if (t->slots[i].w[3]) table_put_slot(slots, bigger, &t->slots[i]);
    free(t->slots);
    t->slots = slots;
    t->capacity = bigger;
    return 1;
}

/* 1: added, 0: already there, -1: full. */
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

static uint64_t seg_hash(const Segment *g) {
    uint64_t h = mix((uint64_t)g->n * 131 + (uint64_t)g->nwaste * 7 + (uint64_t)g->round);
    for (int i = 0; i < g->n; i++) h = mix(h ^ ((uint64_t)g->card[i] << 8 | g->pile[i]));
    return h;
}

static int seg_same(const Segment *a, const Segment *b) {
    return a->n == b->n && a->nwaste == b->nwaste && a->round == b->round &&
           memcmp(a->card, b->card, a->n) == 0 && memcmp(a->pile, b->pile, a->n) == 0;
}

static int seg_rehash(Ctx *c, size_t cap) {
    uint32_t *index = calloc(cap, sizeof(uint32_t));
    if (index == NULL) return 0;
    for (int id = 0; id < c->nsegs; id++) {
        size_t i = seg_hash(c->segs[id]) & (cap - 1);
        while (index[i]) i = (i + 1) & (cap - 1);
        index[i] = (uint32_t)id + 1;
    }
    free(c->seg_index);
    c->seg_index = index;
    c->seg_cap = cap;
    return 1;
}

/* The id of a segment (added when new), or -1 out of memory. */
static int seg_intern(Ctx *c, const Segment *g) {
    if ((size_t)(c->nsegs + 1) * 2 > c->seg_cap && !seg_rehash(c, c->seg_cap * 2)) return -1;
    size_t i = seg_hash(g) & (c->seg_cap - 1);
    while (c->seg_index[i]) {
        if (seg_same(c->segs[c->seg_index[i] - 1], g)) return (int)c->seg_index[i] - 1;
        i = (i + 1) & (c->seg_cap - 1);
    }
    if (c->nsegs == c->capsegs) {
        int more = c->capsegs ? c->capsegs * 2 : 1024;
        Segment **segs = realloc(c->segs, sizeof(Segment *) * more);
        if (segs == NULL) return -1;
        c->segs = segs;
        c->capsegs = more;
    }
    Segment *copy = malloc(sizeof(Segment));
    if (copy == NULL) return -1;
    *copy = *g;
    c->segs[c->nsegs] = copy;
    c->seg_index[i] = (uint32_t)c->nsegs + 1;
    return c->nsegs++;
}

/* ---- reading a state ---- */

static inline int piles_of(int round) { return ROUNDS + 1 - round; }

/* The waste piles' tops (-1 when empty) and, when asked, their segment index. */
static void waste_tops(const Ctx *c, const State *s, int *top, int *at) {
    const Segment *g = c->segs[s->seg];
    int found = 0;
    for (int j = 0; j < 5; j++) { top[j] = -1; if (at) at[j] = -1; }
    for (int u = g->nwaste + s->dealt - 1; u >= 0 && found < 5; u--) {
        if (s->gone >> u & 1) continue;
        int j = g->pile[u];
        if (top[j] < 0) { top[j] = g->card[u]; if (at) at[j] = u; found++; }
    }
}

static inline int src_card(const Ctx *c, const State *s, int src, const int *tops) {
    if (src < 4) return s->wlen[src] ? c->wall[src][s->wlen[src] - 1] : -1;
    if (src < 8) return s->plen[src - 4] ? s->pbot[src - 4] + s->plen[src - 4] - 1 : -1;
    if (src == 8) return s->clen ? s->cbot + s->clen - 1 : -1;
    return tops[src - 9];
}

static inline int src_len(const State *s, int src) {
    if (src >= 4 && src < 8) return s->plen[src - 4];
    if (src == 8) return s->clen;
    return 1;
}

static int base_of_suit(const State *s, int suit) {
    for (int b = 0; b < 4; b++) if (s->bsuit[b] == suit) return b;
    return -1;
}

static inline int count_of_suit(const State *s, int suit) {
    int b = base_of_suit(s, suit);
    return b < 0 ? 0 : s->bcnt[b];
}

static int base_takes(const State *s, int b, int card) {
    if (s->bsuit[b] < 0) return rank_of(card) == 13 && base_of_suit(s, suit_of(card)) < 0;
    int n = s->bcnt[b];
    return s->bsuit[b] == suit_of(card) && n < 26 && rank_of(card) == 13 - n % 13;
}

static inline int place_takes(const State *s, int t, int card) {
    if (!s->plen[t]) return 0;
    int top = s->pbot[t] + s->plen[t] - 1;
    return suit_of(top) == suit_of(card) && rank_of(card) == rank_of(top) + 1 && rank_of(top) != 1;
}

static inline int centre_takes(const State *s, int card) {
    if (!s->clen) return rank_of(card) == 1;
    int top = s->cbot + s->clen - 1;
    return suit_of(top) == suit_of(card) && rank_of(card) == rank_of(top) + 1;
}

/* ---- keys ---- */

static void make_key(const Ctx *c, const State *s, Key *k) {
    uint16_t pairs[4];
    uint8_t bases[4];
    for (int i = 0; i < 4; i++) {
        int wall = s->wlen[i] ? (i << 4 | s->wlen[i]) : 0;
        int place = s->plen[i] ? (s->pbot[i] << 4 | s->plen[i]) : 0;
        pairs[i] = (uint16_t)(wall << 10 | place);
        bases[i] = s->bsuit[i] < 0 ? 0 : (uint8_t)(s->bsuit[i] << 5 | s->bcnt[i]);
    }
    if (c->flags & P_SYMMETRY) { /* four items: an insertion sort */
        for (int i = 1; i < 4; i++)
            for (int j = i; j > 0 && pairs[j - 1] > pairs[j]; j--) {
                uint16_t t = pairs[j]; pairs[j] = pairs[j - 1]; pairs[j - 1] = t;
            }
        for (int i = 1; i < 4; i++)
            for (int j = i; j > 0 && bases[j - 1] > bases[j]; j--) {
                uint8_t t = bases[j]; bases[j] = bases[j - 1]; bases[j - 1] = t;
            }
    }
    k->w[0] = s->gone;
    k->w[1] = (uint64_t)s->seg << 16 | (uint64_t)s->dealt << 8 | s->round;
    k->w[2] = (uint64_t)pairs[0] << 48 | (uint64_t)pairs[1] << 32 | (uint64_t)pairs[2] << 16 | pairs[3];
    uint64_t centre = s->clen ? (uint64_t)(s->cbot << 4 | s->clen) : 0;
    k->w[3] = 1ULL << 63 | centre << 32 | (uint64_t)bases[0] << 24 | (uint64_t)bases[1] << 16 |
              (uint64_t)bases[2] << 8 | bases[3];
}

static int key_less(const Key *a, const Key *b) {
    for (int i = 0; i < 4; i++)
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i];
    return 0;
}

/* ---- moves ---- */

/* Lift the free card of src (a working place emptied is refilled from its wall). */
static void lift(const Ctx *c, State *s, int src, const int *at) {
    if (src < 4) { s->wlen[src]--; return; }
    if (src < 8) {
        int i = src - 4;
        if (--s->plen[i] == 0 && s->wlen[i]) {
            s->pbot[i] = c->wall[i][s->wlen[i] - 1];
            s->plen[i] = 1;
            s->wlen[i]--;
        }
        return;
    }
    if (src == 8) { s->clen--; return; }
    s->gone |= 1ULL << at[src - 9];
}

static void put(State *s, int tgt, int card) {
    if (tgt < 4) {
        if (s->bsuit[tgt] < 0) { s->bsuit[tgt] = (int8_t)suit_of(card); s->bcnt[tgt] = 0; }
        s->bcnt[tgt]++;
        s->home++;
    } else if (tgt < 8) {
        s->plen[tgt - 4]++;
    } else {
        if (!s->clen) s->cbot = (uint8_t)card;
        s->clen++;
    }
}

/* Play m on s; 1 done, 0 out of memory (a new segment). */
static int apply(Ctx *c, State *s, const Move *m) {
    if (m->kind == K_DEAL) {
        const Segment *g = c->segs[s->seg];
        int left = g->n - g->nwaste - s->dealt, p = piles_of(s->round);
        s->dealt += left < p ? left : p;
        return 1;
    }
    if (m->kind == K_REDEAL) {
        const Segment *g = c->segs[s->seg];
        Segment fresh;
        fresh.n = 0;
        fresh.nwaste = 0;
        fresh.round = s->round + 1;
        int p = piles_of(fresh.round);
        for (int j = 4; j >= 0; j--) /* pile 5 at the bottom: its bottom card is dealt first */
            for (int u = 0; u < g->nwaste + s->dealt; u++)
                if (g->pile[u] == j && !(s->gone >> u & 1)) {
                    fresh.card[fresh.n] = g->card[u];
                    fresh.pile[fresh.n] = (uint8_t)(fresh.n % p);
                    fresh.n++;
                }
        int id = seg_intern(c, &fresh);
        if (id < 0) return 0;
        s->seg = (uint32_t)id;
        s->gone = 0;
        s->dealt = 0;
        s->round++;
        return 1;
    }
    int tops[5], at[5];
    waste_tops(c, s, tops, at);
    int count = m->kind == K_STACK ? m->cnt : 1;
    for (int i = 0; i < count; i++) {
        int card = src_card(c, s, m->src, tops);
        lift(c, s, m->src, at);
        put(s, m->tgt, card);
    }
    return 1;
}

/* ---- the dead test and the safe home moves (search.py's argument) ---- */

static inline int copies_home(int count, int rank) {
    return (count > 13 - rank) + (count > 26 - rank);
}

/* search.py's stuck(): card i of the pile leaves it only for its base. */
static int stuck(const State *s, const uint8_t *pile, int i) {
    int x = pile[i], r = rank_of(x);
    if (r == 1) return 0;
    int preds = copies_home(count_of_suit(s, suit_of(x)), r - 1);
    for (int j = 0; j < i; j++) preds += pile[j] == x - 1;
    return preds >= 2;
}

/* search.py's pile_dead(): the pile bottom first, read from the top down. */
static int pile_dead(const State *s, const uint8_t *pile, int n) {
    int last[4] = {-1, -1, -1, -1};
    for (int i = n - 1; i >= 0; i--) {
        int x = pile[i], suit = suit_of(x), r = rank_of(x), count = count_of_suit(s, suit);
        int place = -1;
        if (13 - r >= count && 13 - r > last[suit]) place = 13 - r;
        else if (26 - r >= count && 26 - r > last[suit]) place = 26 - r;
        if (place < 0) return 1;
        if (stuck(s, pile, i)) last[suit] = place;
    }
    return 0;
}

/* Only the fifth round's waste piles: a wall's top card may wait in its working place
   (a refill) while the cards under it leave (search.py, rule 5). */
static int dead(const Ctx *c, const State *s) {
    if (s->round == ROUNDS) {
        const Segment *g = c->segs[s->seg];
        for (int j = 0; j < 5; j++) {
            uint8_t pile[MAX_TALON];
            int n = 0;
            for (int u = 0; u < g->nwaste + s->dealt; u++)
                if (g->pile[u] == j && !(s->gone >> u & 1)) pile[n++] = g->card[u];
            if (pile_dead(s, pile, n)) return 1;
        }
    }
    return 0;
}

/* A card home at its second round's place, from a wall, a working place, the centre,
   or from the waste from round 4 on: the state's only child. */
static int safe_home(const Ctx *c, const State *s, const int *tops, Move *out) {
    for (int src = 0; src < 14; src++) {
        if (src >= 9 && s->round < ROUNDS - 1) break;
        int card = src_card(c, s, src, tops);
        if (card < 0) continue;
        int b = base_of_suit(s, suit_of(card));
        if (b < 0 || s->bcnt[b] < 13 || !base_takes(s, b, card)) continue;
        out->kind = K_CARD; out->src = (uint8_t)src; out->tgt = (uint8_t)b; out->cnt = 1;
        return 1;
    }
    return 0;
}

/* ---- children ---- */

static int add_child(Frame *f, int member, int kind, int src, int tgt, int cnt) {
    if (f->count >= MAX_CHILDREN) return 0;
    Child *ch = &f->children[f->count++];
    ch->member = (uint16_t)member;
    ch->move.kind = (uint8_t)kind; ch->move.src = (uint8_t)src;
    ch->move.tgt = (uint8_t)tgt; ch->move.cnt = (uint8_t)cnt;
    return 1;
}

/* search.py's progress(): cards home, then every other move but the laterals, then D or R. */
static int progress(const Ctx *c, const State *s, int member, Frame *f, int exact) {
    int tops[5];
    waste_tops(c, s, tops, NULL);
    int first_empty = -1, homes = 0;
    for (int b = 0; b < 4; b++) if (s->bsuit[b] < 0) { first_empty = b; break; }
    for (int src = 0; src < 14; src++) {
        int card = src_card(c, s, src, tops);
        if (card < 0) continue;
        for (int b = 0; b < 4; b++) {
            if (s->bsuit[b] < 0 && (c->flags & P_SYMMETRY) && b != first_empty) continue;
            if (!base_takes(s, b, card)) continue;
            if (!add_child(f, member, K_CARD, src, b, 1)) return 0;
            homes++;
            if (!(c->flags & P_SINGLES) && src >= 4 && src < 8 && s->plen[src - 4] > 1)
                if (!add_child(f, member, K_STACK, src, b, s->plen[src - 4])) return 0;
        }
    }
    if (homes && !exact) return 1;
    static const int ORDER[14] = {0, 1, 2, 3, 9, 10, 11, 12, 13, 4, 5, 6, 7, 8};
    for (int k = 0; k < 14; k++) {
        int src = ORDER[k];
        int card = src_card(c, s, src, tops);
        if (card < 0 || (src >= 4 && src < 9 && src_len(s, src) > 1)) continue;
        for (int t = 0; t < 4; t++)
            if (t != src - 4 && place_takes(s, t, card))
                if (!add_child(f, member, K_CARD, src, 4 + t, 1)) return 0;
        if (src != 8 && centre_takes(s, card))
            if (!add_child(f, member, K_CARD, src, 8, 1)) return 0;
    }
    const Segment *g = c->segs[s->seg];
    if (g->nwaste + s->dealt < g->n) {
        if (!add_child(f, member, K_DEAL, 0, 0, 0)) return 0;
    } else if (s->round < ROUNDS) {
        int any = 0;
        for (int j = 0; j < 5; j++) any |= tops[j] >= 0;
        if (any && !add_child(f, member, K_REDEAL, 0, 0, 0)) return 0;
    }
    return 1;
}

/* The class of f->members[0] by its lateral moves; 0 when it is too big. */
static int close_class(Ctx *c, Frame *f) {
    int tops[5] = {-1, -1, -1, -1, -1};
    f->nmembers = 1;
    for (int m = 0; m < f->nmembers; m++) {
        const State *s = &f->members[m].s;
        for (int src = 4; src < 9; src++) {
            if (src_len(s, src) < 2) continue;
            int card = src_card(c, s, src, tops);
            for (int t = 0; t < 5; t++) {
                if (t == src - 4 || (t == 4 && src == 8)) continue;
                if (t < 4 ? !place_takes(s, t, card) : !centre_takes(s, card)) continue;
                State next = *s;
                Move mv = {K_CARD, (uint8_t)src, (uint8_t)(4 + t), 1};
                apply(c, &next, &mv);
                int known = 0;
                for (int o = 0; o < f->nmembers && !known; o++)
                    known = memcmp(&f->members[o].s, &next, sizeof(State)) == 0;
                if (known) continue;
                if (f->nmembers >= MAX_MEMBERS) return 0;
                Member *nm = &f->members[f->nmembers++];
                nm->s = next;
                nm->parent = (int16_t)m;
                nm->move = mv;
            }
        }
    }
    return 1;
}

static void class_key(const Ctx *c, const Frame *f, Key *k) {
    make_key(c, &f->members[0].s, k);
    for (int m = 1; m < f->nmembers; m++) {
        Key other;
        make_key(c, &f->members[m].s, &other);
        if (key_less(&other, k)) *k = other;
    }
}

static uint64_t next_random(Ctx *c) { /* xorshift64* */
    c->rng ^= c->rng >> 12;
    c->rng ^= c->rng << 25;
    c->rng ^= c->rng >> 27;
    return c->rng * 0x2545F4914F6CDD1DULL;
}

/* A greedy restart's order: the children shuffled (each win is still a real line). */
static void shuffle(Ctx *c, Frame *f) {
    for (int i = f->count - 1; i > 0; i--) {
        int j = (int)(next_random(c) % (uint64_t)(i + 1));
        Child t = f->children[i]; f->children[i] = f->children[j]; f->children[j] = t;
    }
}

static int children(Ctx *c, Frame *f) {
    f->count = f->next = 0;
    int members = c->exact ? f->nmembers : 1;
    if (c->flags & P_SAFE) {
        for (int m = 0; m < members; m++) {
            int tops[5];
            Move mv;
            waste_tops(c, &f->members[m].s, tops, NULL);
            if (safe_home(c, &f->members[m].s, tops, &mv)) {
                return add_child(f, m, mv.kind, mv.src, mv.tgt, mv.cnt);
            }
        }
    }
    for (int m = 0; m < members; m++)
        if (!progress(c, &f->members[m].s, m, f, c->exact)) return 0;
    if (c->rng) shuffle(c, f);
    return 1;
}

/* ---- the walk ---- */

/* The moves that lead from the frame's state to its member m, in order. */
static int member_path(const Frame *f, int m, Move *out) {
    Move rev[MAX_MEMBERS];
    int n = 0;
    for (; m > 0; m = f->members[m].parent) rev[n++] = f->members[m].move;
    for (int i = 0; i < n; i++) out[i] = rev[n - 1 - i];
    return n;
}

/* 1: won (the path holds the line), 0: no win in the graph, -1: budget or memory. */
static int walk(Ctx *c, const State *start) {
    Key k;
    c->plen = 0;
    if (start->home == CARDS) return 1;
    Frame *f = &c->frames[0];
    f->members[0].s = *start;
    f->members[0].parent = -1;
    if (!close_class(c, f)) return -1;
    class_key(c, f, &k);
    if (table_add(&c->seen, &k) < 0) return -1;
    c->nodes = 1;
    if ((c->flags & P_DEAD) && dead(c, start)) return 0;
    if (!children(c, f)) return -1;
    f->path_at = 0;
    int top = 0;
    for (;;) {
        f = &c->frames[top];
        if (f->next >= f->count) {
            if (top == 0) return 0;
            top--;
            continue;
        }
        Child *ch = &f->children[f->next++];
        c->plen = f->path_at; /* the path to this frame's state, then the child's moves */
        int n = member_path(f, ch->member, &c->path[c->plen]);
        if (c->plen + n + 1 >= MAX_PATH || top + 1 >= MAX_DEPTH) { c->overflow = 1; return -1; }
        c->plen += n;
        c->path[c->plen++] = ch->move;
        Frame *next = &c->frames[top + 1];
        next->members[0].s = f->members[ch->member].s;
        if (!apply(c, &next->members[0].s, &ch->move)) return -1;
        const State *s = &next->members[0].s;
        if (s->home == CARDS) return 1;
        next->members[0].parent = -1;
        if (!close_class(c, next)) { c->overflow = 1; return -1; }
        class_key(c, next, &k);
        int added = table_add(&c->seen, &k);
        if (added < 0) return -1;
        if (added == 0) continue;
        c->nodes++;
        if ((c->node_limit && c->nodes > c->node_limit) ||
            (c->deadline && c->nodes % TIME_CHECK_EVERY == 0 && now_s() > c->deadline))
            return -1;
        if ((c->flags & P_DEAD) && dead(c, s)) continue;
        if (!children(c, next)) { c->overflow = 1; return -1; }
        next->path_at = c->plen;
        top++;
    }
}

/* ---- the line, in the engine's notation ---- */

static const char *SOURCES[14] = {"n", "w", "e", "s", "pn", "pw", "pe", "ps", "c",
                                  "x1", "x2", "x3", "x4", "x5"};
static const char *TARGETS[9] = {"nw", "ne", "sw", "se", "pn", "pw", "pe", "ps", "c"};

static int append_move(PyObject *line, const Move *m) {
    char text[16];
    if (m->kind == K_DEAL) snprintf(text, sizeof text, "D");
    else if (m->kind == K_REDEAL) snprintf(text, sizeof text, "R");
    else if (m->kind == K_STACK) snprintf(text, sizeof text, "%s-%sx%d", SOURCES[m->src], TARGETS[m->tgt], m->cnt);
    else snprintf(text, sizeof text, "%s-%s", SOURCES[m->src], TARGETS[m->tgt]);
    PyObject *item = PyUnicode_FromString(text);
    if (item == NULL) return -1;
    int failed = PyList_Append(line, item);
    Py_DECREF(item);
    return failed;
}

static int read_bytes(PyObject *o, uint8_t *out, int max) {
    if (!PyBytes_Check(o) || PyBytes_GET_SIZE(o) > max) return -1;
    int n = (int)PyBytes_GET_SIZE(o);
    memcpy(out, PyBytes_AS_STRING(o), n);
    for (int i = 0; i < n; i++) if (out[i] >= 52) return -1;
    return n;
}

/* A run up in suit from its bottom card (a working place, the centre). */
static int is_run(const uint8_t *cards, int n) {
    for (int i = 1; i < n; i++)
        if (cards[i] != cards[i - 1] + 1 || suit_of(cards[i]) != suit_of(cards[0])) return 0;
    return 1;
}

/* search(walls, places, bases, centre, waste, stock, round, exact, flags, node_limit,
          seconds, table_mb, seed) -> (status, line, nodes)
   search.py's state: faces 0..51; walls and places and waste bottom first, the
   stock top last; bases four codes (-1, or suit * 32 + count). status "won" (the
   line in notation), "exhausted" (no win in the graph: with exact, lost), "budget".
   seed 0: the fixed order; else the greedy restart's shuffled order. */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *walls, *places, *bases, *centre, *waste, *stock;
    int round, exact, flags, table_mb;
    long long node_limit;
    unsigned long long seed;
    double seconds;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!O!SO!SipiLdiK", &PyTuple_Type, &walls, &PyTuple_Type, &places,
                          &PyTuple_Type, &bases, &centre, &PyTuple_Type, &waste, &stock, &round,
                          &exact, &flags, &node_limit, &seconds, &table_mb, &seed))
        return NULL;
    PyObject *result = NULL;
    Ctx *c = calloc(1, sizeof(Ctx));
    State start;
    memset(&start, 0, sizeof start);
    int bad = c == NULL || PyTuple_GET_SIZE(walls) != 4 || PyTuple_GET_SIZE(places) != 4 ||
              PyTuple_GET_SIZE(bases) != 4 || PyTuple_GET_SIZE(waste) != 5 || round < 1 ||
              round > ROUNDS;
    Segment first;
    memset(&first, 0, sizeof first);
    if (!bad) {
        start.round = (uint8_t)round;
        for (int i = 0; i < 4 && !bad; i++) {
            int n = read_bytes(PyTuple_GET_ITEM(walls, i), c->wall[i], MAX_WALL);
            bad |= n < 0;
            start.wlen[i] = (uint8_t)(n < 0 ? 0 : n);
            uint8_t pile[16];
            n = read_bytes(PyTuple_GET_ITEM(places, i), pile, 13);
            bad |= n < 0 || !is_run(pile, n < 0 ? 0 : n) || (n == 0 && start.wlen[i]);
            start.plen[i] = (uint8_t)(n < 0 ? 0 : n);
            start.pbot[i] = n > 0 ? pile[0] : 0;
            long code = PyLong_AsLong(PyTuple_GET_ITEM(bases, i));
            bad |= code < -1 || (code >= 0 && (code / 32 > 3 || code % 32 < 1 || code % 32 > 26));
            start.bsuit[i] = (int8_t)(code < 0 ? -1 : code / 32);
            start.bcnt[i] = (uint8_t)(code < 0 ? 0 : code % 32);
            start.home += start.bcnt[i];
        }
        if (PyErr_Occurred()) bad = 1;
        uint8_t pile[16];
        int n = read_bytes(centre, pile, 13);
        bad |= n < 0 || !is_run(pile, n < 0 ? 0 : n);
        start.clen = (uint8_t)(n < 0 ? 0 : n);
        start.cbot = n > 0 ? pile[0] : 0;
        first.round = round;
        for (int j = 0; j < 5 && !bad; j++) {
            uint8_t cards[MAX_TALON];
            n = read_bytes(PyTuple_GET_ITEM(waste, j), cards, MAX_TALON);
            if (n < 0 || first.n + n > MAX_TALON) { bad = 1; break; }
            for (int i = 0; i < n; i++) { first.card[first.n] = cards[i]; first.pile[first.n++] = (uint8_t)j; }
        }
        first.nwaste = first.n;
        uint8_t cards[MAX_TALON];
        n = bad ? -1 : read_bytes(stock, cards, MAX_TALON);
        if (n < 0 || first.n + n > MAX_TALON) bad = 1;
        int p = piles_of(round);
        for (int i = 0; i < n && !bad; i++) { /* top last: the first dealt is the last byte */
            first.card[first.n] = cards[n - 1 - i];
            first.pile[first.n++] = (uint8_t)(i % p);
        }
    }
    if (bad) {
        if (c == NULL) PyErr_NoMemory();
        else if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad position");
        goto done;
    }
    c->exact = exact;
    c->flags = flags;
    c->node_limit = node_limit > 0 ? node_limit : 0;
    c->deadline = seconds > 0 ? now_s() + seconds : 0;
    c->rng = seed ? seed * 0x9E3779B97F4A7C15ULL | 1 : 0;
    size_t max_capacity = ((size_t)(table_mb > 0 ? table_mb : 256) << 20) / sizeof(Key);
    size_t power = 1;
    while (power * 2 <= max_capacity) power *= 2;
    c->frames = malloc(sizeof(Frame) * MAX_DEPTH);
    if (c->frames == NULL || !seg_rehash(c, 1024) ||
        !table_init(&c->seen, power < (1 << 14) ? power : (1 << 14), power)) {
        PyErr_NoMemory();
        goto done;
    }
    int id = seg_intern(c, &first);
    if (id < 0) { PyErr_NoMemory(); goto done; }
    start.seg = (uint32_t)id;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = walk(c, &start);
    Py_END_ALLOW_THREADS
    PyObject *line = PyList_New(0);
    if (line == NULL) goto done;
    if (status == 1)
        for (int i = 0; i < c->plen; i++)
            if (append_move(line, &c->path[i])) { Py_DECREF(line); goto done; }
    const char *name = status == 1 ? "won" : status == 0 ? "exhausted" : "budget";
    result = Py_BuildValue("(sNL)", name, line, c->nodes);
done:
    if (c) {
        free(c->seen.slots);
        free(c->frames);
        for (int i = 0; i < c->nsegs; i++) free(c->segs[i]);
        free(c->segs);
        free(c->seg_index);
        free(c);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, "Search a compact two-deck Tomb position; see _core.c."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", NULL, -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
