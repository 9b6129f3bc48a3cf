#!/usr/bin/env python3
"""Writes a C program that times the MULX kernels' row shape, one product or two.

    python3 mulx_rows.py 1 > one.c && gcc -O2 one.c -o one && taskset -c 1 ./one
    python3 mulx_rows.py 2 > two.c && gcc -O2 two.c -o two && taskset -c 1 ./two

A row multiplies the 16 limbs of `a` by one limb of `b` (in rdx) and adds the products into
the column array `t` in memory: per column one MULX, an ADCX from memory (the column), an
ADOX of the previous column's high half, a store and a register move, the shape of redc's
MULX products (crates/redc/src/mont/backend/mulx_sized). With `1` the program runs the 16
rows of one 16 x 16-limb product per call; with `2` the rows of two independent products
alternate (row i of the first, then row i of the second), so that the core has a second,
independent carry chain to overlap with the first. It prints the fastest call of 50 timed
runs of 20,000 calls and the time per column (per MULX). If the second figure is no lower
than the first, the row shape runs at the core's throughput for its instruction mix and
more chains in flight cannot speed the MULX kernels up.
"""
import sys

L = 16


def row(t, a, b, i):
    s = [f"mov rdx, [{b}+{8 * i}]", "xor r8d, r8d"]  # xor clears CF and OF
    for j in range(L):
        s += [
            f"mulx r10, r9, [{a}+{8 * j}]",
            f"adcx r9, [{t}+{8 * (i + j)}]",
            "adox r9, r8",
            f"mov [{t}+{8 * (i + j)}], r9",
            "mov r8, r10",
        ]
    s += ["mov r9, 0", "adcx r8, r9", "adox r8, r9", f"mov [{t}+{8 * (i + L)}], r8"]
    return s


def main():
    products = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    if products not in (1, 2):
        sys.exit("usage: mulx_rows.py 1|2")
    lines = []
    for i in range(L):
        lines += row("rdi", "rsi", "rcx", i)
        if products == 2:
            lines += row("rax", "rsi", "rcx", i)
    body = "\n".join(f'        "{x}\\n"' for x in lines)
    print(f"""#include <stdint.h>
#include <stdio.h>
#include <time.h>

static uint64_t t1[2 * {L} + 1], t2[2 * {L} + 1], a[{L}], b[{L}];

int main(void) {{
    for (int i = 0; i < {L}; i++) {{
        a[i] = 0x9e3779b97f4a7c15ull * (i + 1);
        b[i] = 0xc2b2ae3d27d4eb4full * (i + 3);
    }}
    double best = 1e30;
    for (int run = 0; run < 50; run++) {{
        struct timespec s, e;
        clock_gettime(CLOCK_MONOTONIC, &s);
        for (int call = 0; call < 20000; call++) {{
            __asm__ volatile(
        ".intel_syntax noprefix\\n"
{body}
        ".att_syntax\\n"
                :
                : "D"(t1), "S"(a), "c"(b), "a"(t2)
                : "rdx", "r8", "r9", "r10", "memory", "cc");
        }}
        clock_gettime(CLOCK_MONOTONIC, &e);
        double ns = ((e.tv_sec - s.tv_sec) * 1e9 + (e.tv_nsec - s.tv_nsec)) / 20000.0;
        if (ns < best) best = ns;
    }}
    printf("%d product(s) per call: %.1f ns per call, %.3f ns per column\\n", {products}, best,
           best / ({products} * {L * L}.0));
    return 0;
}}""")


if __name__ == "__main__":
    main()
