//! A secret-dependence check of the assembly kernels as compiled into this binary (the MULX
//! sized kernels, the IFMA duo and lane kernels), which Valgrind 3.19 cannot execute (no ADX,
//! no AVX-512). The test disassembles itself with `objdump`, takes every kernel function by
//! its symbol, and runs a taint analysis over its instructions:
//!
//! - every value loaded from memory (other than a stack slot that holds a public value) and
//!   every vector and mask register is secret; the pointer and count arguments (`rdi`, `rsi`,
//!   `rdx`, `rcx`, `r8`, `r9`) and `rsp` are public; results of arithmetic on a secret are
//!   secret; immediates, zeroing idioms and `lea` of public registers are public;
//! - a memory operand whose base or index register is secret is a **secret-dependent
//!   address**; a conditional jump whose flags come from a secret is a **secret-dependent
//!   branch**; an instruction outside an allow-list (which excludes division and every other
//!   instruction whose latency depends on its operands) is refused.
//!
//! The analysis runs the instruction list three times, carrying the state around loop
//! back-edges. Negative tests feed it small functions with a secret branch, a secret address,
//! a division and an unknown instruction, and check that each is refused, so the check can
//! fail. What it does not prove: the Rust drivers around the kernels (checked on the portable
//! path by the Valgrind taint test, and reviewed: they branch only on lengths) and timing
//! effects below the instruction level.

#![cfg(target_arch = "x86_64")]

use std::collections::{HashMap, HashSet};
use std::process::Command;

/// Mnemonics the kernels may use: data movement, additions, multiplications (fixed latency),
/// logic and shifts, vector multiply-adds, permutes, masks, and the loop's `dec`/`jne`.
const ALLOWED: &[&str] = &[
    "mov",
    "movq",
    "movabs",
    "movl",
    "lea",
    "push",
    "pop",
    "ret",
    "jmp",
    "jne",
    "jnz",
    "je",
    "jz",
    "dec",
    "inc",
    "add",
    "adc",
    "adcx",
    "adox",
    "sub",
    "sbb",
    "mulx",
    "imul",
    "xor",
    "and",
    "or",
    "not",
    "neg",
    "shl",
    "shr",
    "sar",
    "shld",
    "shrd",
    "clc",
    "stc",
    "cmp",
    "test",
    "nop",
    "nopl",
    "nopw",
    "data16",
    "cs",
    "int3",
    "endbr64",
    "vmovdqu64",
    "vmovdqa64",
    "vmovdqu",
    "vmovdqa",
    "vpmadd52luq",
    "vpmadd52huq",
    "vpxord",
    "vpxorq",
    "vpxor",
    "vpaddq",
    "vpsubq",
    "valignq",
    "vpsrlq",
    "vpsraq",
    "vpsllq",
    "vpandq",
    "vpand",
    "vpandnq",
    "vporq",
    "vpor",
    "vpblendmq",
    "vbroadcasti32x4",
    "vbroadcasti64x2",
    "vshufi64x2",
    "vextracti32x4",
    "vextracti64x2",
    "vinserti32x4",
    "vpbroadcastq",
    "vpermq",
    "vpermt2q",
    "vpcmpnleuq",
    "vpcmpequq",
    "vpcmpuq",
    "vpternlogq",
    "kmovw",
    "kmovb",
    "kmovq",
    "kmovd",
    "kandw",
    "korw",
    "kxorw",
    "knotw",
    "vzeroupper",
];

/// The 64-bit name of a general register operand (`%eax` → `rax`, `%r8d` → `r8`), or None for
/// a vector or mask register.
fn gpr(op: &str) -> Option<String> {
    let r = op.trim().strip_prefix('%')?;
    let map: &[(&[&str], &str)] = &[
        (&["rax", "eax", "ax", "al", "ah"], "rax"),
        (&["rbx", "ebx", "bx", "bl", "bh"], "rbx"),
        (&["rcx", "ecx", "cx", "cl", "ch"], "rcx"),
        (&["rdx", "edx", "dx", "dl", "dh"], "rdx"),
        (&["rsi", "esi", "si", "sil"], "rsi"),
        (&["rdi", "edi", "di", "dil"], "rdi"),
        (&["rbp", "ebp", "bp", "bpl"], "rbp"),
        (&["rsp", "esp", "sp", "spl"], "rsp"),
    ];
    for (names, full) in map {
        if names.contains(&r) {
            return Some(full.to_string());
        }
    }
    let n = r.trim_end_matches(['d', 'w', 'b']);
    if n.starts_with('r') && n[1..].parse::<u8>().is_ok_and(|x| (8..=15).contains(&x)) {
        return Some(n.to_string());
    }
    None
}

/// A memory operand `disp(base,index,scale)`: its base and index registers, and for a plain
/// `disp(%base)` the slot `(base, disp)`.
struct Mem {
    regs: Vec<String>,
    slot: Option<(String, i64)>,
    rip: bool,
}

fn mem(op: &str) -> Option<Mem> {
    let op = op.trim();
    let open = op.find('(')?;
    let inner = op[open + 1..].trim_end_matches(')');
    let disp = &op[..open];
    let parts: Vec<&str> = inner.split(',').collect();
    let rip = parts.first().is_some_and(|b| b.trim() == "%rip");
    let regs: Vec<String> = parts.iter().take(2).filter_map(|p| gpr(p)).collect();
    let base = (parts.len() == 1).then(|| gpr(parts[0])).flatten();
    let slot = base.map(|b| {
        let d = disp.trim();
        let off = if d.is_empty() {
            0
        } else if let Some(h) = d.strip_prefix("0x") {
            i64::from_str_radix(h, 16).unwrap_or(i64::MIN)
        } else if let Some(h) = d.strip_prefix("-0x") {
            -i64::from_str_radix(h, 16).unwrap_or(i64::MIN)
        } else {
            d.parse().unwrap_or(i64::MIN)
        };
        (b, off)
    });
    Some(Mem { regs, slot, rip })
}

/// Splits AT&T operands at the commas outside parentheses, dropping `{%k1}` decorations.
fn operands(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0, String::new());
    let mut brace = 0;
    for c in s.chars() {
        match c {
            '{' => brace += 1,
            '}' => brace -= 1,
            _ if brace > 0 => {}
            '(' => {
                depth += 1;
                cur.push(c)
            }
            ')' => {
                depth -= 1;
                cur.push(c)
            }
            ',' if depth == 0 => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|o| o.trim().to_string()).collect()
}

/// The analysis state before an instruction: secret general registers, memory slots
/// `(base register, displacement)` known to hold a public value (a pointer or count the code
/// spilled), and whether the flags are secret. Slots through different base registers are
/// taken not to alias (the kernels' buffers are distinct by their contract); writing a base
/// register forgets its slots.
#[derive(Clone, PartialEq)]
struct State {
    secret: HashSet<String>,
    public_slots: HashSet<(String, i64)>,
    flags_secret: bool,
}

impl State {
    /// Joins `other` into `self` (a register or the flags secret on either path is secret; a
    /// slot is public only if public on both); whether `self` changed.
    fn join(&mut self, other: &State) -> bool {
        let before = self.clone();
        self.secret.extend(other.secret.iter().cloned());
        self.public_slots.retain(|s| other.public_slots.contains(s));
        self.flags_secret |= other.flags_secret;
        *self != before
    }
}

/// One instruction: its address (if known), mnemonic and operands, and its jump target.
struct Insn {
    text: String,
    mn: String,
    ops: Vec<String>,
    target: Option<u64>,
    addr: Option<u64>,
}

fn parse(line: &str) -> Insn {
    // "addr:\tmnemonic operands" (objdump) or just "mnemonic operands".
    let (addr, ins) = match line.split_once(":\t") {
        Some((a, i)) => (u64::from_str_radix(a.trim(), 16).ok(), i.trim()),
        None => (None, line.trim()),
    };
    let mut words = ins.splitn(2, char::is_whitespace);
    let mn = words.next().unwrap_or("").trim().to_string();
    let rest = words.next().unwrap_or("").trim();
    let target = rest
        .split(" <")
        .next()
        .and_then(|t| u64::from_str_radix(t.trim(), 16).ok());
    let rest = rest.split(" <").next().unwrap_or("").trim();
    Insn {
        text: ins.to_string(),
        ops: operands(rest),
        mn,
        target,
        addr,
    }
}

/// The transfer of one instruction: the state after it, and its violations (reported only
/// when `report`).
fn step(
    name: &str,
    i: usize,
    insn: &Insn,
    next_is_int3: bool,
    st: &State,
    bad: &mut Vec<String>,
) -> State {
    let allowed: HashSet<&str> = ALLOWED.iter().copied().collect();
    let mut st = st.clone();
    let (mn, ops, ins) = (insn.mn.as_str(), &insn.ops, &insn.text);
    if mn.is_empty() {
        return st;
    }
    // A call followed by int3 does not return (a panic on a failed length check).
    let panics = mn == "call" && next_is_int3;
    if !allowed.contains(mn) && !panics {
        bad.push(format!(
            "{name}: instruction {i} `{ins}`: `{mn}` is not allowed"
        ));
        return st;
    }
    // Padding nops name a memory operand but access nothing.
    if matches!(mn, "nop" | "nopl" | "nopw" | "data16" | "cs") {
        return st;
    }
    let mut loads_secret = false;
    for (k, op) in ops.iter().enumerate() {
        if let Some(m) = mem(op) {
            if !m.rip && m.regs.iter().any(|r| st.secret.contains(r)) {
                bad.push(format!(
                    "{name}: instruction {i} `{ins}`: secret-dependent address"
                ));
            }
            let is_dest = k + 1 == ops.len() && ops.len() > 1;
            if !is_dest {
                loads_secret |= !m
                    .slot
                    .as_ref()
                    .is_some_and(|sl| st.public_slots.contains(sl));
            }
        }
    }
    if mn.starts_with('j') && mn != "jmp" {
        if st.flags_secret {
            bad.push(format!(
                "{name}: instruction {i} `{ins}`: secret-dependent branch"
            ));
        }
        return st;
    }
    let n = ops.len();
    let s_in = loads_secret
        || ops.iter().take(n.saturating_sub(1)).any(|o| match gpr(o) {
            Some(r) => st.secret.contains(&r),
            None => o.starts_with('%'), // vector or mask register
        });
    let dest = ops.last().cloned().unwrap_or_default();
    let dest_gpr = gpr(&dest);
    let d_in = dest_gpr.as_ref().is_some_and(|r| st.secret.contains(r));
    if let Some(m) = mem(&dest) {
        if let (Some(sl), true) = (m.slot, n > 1) {
            if s_in {
                st.public_slots.remove(&sl);
            } else {
                st.public_slots.insert(sl);
            }
        }
    }
    let result = match mn {
        "mov" | "movq" | "movabs" | "movl" => s_in,
        "lea" => ops
            .first()
            .and_then(|o| mem(o))
            .is_none_or(|m| m.regs.iter().any(|r| st.secret.contains(r))),
        "xor" if n == 2 && ops[0] == ops[1] => false,
        "push" | "ret" | "jmp" | "call" | "nop" | "nopl" | "nopw" | "data16" | "cs" | "int3"
        | "endbr64" | "clc" | "stc" | "vzeroupper" => return st,
        "pop" => true,
        "cmp" | "test" => {
            st.flags_secret = s_in || d_in;
            return st;
        }
        "mulx" => {
            // Both results: secret unless both inputs (rdx implicit) are public.
            let sec = s_in || st.secret.contains("rdx");
            for o in &ops[1..] {
                if let Some(r) = gpr(o) {
                    st.public_slots.retain(|(b, _)| *b != r);
                    if sec {
                        st.secret.insert(r);
                    } else {
                        st.secret.remove(&r);
                    }
                }
            }
            return st;
        }
        "dec" | "inc" | "neg" | "not" => d_in,
        _ if mn.starts_with('v') || mn.starts_with('k') => s_in || dest_gpr.is_none(),
        _ => s_in || d_in,
    };
    if matches!(
        mn,
        "dec"
            | "inc"
            | "add"
            | "adc"
            | "adcx"
            | "adox"
            | "sub"
            | "sbb"
            | "and"
            | "or"
            | "xor"
            | "neg"
            | "shl"
            | "shr"
            | "sar"
            | "shld"
            | "shrd"
            | "imul"
    ) {
        st.flags_secret = result;
    }
    if let Some(r) = dest_gpr {
        // A base moved by a constant (a loop's pointer step) keeps no slot knowledge either.
        st.public_slots.retain(|(b, _)| *b != r);
        if result {
            st.secret.insert(r);
        } else {
            st.secret.remove(&r);
        }
    }
    st
}

/// Checks one function's instructions (objdump lines or bare AT&T instructions) by a forward
/// dataflow over its control flow (fall-through, loop back-edges, jumps); returns the
/// violations.
fn check(name: &str, lines: &[String]) -> Vec<String> {
    let insns: Vec<Insn> = lines.iter().map(|l| parse(l)).collect();
    let index: HashMap<u64, usize> = insns
        .iter()
        .enumerate()
        .filter_map(|(i, x)| x.addr.map(|a| (a, i)))
        .collect();
    let succ = |i: usize| -> Vec<usize> {
        let x = &insns[i];
        let target = x.target.and_then(|t| index.get(&t).copied());
        match x.mn.as_str() {
            "ret" | "ud2" => vec![],
            // A call that does not return (a panic: the compiler puts int3 after it).
            "call" if insns.get(i + 1).is_some_and(|n| n.mn == "int3") => vec![],
            "jmp" => target.into_iter().collect(),
            m if m.starts_with('j') => core::iter::once(i + 1).chain(target).collect(),
            _ => vec![i + 1],
        }
    };
    let entry = State {
        secret: [
            "rax", "rbx", "rbp", "r10", "r11", "r12", "r13", "r14", "r15",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        public_slots: HashSet::new(),
        flags_secret: false,
    };
    let mut states: Vec<Option<State>> = vec![None; insns.len()];
    if insns.is_empty() {
        return vec![];
    }
    states[0] = Some(entry);
    let mut work = vec![0usize];
    let mut scratch = Vec::new();
    while let Some(i) = work.pop() {
        let Some(st) = states[i].clone() else {
            continue;
        };
        let int3 = insns.get(i + 1).is_some_and(|n| n.mn == "int3");
        let out = step(name, i, &insns[i], int3, &st, &mut scratch);
        scratch.clear();
        for j in succ(i) {
            if j >= insns.len() {
                continue;
            }
            let changed = match &mut states[j] {
                Some(s) => s.join(&out),
                slot @ None => {
                    *slot = Some(out.clone());
                    true
                }
            };
            if changed {
                work.push(j);
            }
        }
    }
    // Report on the fixed point.
    let mut bad = Vec::new();
    for (i, st) in states.iter().enumerate() {
        if let Some(st) = st {
            let int3 = insns.get(i + 1).is_some_and(|n| n.mn == "int3");
            step(name, i, &insns[i], int3, st, &mut bad);
        }
    }
    bad
}

/// The kernel functions of this test binary, disassembled: name → instructions.
fn kernels() -> Vec<(String, Vec<String>)> {
    let exe = std::env::current_exe().unwrap();
    let out = Command::new("objdump")
        .args(["-d", "--no-show-raw-insn", "-C"])
        .arg(&exe)
        .output()
        .expect("objdump (binutils) is needed to check the assembly kernels");
    assert!(out.status.success(), "objdump failed");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut funcs = Vec::new();
    let mut current: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        if let Some(start) = line.find(" <") {
            if line.ends_with(">:") && line[..start].chars().all(|c| c.is_ascii_hexdigit()) {
                if let Some(f) = current.take() {
                    funcs.push(f);
                }
                let name = &line[start + 2..line.len() - 2];
                let wanted = name.starts_with("redc::mont::backend::mulx_sized::")
                    || name.starts_with("redc::mont::backend::ifma_duo::duo_asm::")
                    || name.starts_with("redc::mont::backend::ifma::")
                        && name.contains("::lanes_asm::");
                if wanted {
                    current = Some((name.to_string(), Vec::new()));
                }
                continue;
            }
        }
        if let Some((_, insns)) = current.as_mut() {
            if line.contains(":\t") {
                insns.push(line.trim().to_string());
            }
        }
    }
    if let Some(f) = current {
        funcs.push(f);
    }
    funcs
}

#[test]
fn the_assembly_kernels_have_no_secret_dependent_branch_address_or_instruction() {
    // Use the private operation on every backend, so that the linker keeps every kernel in this
    // binary (they are reached through the dispatch tables) and the run exercises them.
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let key = redc::rsa::RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let mut want = None;
    for b in redc::mont::backend::Backend::available() {
        let mut k = key.clone();
        k.set_backend(b).unwrap();
        let got = k.raw_private(None, &[7u8; 100]).unwrap();
        assert_eq!(*want.get_or_insert_with(|| got.clone()), got);
    }
    let funcs = kernels();
    let count = |p: &str| funcs.iter().filter(|(n, _)| n.contains(p)).count();
    // Every kernel of every list is here (the lists are the ones dispatch reads).
    let lanes = redc::mont::backend::ifma::COMPILED_DIGITS.len();
    let duo = redc::mont::backend::ifma_duo::DUO_DIGITS.len();
    let duo256 = redc::mont::backend::ifma_duo::DUO_DIGITS_256.len();
    let sized = redc::mont::backend::mulx::SIZED_LIMBS.len();
    // Per digit count: the squaring, the product, the product selecting its multiplier, and
    // the squarings selecting it (one per group size).
    let groups = redc::mont::backend::ifma::STITCH_GROUP_SIZES.len();
    let schoolbook = redc::mont::backend::ifma::SCHOOLBOOK_DIGITS.len();
    assert!(
        count("lanes_asm::") >= (3 + groups) * lanes + (1 + groups) * schoolbook
            && count("lanes_asm::mulsel_") >= lanes
            && count("lanes_asm::sqrsel") >= groups * lanes,
        "{} lane kernels found",
        count("lanes_asm::")
    );
    // The memory-operand products: plain and selecting, per digit count that has them.
    let mem_products = redc::mont::backend::ifma::MEM_PRODUCT_DIGITS.len();
    assert!(
        count("lanes_asm::mmul") >= 2 * mem_products,
        "{} memory-operand products found",
        count("lanes_asm::mmul")
    );
    // The tiled squarings and products: plain and selecting, per digit count that has them.
    let tiled = redc::mont::backend::ifma::TILED_DIGITS.len();
    assert!(
        count("lanes_asm::tsqr") >= (1 + groups) * tiled && count("lanes_asm::tmul") >= 2 * tiled,
        "{} tiled squarings and {} tiled products found",
        count("lanes_asm::tsqr"),
        count("lanes_asm::tmul")
    );
    // The schoolbook squarings: plain and selecting, per digit count that has them.
    assert!(
        count("lanes_asm::ssqr") >= (1 + groups) * schoolbook,
        "{} schoolbook squarings found",
        count("lanes_asm::ssqr")
    );
    // Both widths' squarings and products (the 256-bit ones named `ysqr_`, `ymul_`).
    assert!(
        count("duo_asm::") >= 2 * (duo + duo256) && count("duo_asm::y") >= 2 * duo256,
        "{} duo kernels found",
        count("duo_asm::")
    );
    assert!(
        count("mulx_sized::") >= 2 * sized,
        "{} MULX kernels found",
        count("mulx_sized::")
    );
    let mut bad = Vec::new();
    let mut insns = 0;
    for (name, body) in &funcs {
        insns += body.len();
        bad.extend(check(name, body));
    }
    eprintln!(
        "{} kernel functions, {insns} instructions checked",
        funcs.len()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn lines(s: &str) -> Vec<String> {
    s.lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_checker_refuses_what_it_must() {
    // A benign kernel: loads through argument pointers, a counted loop, MULX and carries.
    let ok = lines(
        "mov    (%rdi),%rdx
         mulx   0x8(%rsi),%rax,%rbx
         adcx   %rax,%r10
         mov    %r10,0x10(%rdi)
         mov    %rdi,0x8(%rsp)
         mov    0x8(%rsp),%r11
         mov    (%r11),%r12
         dec    %rcx
         jne    1000 <f+0x10>
         ret",
    );
    assert_eq!(check("ok", &ok), Vec::<String>::new());
    // A branch on a loaded value.
    let branch = lines(
        "mov    (%rdi),%rax
         test   %rax,%rax
         je     1000 <f+0x10>
         ret",
    );
    assert!(check("branch", &branch)[0].contains("secret-dependent branch"));
    // A loop counter derived from data.
    let counter = lines(
        "mov    0x8(%rdi),%rcx
         dec    %rcx
         jne    1000 <f+0x10>",
    );
    assert!(check("counter", &counter)[0].contains("secret-dependent branch"));
    // A table index from data (the cache-timing pattern).
    let address = lines(
        "mov    (%rdi),%rax
         and    $0xf,%rax
         mov    (%rsi,%rax,8),%rbx",
    );
    assert!(check("address", &address)[0].contains("secret-dependent address"));
    let through_mulx = lines(
        "mulx   (%rsi),%rax,%rbx
         vmovdqu64 (%rdi,%rbx,8),%zmm0",
    );
    assert!(check("mulx", &through_mulx)[0].contains("secret-dependent address"));
    // A division, and an unknown instruction.
    let div = lines("div    %rcx");
    assert!(check("div", &div)[0].contains("`div` is not allowed"));
    let call = lines(
        "call   1000 <g>
         ret",
    );
    assert!(check("call", &call)[0].contains("not allowed"));
    // A secret spilled to the stack stays secret when reloaded.
    let spill = lines(
        "mov    (%rdi),%rax
         mov    %rax,0x18(%rsp)
         mov    0x18(%rsp),%rbx
         mov    (%rsi,%rbx,1),%rcx",
    );
    assert!(check("spill", &spill)[0].contains("secret-dependent address"));
}
