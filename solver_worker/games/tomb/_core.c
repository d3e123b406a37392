/*
 * The Tomb's compiled core: the same search as search.py beside it
 * (read its docstring for every pruning rule and the argument for it), in C
 * for speed. search.py stays the reference; the tests run both against a
 * plain exhaustive search. Restarts (search.py's docstring, "Restarts") are
 * the core's alone: without them the two search the same tree node for node.
 *
 * A position is kept as rank arrays with the top of stock and waste last,
 * a multiset of cell ranks, the tomb's card count and the four corner
 * heights kept sorted (corners are interchangeable). Moves are made and
 * undone in place. The transposition table stores failed states under an
 * exact key (no hash-only keys: a collision could fake a loss); when it is
 * full it forgets its least costly entries to take new ones (table_replace).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core_common.h"

#define DECK 52
#define CELLS 4
#define TOMB_SIZE 24
#define CORNER_SIZE 7
#define KEY_BYTES 32
#define MAX_PATH 1024
#define RELAX_SLOTS 16384
#define RELAX_LIMIT 2000
#define RELAX_MEMO_BITS 17
#define TIME_CHECK_EVERY 1024

typedef struct {
    uint8_t b[KEY_BYTES];
} Key;

typedef struct {
    Key *slots;
    size_t capacity; /* a power of two */
    size_t count;
    size_t max_capacity;
} Table;

typedef struct {
    uint8_t stock[DECK];
    int ns;
    uint8_t waste[DECK];
    int nw;
    uint8_t cells[CELLS];
    int nc;
    int tomb;
    uint8_t corners[4]; /* heights 0..7, ascending */
    int redeals;
    int turn;
    int stock_count[14];
} State;

/* The relaxed verdicts kept across dead tests (see relaxed_memo_key). */
typedef struct {
    Key *keys;
    uint8_t *solvable;
    size_t mask; /* slots - 1, a power of two minus one; 0: no memo */
    size_t puts; /* verdicts taken since it was made at this size */
} RelaxMemo;

typedef struct {
    State s;
    Table failed;
    int exact;
    int dead_test; /* prune with the relaxation (sound in both passes) */
    long long nodes;
    long long node_limit; /* 0: none */
    double deadline;      /* 0: none */
    jmp_buf out_of_budget;
    char path[MAX_PATH];
    int depth;
    /* the relaxation's memo: keys stamped with the call's generation */
    uint64_t relax_keys[RELAX_SLOTS];
    uint32_t relax_gen[RELAX_SLOTS];
    uint32_t generation;
    int relax_budget;
    int relax_cut;   /* this call ran out of relax_budget: its "solvable"s are not facts */
    int relax_tomb_only; /* the universe of the current call: tomb cards only */
    RelaxMemo memo;
    int relax_counts[14];
    long long dead_checks;
    /* Restarts (search.py, "Restarts"): the node count that ends this dive
       (0: none), and the order of this dive (0: the heuristic order). */
    long long restart_at;
    jmp_buf restart;
    uint64_t order_seed;
    uint32_t flip_per_mille;
} Ctx;

static inline int tomb_wants(int tomb) { return tomb < TOMB_SIZE ? 6 - tomb % 6 : 0; }

static inline int corner_index(const uint8_t *corners, int height) {
    for (int i = 0; i < 4; i++)
        if (corners[i] == height) return i;
    return -1;
}

static inline int fits(const State *s, int rank) {
    if (rank <= 6) return rank == tomb_wants(s->tomb);
    return corner_index(s->corners, rank - 7) >= 0;
}

/* How many foundations take this rank now: the tomb is one, corners count. */
static inline int places(const State *s, int rank) {
    if (rank <= 6) return rank == tomb_wants(s->tomb);
    int m = 0;
    for (int i = 0; i < 4; i++) m += s->corners[i] == rank - 7;
    return m;
}

/* Raise the last corner at this height: the heights stay sorted. */
static inline void raise_corner(uint8_t *corners, int height) {
    for (int i = 3; i >= 0; i--)
        if (corners[i] == height) { corners[i]++; return; }
}

/* Lower the first corner at this height: the heights stay sorted. */
static inline void lower_corner(uint8_t *corners, int height) {
    for (int i = 0; i < 4; i++)
        if (corners[i] == height) { corners[i]--; return; }
}

static inline void place(State *s, int rank) {
    if (rank <= 6) s->tomb++;
    else raise_corner(s->corners, rank - 7);
}

static inline void unplace(State *s, int rank) {
    if (rank <= 6) s->tomb--;
    else lower_corner(s->corners, rank - 6);
}

static inline int home(const State *s) {
    return s->tomb + s->corners[0] + s->corners[1] + s->corners[2] + s->corners[3];
}

/* The one cell-settling routine: fitting cell cards go home until none fits.
   The search (after each play), the relaxed search and its greedy certificate
   all call it; they need the same fact (a fitting cell card goes home at once)
   and the outcome does not depend on the order the cards go in: sending a card
   home only makes foundations taller, so a fitting card keeps fitting until it
   goes or a card of the same rank takes its slot, and equal ranks are
   interchangeable (the argument in full: settle_cells in relaxation.py).
   Each removal moves the last cell into the gap and raises the last corner at
   the height (sorted corners stay sorted); when ``log`` is given it keeps
   (index, rank) so that unsettle can put every card back where it was: the
   search undoes its own moves by position (a park takes back the last cell).
   Returns how many cards went home. */
static inline int settle_cells(uint8_t *cells, int *nc, int *tomb, uint8_t *corners,
                               uint8_t log[][2]) {
    int moved = 0, again = *nc > 0;
    while (again) {
        again = 0;
        int want = tomb_wants(*tomb);
        for (int i = 0; i < *nc; i++) {
            int rank = cells[i];
            if (rank <= 6 ? rank == want : corner_index(corners, rank - 7) >= 0) {
                if (rank <= 6) (*tomb)++;
                else raise_corner(corners, rank - 7);
                cells[i] = cells[--*nc];
                if (log) {
                    log[moved][0] = (uint8_t)i;
                    log[moved][1] = (uint8_t)rank;
                }
                moved++;
                again = 1;
                break;
            }
        }
    }
    return moved;
}

static int settle(State *s, uint8_t log[][2]) {
    return settle_cells(s->cells, &s->nc, &s->tomb, s->corners, log);
}

static void unsettle(State *s, uint8_t log[][2], int moved) {
    for (int k = moved - 1; k >= 0; k--) {
        int i = log[k][0], rank = log[k][1];
        unplace(s, rank);
        s->cells[s->nc++] = s->cells[i];
        s->cells[i] = (uint8_t)rank;
    }
}

/* ---- the transposition table of failed states ---- */

static void make_key(const State *s, Key *key) {
    memset(key, 0, sizeof *key);
    key->b[0] = (uint8_t)(s->ns + 1); /* never zero: an all-zero key marks an empty slot */
    key->b[1] = (uint8_t)s->tomb;
    key->b[2] = (uint8_t)(s->corners[0] | (s->corners[1] << 4));
    key->b[3] = (uint8_t)(s->corners[2] | (s->corners[3] << 4));
    key->b[4] = (uint8_t)s->redeals;
    int nibble = 0;
    for (int i = 0; i < s->ns; i++, nibble++)
        key->b[5 + nibble / 2] |= (uint8_t)(s->stock[i] << ((nibble & 1) * 4));
    for (int i = 0; i < s->nw; i++, nibble++)
        key->b[5 + nibble / 2] |= (uint8_t)(s->waste[i] << ((nibble & 1) * 4));
}

static uint64_t key_hash(const Key *key) {
    uint64_t h = 1469598103934665603ULL, word;
    for (int i = 0; i < KEY_BYTES; i += 8) {
        memcpy(&word, key->b + i, 8);
        h = (h ^ word) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    return h;
}

static int table_init(Table *t, size_t capacity, size_t max_capacity) {
    t->slots = calloc(capacity, sizeof(Key));
    t->capacity = capacity;
    t->count = 0;
    t->max_capacity = max_capacity;
    return t->slots != NULL;
}

/* A table key's last byte is no part of the position: the stock and waste
   ranks fill nibbles of bytes 5..30 at most (52 cards). It holds the entry's
   effort instead, the bit length of the node count its failed subtree took,
   which chooses what a full table forgets; lookups compare and hash the
   first TABLE_KEY_BYTES only. */
#define TABLE_KEY_BYTES 31
#define EFFORT_BYTE 31
#define REPLACE_WINDOW 4

static uint64_t table_hash(const Key *key) {
    Key position = *key;
    position.b[EFFORT_BYTE] = 0;
    return key_hash(&position);
}

static Key *table_slot(Key *slots, size_t capacity, const Key *key) {
    size_t mask = capacity - 1, i = table_hash(key) & mask;
    for (;;) {
        Key *slot = &slots[i];
        if (slot->b[0] == 0 || memcmp(slot->b, key->b, TABLE_KEY_BYTES) == 0) return slot;
        i = (i + 1) & mask;
    }
}

static int table_has(Table *t, const Key *key) {
    return table_slot(t->slots, t->capacity, key)->b[0] != 0;
}

static void table_grow(Table *t) {
    size_t capacity = t->capacity * 2;
    Key *slots = calloc(capacity, sizeof(Key));
    if (slots == NULL) { t->max_capacity = t->capacity; return; }
    for (size_t i = 0; i < t->capacity; i++)
        if (t->slots[i].b[0]) *table_slot(slots, capacity, &t->slots[i]) = t->slots[i];
    free(t->slots);
    t->slots = slots;
    t->capacity = capacity;
}

/* A full table (at its largest, 70% used) makes room by forgetting: the new
   entry takes the place of the least effort among the first REPLACE_WINDOW
   slots of its probe run. Every entry is a subtree searched to its end, so
   forgetting one costs time, never soundness; and lookups stay exact: an
   entry is found by its whole key, and the run from a key's home slot to it
   never gains an empty slot (a replacement fills a slot that was full). */
static void table_replace(Table *t, const Key *key) {
    size_t mask = t->capacity - 1, i = table_hash(key) & mask;
    Key *victim = NULL;
    for (int k = 0; k < REPLACE_WINDOW; k++, i = (i + 1) & mask) {
        Key *slot = &t->slots[i];
        if (slot->b[0] == 0) break; /* the run ends: slots past it are not on this key's run */
        if (memcmp(slot->b, key->b, TABLE_KEY_BYTES) == 0) return;
        if (victim == NULL || slot->b[EFFORT_BYTE] < victim->b[EFFORT_BYTE]) victim = slot;
    }
    if (victim == NULL) {
        /* The home slot is empty: fill it while the table stays 75% used at
           most, so that probe runs stay short (and always end at an empty
           slot); past that a key with an empty home slot is not kept. */
        if ((t->count + 1) * 4 > t->capacity * 3) return;
        victim = &t->slots[i];
        t->count++;
    }
    *victim = *key;
}

static int bit_length(long long n) {
    int bits = 0;
    while (n > 0) { bits++; n >>= 1; }
    return bits;
}

/* Remember a failed state that took ``effort`` nodes to search (the
   dead test's work is not counted: a state it pruned is cheap to meet again). */
static void table_add(Table *t, const Key *position, long long effort) {
    Key key = *position;
    key.b[EFFORT_BYTE] = (uint8_t)bit_length(effort);
    if ((t->count + 1) * 10 > t->capacity * 7) {
        if (t->capacity < t->max_capacity) table_grow(t);
        if ((t->count + 1) * 10 > t->capacity * 7) { table_replace(t, &key); return; }
    }
    Key *slot = table_slot(t->slots, t->capacity, &key);
    if (slot->b[0] == 0) { *slot = key; t->count++; }
}

/* ---- the dead-position test (see relaxation.py) ---- */

static void sort4(uint8_t *v, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint8_t x = v[j]; v[j] = v[j - 1]; v[j - 1] = x;
        }
}

static int relax_seen(Ctx *c, uint64_t key) {
    uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    size_t i = (size_t)(h >> 50) & (RELAX_SLOTS - 1);
    for (int probe = 0; probe < RELAX_SLOTS; probe++) {
        if (c->relax_gen[i] != c->generation) {
            c->relax_gen[i] = c->generation;
            c->relax_keys[i] = key;
            return 0;
        }
        if (c->relax_keys[i] == key) return 1;
        i = (i + 1) & (RELAX_SLOTS - 1);
    }
    return 0; /* the memo is full: search on without it (still exact) */
}

static int relaxed(Ctx *c, const uint8_t *waste, int top, int tomb, const uint8_t *corners_in,
                   const uint8_t *cells_in, int nc);

/* The relaxed game's state as an exact key, good across dead tests of one
   search. Within one search every card of the deck is always somewhere: in
   the waste below ``top``, a cell, a foundation (the tomb's count and the
   corners' heights name the ranks on them) or free (the stock, or spent from
   it by the lazy runs). So the waste's first ``top`` ranks, the sorted cells,
   the tomb count and the sorted corner heights fix the free cards too, and
   the relaxed game from there: its verdict is a fact of this key, whichever
   search node's dead test met it. The tomb-only test (free corner cards)
   plays another game on the same keys, so a flag keeps its keys apart. */
static void relaxed_memo_key(const Ctx *c, const uint8_t *waste, int top, int tomb,
                             const uint8_t *corners, const uint8_t *cells, int nc, Key *key) {
    memset(key, 0, sizeof *key);
    key->b[0] = (uint8_t)((top + 1) | (c->relax_tomb_only ? 0x80 : 0));
    key->b[1] = (uint8_t)tomb;
    key->b[2] = (uint8_t)(corners[0] | (corners[1] << 4));
    key->b[3] = (uint8_t)(corners[2] | (corners[3] << 4));
    for (int i = 0; i < nc; i++) key->b[4 + i / 2] |= (uint8_t)(cells[i] << ((i & 1) * 4));
    for (int i = 0; i < top; i++) key->b[6 + i / 2] |= (uint8_t)(waste[i] << ((i & 1) * 4));
}

/* A cache, not a table: a new verdict takes its slot from whatever was
   there, so memory stays bounded; a lost entry costs time, never soundness,
   and a found one is compared on the whole key. It starts small (most
   searches are short, and a large block costs its page faults) and grows
   fourfold, keeping its entries, each time it has taken twice its size in
   verdicts, up to 2^RELAX_MEMO_BITS slots. */
static int memo_init(RelaxMemo *m, size_t slots) {
    m->keys = calloc(slots, sizeof(Key));
    m->solvable = calloc(slots, 1);
    m->mask = (m->keys && m->solvable) ? slots - 1 : 0;
    m->puts = 0;
    return m->mask != 0;
}

static void memo_free(RelaxMemo *m) {
    free(m->keys);
    free(m->solvable);
}

/* -1: not known; else the relaxed verdict (1 solvable). */
static int memo_get(const RelaxMemo *m, const Key *key) {
    if (!m->mask) return -1;
    size_t i = key_hash(key) & m->mask;
    if (memcmp(m->keys[i].b, key->b, KEY_BYTES) != 0) return -1;
    return m->solvable[i];
}

static void memo_put(RelaxMemo *m, const Key *key, int solvable) {
    if (!m->mask) return;
    if (++m->puts > 2 * (m->mask + 1) && m->mask + 1 < ((size_t)1 << RELAX_MEMO_BITS)) {
        RelaxMemo bigger;
        if (memo_init(&bigger, (m->mask + 1) * 4)) {
            for (size_t i = 0; i <= m->mask; i++)
                if (m->keys[i].b[0]) {
                    size_t j = key_hash(&m->keys[i]) & bigger.mask;
                    bigger.keys[j] = m->keys[i];
                    bigger.solvable[j] = m->solvable[i];
                }
            memo_free(m);
            *m = bigger;
        } else {
            memo_free(&bigger);
            m->puts = 0; /* no room: stay this size */
        }
    }
    size_t i = key_hash(key) & m->mask;
    m->keys[i] = *key;
    m->solvable[i] = (uint8_t)solvable;
}

/* One lazy move of the relaxed game (relaxation.py, "lazy normal form"): a
   run of free stock cards on one foundation, then ``rank`` onto it: the top
   waste card (``cell`` < 0) or the cell card at index ``cell``. Every run
   that ends with the foundation wanting ``rank`` is tried, shortest first
   (the tomb may go round again; a corner from each of its distinct heights,
   highest first). The stock counts are restored before returning. */
static int run_then_place(Ctx *c, const uint8_t *waste, int top, int tomb,
                          const uint8_t *corners, const uint8_t *cells, int nc, int rank,
                          int cell) {
    int *counts = c->relax_counts;
    uint8_t rest[CELLS];
    int rest_n = 0, next_top = cell < 0 ? top - 1 : top;
    for (int i = 0; i < nc; i++)
        if (i != cell) rest[rest_n++] = cells[i];
    if (rank <= 6) {
        uint8_t used[TOMB_SIZE];
        int n_used = 0, found = 0;
        for (int t = tomb; t < TOMB_SIZE; t++) {
            int want = tomb_wants(t);
            if (want == rank && t > tomb &&
                relaxed(c, waste, next_top, t + 1, corners, rest, rest_n)) {
                found = 1;
                break;
            }
            if (!counts[want]) break;
            counts[want]--;
            used[n_used++] = (uint8_t)want;
        }
        while (n_used) counts[used[--n_used]]++;
        return found;
    }
    for (int i = 3; i >= 0; i--) {
        int height = corners[i], ok = 1;
        if ((i < 3 && corners[i + 1] == height) || height >= rank - 7) continue;
        for (int r = height + 7; r < rank; r++)
            if (!counts[r]) { ok = 0; break; }
        if (!ok) continue;
        for (int r = height + 7; r < rank; r++) counts[r]--;
        uint8_t raised[4];
        memcpy(raised, corners, 4);
        raised[i] = (uint8_t)(rank - 6);
        int found = relaxed(c, waste, next_top, tomb, raised, rest, rest_n);
        for (int r = height + 7; r < rank; r++) counts[r]++;
        if (found) return 1;
    }
    return 0;
}

/* The moves of the relaxed game from a state past its forced part. */
static int relaxed_moves(Ctx *c, const uint8_t *waste, int top, int tomb, const uint8_t *corners,
                         uint8_t *cells, int nc) {
    int rank = waste[top - 1];
    /* The top card home after a stock run; parked; or a cell card home after one. */
    if (run_then_place(c, waste, top, tomb, corners, cells, nc, rank, -1)) return 1;
    if (nc < CELLS) {
        cells[nc] = (uint8_t)rank;
        if (relaxed(c, waste, top - 1, tomb, corners, cells, nc + 1)) return 1;
    }
    for (int i = 0; i < nc; i++) {
        if (i && cells[i - 1] == cells[i]) continue;
        if (run_then_place(c, waste, top, tomb, corners, cells, nc, cells[i], i)) return 1;
    }
    return 0;
}

/* Is the relaxed game solvable? Giving up answers yes, which is sound.
   Mirrors ``solvable`` in relaxation.is_dead, move for move. */
static int relaxed(Ctx *c, const uint8_t *waste, int top, int tomb, const uint8_t *corners_in,
                   const uint8_t *cells_in, int nc) {
    uint8_t corners[4], cells[CELLS + 1];
    memcpy(corners, corners_in, 4);
    memcpy(cells, cells_in, nc);
    /* Forced part: fitting cell cards, then a fitting top card, go home. */
    for (;;) {
        settle_cells(cells, &nc, &tomb, corners, NULL);
        if (top == 0) break;
        int rank = waste[top - 1];
        if (rank <= 6 ? rank != tomb_wants(tomb) : corner_index(corners, rank - 7) < 0) break;
        if (rank <= 6) tomb++;
        else raise_corner(corners, rank - 7);
        top--;
    }
    if (top == 0) return 1;
    sort4(corners, 4);
    sort4(cells, nc);
    uint64_t key = (uint64_t)top | ((uint64_t)tomb << 6) | ((uint64_t)corners[0] << 11) |
                   ((uint64_t)corners[1] << 14) | ((uint64_t)corners[2] << 17) |
                   ((uint64_t)corners[3] << 20);
    for (int i = 0; i < nc; i++) key |= (uint64_t)cells[i] << (23 + 4 * i);
    if (relax_seen(c, key)) return 0;
    Key memo_key;
    relaxed_memo_key(c, waste, top, tomb, corners, cells, nc, &memo_key);
    int known = memo_get(&c->memo, &memo_key);
    if (known >= 0) return known;
    if (--c->relax_budget < 0) {
        c->relax_cut = 1;
        return 1;
    }
    int found = relaxed_moves(c, waste, top, tomb, corners, cells, nc);
    /* A "no solution" is always a fact (only giving up says yes falsely); a
       "solution" is one only while this call has not given up: after that
       every answer is yes. */
    if (!found || !c->relax_cut) memo_put(&c->memo, &memo_key, found);
    return found;
}

static int cell_find(const uint8_t *cells, int nc, int rank) {
    for (int i = 0; i < nc; i++)
        if (cells[i] == rank) return i;
    return -1;
}

static void cell_remove(uint8_t *cells, int *nc, int i) {
    for (int j = i; j + 1 < *nc; j++) cells[j] = cells[j + 1];
    (*nc)--;
}

/* The tomb count at which it wants this rank, reached with cell and free
   stock cards (taken); -1 with nothing taken if it is out of reach. */
static int advance_tomb(int rank, int tomb, uint8_t *cells, int *nc, int *counts) {
    uint8_t saved_cells[CELLS + 1];
    int saved_nc = *nc, saved_counts[14], t = tomb;
    memcpy(saved_cells, cells, *nc);
    memcpy(saved_counts, counts, sizeof saved_counts);
    while (t < TOMB_SIZE && tomb_wants(t) != rank) {
        int want = tomb_wants(t), i = cell_find(cells, *nc, want);
        if (i >= 0) cell_remove(cells, nc, i);
        else if (counts[want]) counts[want]--;
        else break;
        t++;
    }
    if (t < TOMB_SIZE && tomb_wants(t) == rank) return t;
    memcpy(cells, saved_cells, saved_nc);
    *nc = saved_nc;
    memcpy(counts, saved_counts, sizeof saved_counts);
    return -1;
}

/* Raise the highest corner below this rank to take it, if the stock and
   the cells hold every rank in between; then place the card. */
static int advance_corner(int rank, uint8_t *corners, uint8_t *cells, int *nc, int *counts) {
    int target = rank - 7;
    uint8_t order[4];
    memcpy(order, corners, 4);
    sort4(order, 4);
    for (int k = 3; k >= 0; k--) {
        int height = order[k], reachable = 1;
        if (height > target || (k < 3 && order[k + 1] == height)) continue;
        for (int r = height + 7; r < rank; r++)
            if (!counts[r] && cell_find(cells, *nc, r) < 0) { reachable = 0; break; }
        if (!reachable) continue;
        for (int r = height + 7; r < rank; r++) {
            if (counts[r]) counts[r]--;
            else cell_remove(cells, nc, cell_find(cells, *nc, r));
        }
        corners[corner_index(corners, height)] = (uint8_t)(target + 1);
        return 1;
    }
    return 0;
}

/* Send the lowest cell card that free stock cards can reach home; the tomb
   count after it, or -1 (nothing changed) if none can be reached. */
static int bring_a_cell_card_home(uint8_t *cells, int *nc, int tomb, uint8_t *corners,
                                  int *counts) {
    uint8_t sorted_cells[CELLS + 1];
    memcpy(sorted_cells, cells, *nc);
    sort4(sorted_cells, *nc);
    for (int k = 0; k < *nc; k++) {
        int card = sorted_cells[k];
        uint8_t rest[CELLS + 1];
        int rest_n = *nc;
        memcpy(rest, cells, *nc);
        cell_remove(rest, &rest_n, cell_find(rest, rest_n, card));
        int reached = -1, ok = 0;
        if (card <= 6) {
            reached = advance_tomb(card, tomb, rest, &rest_n, counts);
            ok = reached >= 0;
            if (ok) reached++;
        } else {
            ok = advance_corner(card, corners, rest, &rest_n, counts);
            reached = tomb;
        }
        if (ok) {
            memcpy(cells, rest, rest_n);
            *nc = rest_n;
            return reached;
        }
    }
    return -1;
}

/* A cheap certificate that the relaxation is solvable (most positions):
   take the waste top-down, bring each card's foundation up to it with free
   stock cards (and the cell cards that fit on the way) when that is
   possible, otherwise park it. 1 means solved; 0 proves nothing. Mirrors
   _greedy_solves in relaxation.py. */
static int greedy_relaxed(const State *s) {
    uint8_t cells[CELLS + 1], corners[4];
    int nc = s->nc, counts[14], tomb = s->tomb;
    memcpy(cells, s->cells, nc);
    memcpy(corners, s->corners, 4);
    memcpy(counts, s->stock_count, sizeof counts);
    for (int top = s->nw - 1; top >= 0; top--) {
        int rank = s->waste[top];
        settle_cells(cells, &nc, &tomb, corners, NULL);
        if (rank <= 6) {
            int reached = advance_tomb(rank, tomb, cells, &nc, counts);
            if (reached >= 0) { tomb = reached + 1; continue; }
        } else if (advance_corner(rank, corners, cells, &nc, counts)) {
            continue;
        }
        while (nc >= CELLS) {
            int freed = bring_a_cell_card_home(cells, &nc, tomb, corners, counts);
            if (freed < 0) return 0;
            tomb = freed;
            settle_cells(cells, &nc, &tomb, corners, NULL);
        }
        cells[nc++] = (uint8_t)rank;
    }
    return 1;
}

static int relaxed_dead(Ctx *c, const uint8_t *waste, int nw, int tomb, const uint8_t *corners,
                        const uint8_t *cells, int nc, const int *counts) {
    c->generation++;
    c->relax_budget = RELAX_LIMIT;
    c->relax_cut = 0;
    memcpy(c->relax_counts, counts, sizeof c->relax_counts);
    return !relaxed(c, waste, nw, tomb, corners, cells, nc);
}

/* The relaxation with every corner card dropped: dead there is dead (it
   relaxes the relaxed game further) and it is far smaller, so it goes
   first. Mirrors _tomb_only_dead in relaxation.py. */
static int tomb_only_dead(Ctx *c, const State *s) {
    uint8_t waste[DECK], cells[CELLS];
    int nw = 0, nc = 0, counts[14] = {0};
    for (int i = 0; i < s->nw; i++)
        if (s->waste[i] <= 6) waste[nw++] = s->waste[i];
    for (int i = 0; i < s->nc; i++)
        if (s->cells[i] <= 6) cells[nc++] = s->cells[i];
    if (nw == s->nw && nc == s->nc) return 0; /* nothing dropped */
    for (int r = 1; r <= 6; r++) counts[r] = s->stock_count[r];
    State low = *s;
    memcpy(low.waste, waste, nw);
    low.nw = nw;
    memcpy(low.cells, cells, nc);
    low.nc = nc;
    memcpy(low.stock_count, counts, sizeof counts);
    if (greedy_relaxed(&low)) return 0;
    c->relax_tomb_only = 1;
    int dead = relaxed_dead(c, waste, nw, s->tomb, s->corners, cells, nc, counts);
    c->relax_tomb_only = 0;
    return dead;
}

static int is_dead(Ctx *c, const State *s) {
    c->dead_checks++;
    if (greedy_relaxed(s)) return 0; /* a relaxed solution: the tomb-only test would pass too */
    if (tomb_only_dead(c, s)) return 1;
    return relaxed_dead(c, s->waste, s->nw, s->tomb, s->corners, s->cells, s->nc,
                        s->stock_count);
}

/* ---- the search ---- */

static void tick(Ctx *c) {
    c->nodes++;
    if (c->node_limit && c->nodes > c->node_limit) longjmp(c->out_of_budget, 1);
    if (c->deadline > 0 && c->nodes % TIME_CHECK_EVERY == 0 && now_s() > c->deadline)
        longjmp(c->out_of_budget, 1);
    if (c->restart_at && c->nodes >= c->restart_at) longjmp(c->restart, 1);
}

/* Whether this dive tries a node's two children in the other order: a
   pseudo-random choice fixed by the state and the dive (move order only). */
static int flipped(const Ctx *c, const Key *key) {
    if (!c->order_seed) return 0;
    uint64_t h = (key_hash(key) ^ c->order_seed) * 0x9E3779B97F4A7C15ULL;
    return (uint32_t)((h >> 40) % 1000) < c->flip_per_mille;
}

static int search(Ctx *c, int check_dead);

static int step(Ctx *c, char move, int check_dead) {
    if (c->depth >= MAX_PATH) return 0;
    c->path[c->depth++] = move;
    if (search(c, check_dead)) return 1;
    c->depth--;
    return 0;
}

static int try_play(Ctx *c) {
    State *s = &c->s;
    uint8_t log[CELLS][2];
    int rank = s->waste[--s->nw];
    place(s, rank);
    int moved = settle(s, log);
    /* After a play the relaxation is the parent's with a forced move made. */
    int won = step(c, 'F', 0);
    if (!won) {
        unsettle(s, log, moved);
        unplace(s, rank);
        s->waste[s->nw++] = (uint8_t)rank;
    }
    return won;
}

static int try_park(Ctx *c) {
    State *s = &c->s;
    int rank = s->waste[--s->nw];
    s->cells[s->nc++] = (uint8_t)rank;
    int won = step(c, 'C', 1);
    if (!won) {
        s->nc--;
        s->waste[s->nw++] = (uint8_t)rank;
    }
    return won;
}

static int try_draw(Ctx *c) {
    State *s = &c->s;
    if (s->ns) {
        int count = s->turn < s->ns ? s->turn : s->ns;
        for (int i = 0; i < count; i++) {
            int rank = s->stock[--s->ns];
            s->stock_count[rank]--;
            s->waste[s->nw++] = (uint8_t)rank;
        }
        int won = step(c, 'D', 1);
        if (!won)
            for (int i = 0; i < count; i++) {
                int rank = s->waste[--s->nw];
                s->stock_count[rank]++;
                s->stock[s->ns++] = (uint8_t)rank;
            }
        return won;
    }
    if (s->nw && s->redeals) {
        /* The first card turned in the last pass is the next one turned. */
        for (int i = 0; i < s->nw; i++) {
            s->stock[i] = s->waste[s->nw - 1 - i];
            s->stock_count[s->stock[i]]++;
        }
        s->ns = s->nw;
        s->nw = 0;
        s->redeals--;
        int won = step(c, 'R', 1);
        if (!won) {
            for (int i = 0; i < s->ns; i++) {
                s->waste[i] = s->stock[s->ns - 1 - i];
                s->stock_count[s->waste[i]]--;
            }
            s->nw = s->ns;
            s->ns = 0;
            s->redeals++;
        }
        return won;
    }
    return 0;
}

/* Move order only: park first a card a foundation wants within three ranks. */
static int park_first(const State *s, int rank) {
    if (rank <= 6) {
        int want = tomb_wants(s->tomb);
        int gap = want - rank + (want < rank ? 6 : 0);
        return want > 0 && gap > 0 && gap <= 3;
    }
    for (int i = 0; i < 4; i++) {
        int gap = rank - 7 - s->corners[i];
        if (gap > 0 && gap <= 3) return 1;
    }
    return 0;
}

static int search(Ctx *c, int check_dead) {
    State *s = &c->s;
    if (home(s) == DECK) return 1;
    Key key;
    make_key(s, &key);
    if (table_has(&c->failed, &key)) return 0;
    long long before = c->nodes; /* a failure's effort: the nodes of its subtree */
    tick(c);
    int fixed_order = s->redeals == 0; /* the waste will never be regrouped */
    if (c->dead_test && fixed_order && s->nw && check_dead && is_dead(c, s)) {
        table_add(&c->failed, &key, c->nodes - before);
        return 0;
    }
    if (s->nw) {
        int top = s->waste[s->nw - 1];
        if (fits(s, top)) {
            /* Rule 5: fewer cards of its rank left in the stock than
               foundations that take it now (the tomb is one). */
            int forced = !c->exact || (fixed_order && s->stock_count[top] < places(s, top));
            if (!forced && flipped(c, &key)) {
                if (try_draw(c) || try_play(c)) return 1;
                table_add(&c->failed, &key, c->nodes - before);
                return 0;
            }
            if (try_play(c)) return 1;
            if (forced) { table_add(&c->failed, &key, c->nodes - before); return 0; }
        } else if (s->nc < CELLS) {
            if (park_first(s, top) != flipped(c, &key)) {
                if (try_park(c) || try_draw(c)) return 1;
            } else {
                if (try_draw(c) || try_park(c)) return 1;
            }
            table_add(&c->failed, &key, c->nodes - before);
            return 0;
        }
    }
    if (try_draw(c)) return 1;
    table_add(&c->failed, &key, c->nodes - before);
    return 0;
}

/* search(stock, waste, cells, tomb, corners, redeals, turn, exact,
          node_limit, seconds, table_mb[, restart_nodes, flip_per_mille])
          -> (status, line, nodes, dead_checks)
   status: 1 won (line is the moves, one letter each: F C D R),
           0 no win exists (exact) or none found (greedy), -1 out of budget.
   restart_nodes > 0: dives of restart_nodes nodes, each half as long again
   as the one before; every dive after the first tries a node's two children
   in the other order with probability flip_per_mille / 1000. */
static PyObject *py_search(PyObject *self, PyObject *args) {
    Py_buffer stock, waste, cells, corners;
    int tomb, redeals, turn, exact;
    long long node_limit;
    double seconds;
    int table_mb;
    long long restart_nodes = 0;
    int flip_per_mille = 0;
    if (!PyArg_ParseTuple(args, "y*y*y*iy*iipLdi|Li", &stock, &waste, &cells, &tomb, &corners,
                          &redeals, &turn, &exact, &node_limit, &seconds, &table_mb,
                          &restart_nodes, &flip_per_mille))
        return NULL;
    PyObject *result = NULL;
    Ctx *c = calloc(1, sizeof(Ctx));
    int bad = stock.len + waste.len > DECK || cells.len > CELLS || corners.len != 4 ||
              tomb < 0 || tomb > TOMB_SIZE || turn < 1 || redeals < 0 || redeals > 15;
    if (c == NULL || bad) {
        PyErr_SetString(c == NULL ? PyExc_MemoryError : PyExc_ValueError, "bad position");
        goto done;
    }
    State *s = &c->s;
    memcpy(s->stock, stock.buf, stock.len);
    s->ns = (int)stock.len;
    memcpy(s->waste, waste.buf, waste.len);
    s->nw = (int)waste.len;
    memcpy(s->cells, cells.buf, cells.len);
    s->nc = (int)cells.len;
    memcpy(s->corners, corners.buf, 4);
    sort4(s->corners, 4);
    s->tomb = tomb;
    s->redeals = redeals;
    s->turn = turn;
    for (int i = 0; i < s->ns; i++) {
        if (s->stock[i] < 1 || s->stock[i] > 13) bad = 1;
        else s->stock_count[s->stock[i]]++;
    }
    for (int i = 0; i < s->nw; i++) bad |= s->waste[i] < 1 || s->waste[i] > 13;
    for (int i = 0; i < s->nc; i++) bad |= s->cells[i] < 1 || s->cells[i] > 13;
    for (int i = 0; i < 4; i++) bad |= s->corners[i] > CORNER_SIZE;
    if (bad) { PyErr_SetString(PyExc_ValueError, "bad position"); goto done; }
    size_t max_capacity = ((size_t)(table_mb > 0 ? table_mb : 256) << 20) / sizeof(Key);
    size_t power = 1;
    while (power * 2 <= max_capacity) power *= 2;
    max_capacity = power; /* the table's capacity stays a power of two */
    size_t capacity = max_capacity < (1 << 16) ? max_capacity : (1 << 16);
    if (!table_init(&c->failed, capacity, max_capacity)) { PyErr_NoMemory(); goto done; }
    c->exact = exact;
    c->dead_test = 1;
    memo_init(&c->memo, (size_t)1 << 12); /* none: only slower */
    c->node_limit = node_limit > 0 ? node_limit : 0;
    c->deadline = seconds > 0 ? now_s() + seconds : 0;
    volatile int status = -1;
    State start = *s;
    volatile long long dive_nodes = restart_nodes;
    volatile uint64_t dive = 0;
    c->flip_per_mille = (uint32_t)(flip_per_mille < 0 ? 0 : flip_per_mille);
    Py_BEGIN_ALLOW_THREADS
    if (setjmp(c->out_of_budget) == 0) {
        if (restart_nodes > 0) {
            /* A dive ends here: back to the start position, the table of
               failed states kept (each entry is a subtree searched to its end,
               whatever the order, so it stays true in every dive). */
            if (setjmp(c->restart) != 0) {
                c->s = start;
                c->depth = 0;
                dive++;
                dive_nodes += dive_nodes / 2;
            }
            c->order_seed = dive ? 0x5851F42D4C957F2DULL * dive + 1 : 0;
            c->restart_at = c->nodes + dive_nodes;
        }
        status = search(c, 1);
    }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(is#LL)", status, c->path, (Py_ssize_t)(status == 1 ? c->depth : 0),
                           c->nodes, c->dead_checks);
done:
    if (c) { free(c->failed.slots); memo_free(&c->memo); free(c); }
    PyBuffer_Release(&stock);
    PyBuffer_Release(&waste);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&corners);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, "Search a compact position; see _core.c."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", NULL, -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
