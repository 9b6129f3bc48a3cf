/* crypto_mb's 20-digit kernels (eight 1024-bit numbers in 52-bit digits) one call at a time,
 * to set beside the "lane kernel" rows of redc's `cargo bench -p redc --bench ifma_bound`:
 * the squaring, four squarings with the next multiplier's extraction from two tables
 * stitched in, the product, the almost half product, and the whole exponentiation
 * EXP52x20_mb8 (no conversions; its eight results checked against OpenSSL's BN_mod_exp
 * first); then its 30- and 40-digit squaring and product (RSA-3072's and RSA-4096's
 * primes), timed on eight random odd moduli of 1536 and 2048 bits and operands below them
 * (timing only: the kernels' cost does not depend on the values). `kernel_bench [ROUNDS]`
 * prints the fastest nanoseconds per call of ROUNDS timings.
 *
 * These are crypto_mb's internal functions, not its API: they are linked from the object
 * files of its build directory and declared here by hand, as the snapshot of
 * intel/ipp-crypto used in README.md defines them; another version may name or shape them
 * differently. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <openssl/bn.h>

typedef uint64_t u64;
enum { L = 20, L64 = 16, E = 16 };

void AMS52x20_diagonal_mb8(u64 *out, const u64 *a, const u64 *m, const u64 *k0);
void AMS4x52x20_diagonal_stitched_with_extract_mb8(u64 *out, u64 *mulb, u64 *mulbx,
                                                   const u64 *a, const u64 *m, const u64 *k0,
                                                   u64 tbl[][L][8], u64 tblx[][L][8],
                                                   const u64 idx[8]);
void ifma_amm52x20_mb8(u64 *out, const u64 *a, const u64 *b, const u64 *m, const u64 *k0);
void ifma_ahmm52x20_mb8(u64 *out, const u64 *a, const u64 *b, const u64 *bx, const u64 *m,
                        const u64 *k0);
void AMS52x30_diagonal_mb8(u64 *out, const u64 *a, const u64 *m, const u64 *k0);
void ifma_amm52x30_mb8(u64 *out, const u64 *a, const u64 *b, const u64 *m, const u64 *k0);
void AMS52x40_diagonal_mb8(u64 *out, const u64 *a, const u64 *m, const u64 *k0);
void ifma_amm52x40_mb8(u64 *out, const u64 *a, const u64 *b, const u64 *m, const u64 *k0);
void EXP52x20_mb8(u64 out[][8], const u64 base[][8], const u64 exp[][8], const u64 mod[][8],
                  const u64 to_mont[][8], const u64 k0[8], u64 work[][8]);

static _Alignas(64) u64 m52[L][8], b52[L][8], rr52[L][8], e64[L64][8], out[L][8], k0[8];
static _Alignas(64) u64 x[L][8], mb[L][8], mbx[L][8], tbl[E][L][8], tblx[E][L][8], idx[8];
static _Alignas(64) u64 work[2 * L + L64 + 1 + 2 * E * L][8];

static _Alignas(64) u64 wm[40][8], wx[40][8], wy[40][8], wk0[8];

/* Eight random odd moduli of 52·d − 4 bits in wm (digits d and up zero), operands below
 * them in wx and wy, and k0 = −m⁻¹ mod 2^52 per lane. */
static void wide_operands(int d) {
  for (int l = 0; l < 8; l++) {
    for (int j = 0; j < 40; j++) {
      u64 v = j < d ? (((u64)rand() << 31) ^ (u64)rand()) & ((1ULL << 52) - 1) : 0;
      wm[j][l] = v;
      wx[j][l] = v >> 1;
      wy[j][l] = v >> 2;
    }
    wm[0][l] |= 1;
    wm[d - 1][l] = (wm[d - 1][l] >> 4) | (1ULL << 47);
    wx[d - 1][l] = wm[d - 1][l] >> 1;
    wy[d - 1][l] = wm[d - 1][l] >> 2;
    u64 inv = 1;
    for (int i = 0; i < 6; i++) inv *= 2 - wm[0][l] * inv;
    wk0[l] = (0 - inv) & ((1ULL << 52) - 1);
  }
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

/* v's 52-bit digits into column `lane` of dst. */
static void to52(const BIGNUM *v, u64 dst[][8], int lane) {
  for (int d = 0; d < L; d++) {
    u64 w = 0;
    for (int b = 0; b < 52; b++)
      if (BN_is_bit_set(v, 52 * d + b)) w |= 1ULL << b;
    dst[d][lane] = w;
  }
}

/* The fastest ns per call of `rounds` timings of `n` calls of `body`. */
#define BEST(rounds, n, body)                                 \
  ({                                                          \
    double best_ = 1e300;                                     \
    for (int r_ = 0; r_ < (rounds); r_++) {                   \
      double t_ = now_ns();                                   \
      for (int i_ = 0; i_ < (n); i_++) { body; }              \
      t_ = (now_ns() - t_) / (n);                             \
      if (t_ < best_) best_ = t_;                             \
    }                                                         \
    best_;                                                    \
  })

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 15;
  BN_CTX *ctx = BN_CTX_new();
  BIGNUM *m[8], *b[8], *e[8], *t = BN_new(), *r = BN_new(), *two52 = BN_new();
  BN_lshift(two52, BN_value_one(), 52);
  for (int l = 0; l < 8; l++) {
    m[l] = BN_new(), b[l] = BN_new(), e[l] = BN_new();
    BN_rand(m[l], 1024, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
    BN_rand_range(b[l], m[l]);
    BN_rand(e[l], 1024, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY);
    to52(m[l], m52, l);
    to52(b[l], b52, l);
    /* R² mod m with R = 2^(52·20), and k0 = −m⁻¹ mod 2^52. */
    BN_lshift(r, BN_value_one(), 2 * 52 * L);
    BN_mod(r, r, m[l], ctx);
    to52(r, rr52, l);
    BN_mod_inverse(t, m[l], two52, ctx);
    BN_sub(t, two52, t);
    k0[l] = BN_get_word(t);
    for (int i = 0; i < L64; i++) {
      u64 w = 0;
      for (int j = 0; j < 64; j++)
        if (BN_is_bit_set(e[l], 64 * i + j)) w |= 1ULL << j;
      e64[i][l] = w;
    }
    idx[l] = l;
  }
  EXP52x20_mb8(out, (const u64(*)[8])b52, (const u64(*)[8])e64, (const u64(*)[8])m52,
               (const u64(*)[8])rr52, k0, work);
  for (int l = 0; l < 8; l++) {
    BN_zero(t);
    for (int d = L - 1; d >= 0; d--) {
      BN_lshift(t, t, 52);
      BN_add_word(t, out[d][l]);
    }
    BN_mod(t, t, m[l], ctx);
    BN_mod_exp(r, b[l], e[l], m[l], ctx);
    if (BN_cmp(r, t) != 0) {
      fprintf(stderr, "EXP52x20_mb8 differs from BN_mod_exp in lane %d\n", l);
      return 1;
    }
  }
  for (int d = 0; d < L; d++)
    for (int l = 0; l < 8; l++) {
      x[d][l] = b52[d][l];
      for (int i = 0; i < E; i++) tbl[i][d][l] = tblx[i][d][l] = b52[d][l];
    }
  double sq = BEST(rounds, 4000, AMS52x20_diagonal_mb8(&x[0][0], &x[0][0], &m52[0][0], k0));
  double st = BEST(rounds, 1000,
                   AMS4x52x20_diagonal_stitched_with_extract_mb8(
                       &x[0][0], &mb[0][0], &mbx[0][0], &x[0][0], &m52[0][0], k0, tbl, tblx,
                       idx));
  double mul =
      BEST(rounds, 4000, ifma_amm52x20_mb8(&x[0][0], &x[0][0], &mb[0][0], &m52[0][0], k0));
  double ahmm = BEST(rounds, 4000,
                     ifma_ahmm52x20_mb8(&x[0][0], &x[0][0], &mb[0][0], &mbx[0][0],
                                        &m52[0][0], k0));
  double exp = BEST(rounds, 10,
                    EXP52x20_mb8(out, (const u64(*)[8])b52, (const u64(*)[8])e64,
                                 (const u64(*)[8])m52, (const u64(*)[8])rr52, k0, work));
  printf("squaring %.1f ns, four stitched squarings %.1f ns (%.1f each), product %.1f ns, "
         "almost half product %.1f ns, exponentiation %.1f us\n",
         sq, st, st / 4, mul, ahmm, exp / 1000);
  srand(1);
  wide_operands(30);
  double sq30 = BEST(rounds, 2000, AMS52x30_diagonal_mb8(&wx[0][0], &wx[0][0], &wm[0][0], wk0));
  double mul30 =
      BEST(rounds, 2000, ifma_amm52x30_mb8(&wx[0][0], &wx[0][0], &wy[0][0], &wm[0][0], wk0));
  wide_operands(40);
  double sq40 = BEST(rounds, 2000, AMS52x40_diagonal_mb8(&wx[0][0], &wx[0][0], &wm[0][0], wk0));
  double mul40 =
      BEST(rounds, 2000, ifma_amm52x40_mb8(&wx[0][0], &wx[0][0], &wy[0][0], &wm[0][0], wk0));
  printf("30 digits: squaring %.1f ns, product %.1f ns; 40 digits: squaring %.1f ns, "
         "product %.1f ns\n",
         sq30, mul30, sq40, mul40);
  return 0;
}
