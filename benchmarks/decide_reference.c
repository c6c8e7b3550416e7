/* A plain compiled reference of the solver's decide search under rules N and C
 * (the reduced model of src/pyramide/solver/reduced.py: ReducedModel.best), written
 * for benchmarks/vs_decide_reference.py to measure ours against.
 *
 * The same search, step for step: a memoised depth-first search over (pyramid
 * mask, packed talon counts), a safe step taken without branching (a free king; a
 * free card whose class is loose; a pyramid pair whose class is loose once it is
 * gone), else the children in the same order (pyramid pairs of free cards, lowest
 * slots first, then covering pairs, then each free card with a talon partner),
 * stopping at the first win.  So it evaluates the same states; it prints their count.
 *
 * Input (stdin), one deal a line: "covering v0 ... v27 talon" (the 28 pyramid values
 * row by row, the packed talon counts as in pack_talon).  Output: "best states" per
 * deal, then "total_us N" (CPU time of the searches alone).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLOTS 28
#define KING 13

static uint32_t over[SLOTS];          /* the slots lying directly over each slot */
static int values[SLOTS];
static uint32_t by_value[KING + 1];
static int covering;

/* the memo: open addressing on mask | talon << 28; an entry counts only when its
 * generation is the deal's (a fresh memo per deal without clearing it) */
#define MEMO_BITS 17  /* small enough to stay in the cache; a deal filling 3/4 stops */
#define MEMO_SIZE (1u << MEMO_BITS)
static uint64_t memo_key[MEMO_SIZE];
static uint32_t memo_gen[MEMO_SIZE];
static int8_t memo_val[MEMO_SIZE];
static uint32_t gen;
static long states;

static int row_of(int s) { int r = 0; while ((r + 1) * (r + 2) / 2 <= s) r++; return r; }

static void geometry(void) {
    for (int s = 0; s < SLOTS; s++) {
        int r = row_of(s), i = s - r * (r + 1) / 2;
        over[s] = 0;
        if (r < 6) {
            int below = (r + 1) * (r + 2) / 2 + i;
            over[s] = (1u << below) | (1u << (below + 1));
        }
    }
}

static int cnt(uint64_t talon, int v) { return (int)(talon >> (3 * (v - 1)) & 7); }
static uint64_t one(int v) { return (v == 0 || v == KING) ? 0 : (uint64_t)1 << (3 * (v - 1)); }

static int free_slots(uint32_t mask, int *out) {
    int n = 0;
    for (int s = 0; s < SLOTS; s++)
        if ((mask >> s & 1) && !(mask & over[s])) out[n++] = s;
    return n;
}

/* covering pairs (covered, cover): cover is free and the only card left over covered */
static int covering_pairs(uint32_t mask, int (*out)[2]) {
    int n = 0;
    for (int s = 0; s < SLOTS; s++) {
        if (!(mask >> s & 1)) continue;
        uint32_t o = mask & over[s];
        if (o && !(o & (o - 1))) {
            int top = __builtin_ctz(o);
            if (!(mask & over[top])) { out[n][0] = s; out[n][1] = top; n++; }
        }
    }
    return n;
}

static int loose(uint32_t mask, uint64_t talon, int v, int spare) {
    int w = KING - v;
    return cnt(talon, w) >= __builtin_popcount(mask & by_value[v]) - spare
        && cnt(talon, v) >= __builtin_popcount(mask & by_value[w]) - spare;
}

static int best(uint32_t mask, uint64_t talon) {
    uint64_t key = (uint64_t)mask | talon << SLOTS;
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - MEMO_BITS));
    while (memo_gen[h] == gen && memo_key[h] != key) h = (h + 1) & (MEMO_SIZE - 1);
    if (memo_gen[h] == gen) return memo_val[h];
    int free[SLOTS], nfree = free_slots(mask, free);
    int pairs[64][2], npairs = 0;
    for (int i = 0; i < nfree; i++)
        for (int j = i + 1; j < nfree; j++)
            if (values[free[i]] + values[free[j]] == KING) {
                pairs[npairs][0] = free[i]; pairs[npairs][1] = free[j]; npairs++;
            }
    if (covering) {
        int cov[SLOTS][2], ncov = covering_pairs(mask, cov);
        for (int k = 0; k < ncov; k++)
            if (values[cov[k][0]] + values[cov[k][1]] == KING) {
                pairs[npairs][0] = cov[k][0]; pairs[npairs][1] = cov[k][1]; npairs++;
            }
    }
    int result = -1;
    for (int i = 0; i < nfree && result < 0; i++) {  /* safe steps */
        int a = free[i], v = values[a];
        if (v == KING) result = best(mask & ~(1u << a), talon);
        else if (loose(mask, talon, v, 0)) result = best(mask & ~(1u << a), talon - one(KING - v));
    }
    for (int k = 0; k < npairs && result < 0; k++)
        if (loose(mask, talon, values[pairs[k][0]], 1))
            result = best(mask & ~(1u << pairs[k][0]) & ~(1u << pairs[k][1]), talon);
    if (result < 0) {
        result = SLOTS - __builtin_popcount(mask);
        for (int k = 0; k < npairs && result < SLOTS; k++) {
            int found = best(mask & ~(1u << pairs[k][0]) & ~(1u << pairs[k][1]), talon);
            if (found > result) result = found;
        }
        for (int i = 0; i < nfree && result < SLOTS; i++) {
            int need = KING - values[free[i]];
            if (need && cnt(talon, need)) {
                int found = best(mask & ~(1u << free[i]), talon - one(need));
                if (found > result) result = found;
            }
        }
    }
    /* the recursion has filled places since: look for a free one again */
    while (memo_gen[h] == gen && memo_key[h] != key) h = (h + 1) & (MEMO_SIZE - 1);
    memo_gen[h] = gen;
    memo_key[h] = key;
    memo_val[h] = (int8_t)result;
    if (++states > MEMO_SIZE / 4 * 3) {
        fprintf(stderr, "more than %u states in one deal: raise MEMO_BITS\n", MEMO_SIZE / 4 * 3);
        exit(2);
    }
    return result;
}

static double cpu_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(void) {
    geometry();
    double total = 0;
    unsigned long long talon;
    while (scanf("%d", &covering) == 1) {
        for (int s = 0; s < SLOTS; s++)
            if (scanf("%d", &values[s]) != 1) return 1;
        if (scanf("%llu", &talon) != 1) return 1;
        memset(by_value, 0, sizeof by_value);
        for (int s = 0; s < SLOTS; s++) by_value[values[s]] |= 1u << s;
        gen++;  /* a fresh memo */
        states = 0;
        double began = cpu_us();
        int result = best((1u << SLOTS) - 1, (uint64_t)talon);
        total += cpu_us() - began;
        printf("%d %ld\n", result, states);
    }
    printf("total_us %.1f\n", total);
    return 0;
}
