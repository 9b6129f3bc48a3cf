/*
 * What each multiplier of an AVX-512 core delivers a cycle: 512-bit VPMULUDQ (eight 32 x 32
 * products, no accumulation), 512-bit VPMADD52LUQ (eight halves of 52 x 52 products, added
 * into the destination), 512-bit VPADDQ, and, where the CPU has AMX-INT8 and the kernel grants
 * the tile state, TDPBUUD (a 16 x 16 tile of 32-bit sums, each of 64 unsigned byte products).
 * Each figure is independent instructions (no chain between them) in a loop; the cycle is
 * timed by a chain of dependent IMULs (3 cycles each; a chain of ADDs of an immediate is not
 * a clock on cores that fold them at rename, such as Golden Cove).
 *
 * Build and run (gcc 11 or later; pin it):
 *   gcc -O2 -mavx512f -mavx512ifma -mamx-tile -mamx-int8 multipliers.c -o multipliers
 *   taskset -c 1 ./multipliers
 *
 * The question it answers: would a kernel on another multiplier (VPMULUDQ for CPUs without
 * IFMA, AMX tiles for Sapphire Rapids and later) have the raw rate to beat the IFMA and MULX
 * kernels? The answers, with the CPU and date, are in docs/performance.md.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <immintrin.h>

#define ITERS 10000000L

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void imul_chain(void) {
    for (long i = 0; i < ITERS; i++)
        __asm__ volatile("imul %%rax,%%rax\n\timul %%rax,%%rax\n\timul %%rax,%%rax\n\t"
                         "imul %%rax,%%rax\n\timul %%rax,%%rax\n\timul %%rax,%%rax\n\t"
                         "imul %%rax,%%rax\n\timul %%rax,%%rax\n" ::: "rax");
}

/* Eight independent destinations; VPMADD52LUQ accumulates, so each register is a chain of
 * one instruction per iteration, eight in flight (more than its latency of four). */
#define EIGHT(op)                                                                            \
    for (long i = 0; i < ITERS; i++)                                                         \
        __asm__ volatile(op " %%zmm1,%%zmm0,%%zmm2\n\t" op " %%zmm1,%%zmm0,%%zmm3\n\t" op   \
                            " %%zmm1,%%zmm0,%%zmm4\n\t" op " %%zmm1,%%zmm0,%%zmm5\n\t" op   \
                            " %%zmm1,%%zmm0,%%zmm6\n\t" op " %%zmm1,%%zmm0,%%zmm7\n\t" op   \
                            " %%zmm1,%%zmm0,%%zmm8\n\t" op " %%zmm1,%%zmm0,%%zmm9\n" ::      \
                                : "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",  \
                                  "xmm9");

static void vpmuludq(void) { EIGHT("vpmuludq") }
static void vpmadd52luq(void) { EIGHT("vpmadd52luq") }
static void vpaddq(void) { EIGHT("vpaddq") }

/* The tile configuration of palette 1: eight tiles of 16 rows of 64 bytes. */
struct tile_config {
    uint8_t palette, start_row, reserved[14];
    uint16_t colsb[16];
    uint8_t rows[16];
};

static uint8_t zeros[16 * 64] __attribute__((aligned(64)));

/* Six independent accumulators (tiles 2..7) from the same two sources (tiles 0 and 1). */
static void tdpbuud(long n) {
    for (long i = 0; i < n; i++)
        __asm__ volatile("tdpbuud %%tmm1,%%tmm0,%%tmm2\n\ttdpbuud %%tmm1,%%tmm0,%%tmm3\n\t"
                         "tdpbuud %%tmm1,%%tmm0,%%tmm4\n\ttdpbuud %%tmm1,%%tmm0,%%tmm5\n\t"
                         "tdpbuud %%tmm1,%%tmm0,%%tmm6\n\ttdpbuud %%tmm1,%%tmm0,%%tmm7\n" ::
                             : "memory");
}

int main(void) {
    double t = seconds();
    imul_chain();
    double cycle = (seconds() - t) / (24.0 * ITERS);
    printf("clock: %.4f ns a cycle\n", cycle * 1e9);

    struct { const char *name; void (*f)(void); } vec[] = {
        {"VPMULUDQ zmm", vpmuludq}, {"VPMADD52LUQ zmm", vpmadd52luq}, {"VPADDQ zmm", vpaddq}};
    for (unsigned k = 0; k < sizeof vec / sizeof vec[0]; k++) {
        t = seconds();
        vec[k].f();
        printf("%-16s %.3f cycles each (independent)\n", vec[k].name,
               (seconds() - t) / (8.0 * ITERS) / cycle);
    }

    /* Linux grants the AMX tile data state only on request (ARCH_REQ_XCOMP_PERM for
     * XFEATURE_XTILEDATA, number 18). */
    long granted = syscall(SYS_arch_prctl, 0x1023, 18);
    if (granted != 0) {
        printf("AMX tile state not granted (arch_prctl returned %ld): no TDPBUUD figure\n",
               granted);
        return 0;
    }
    struct tile_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.palette = 1;
    for (int i = 0; i < 8; i++) {
        cfg.colsb[i] = 64;
        cfg.rows[i] = 16;
    }
    _tile_loadconfig(&cfg);
    _tile_loadd(0, zeros, 64);
    _tile_loadd(1, zeros, 64);
    _tile_loadd(2, zeros, 64);
    _tile_loadd(3, zeros, 64);
    _tile_loadd(4, zeros, 64);
    _tile_loadd(5, zeros, 64);
    _tile_loadd(6, zeros, 64);
    _tile_loadd(7, zeros, 64);
    long n = ITERS / 10;
    t = seconds();
    tdpbuud(n);
    double per = (seconds() - t) / (6.0 * n) / cycle;
    printf("TDPBUUD          %.2f cycles each, %.0f byte products a cycle\n", per, 16384.0 / per);
    _tile_release();
    return 0;
}
