//! Valgrind client requests, for the hardening tests. Public only with the `test-hooks`
//! feature (test and measurement hooks; not for production); the library itself calls
//! [`declassify`] on the few values that are public by design.
//!
//! The secret-taint test marks every secret of a key *undefined* for memcheck
//! ([`make_mem_undefined`]); memcheck then reports any branch or address that depends on them.
//! The library declassifies (marks *defined*) exactly the values that are public by design,
//! through [`declassify`]: the fault-check verdict, and the final validity bit and message
//! offset of a decryption. The instruction-count test uses the callgrind requests.
//!
//! A client request is Valgrind's magic no-op sequence (`valgrind.h`, amd64: four `rol`s of
//! `rdi` by 3, 13, 61 and 51 bits, i.e. 128 bits in all, then `xchg rbx, rbx`), with the
//! address of a six-word request block in `rax` and the default result in `rdx`. Run natively
//! it changes nothing and costs a few instructions; under Valgrind the request is performed and
//! its result replaces `rdx`. On other architectures every function here is a no-op returning
//! the default.

const MC_BASE: u64 = ((b'M' as u64) << 24) | ((b'C' as u64) << 16);
const CT_BASE: u64 = ((b'C' as u64) << 24) | ((b'T' as u64) << 16);

/// One client request: `args = [request, a1, a2, a3, a4, a5]`; returns `default` when not
/// running under Valgrind.
#[inline(always)]
pub fn client_request(default: u64, args: &[u64; 6]) -> u64 {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        let mut result = default;
        // SAFETY: the sequence leaves every register as it was except `rdx` (the result) and
        // the flags; `rdi` is rotated by 128 bits in all. Valgrind reads the request block
        // through `rax` and may write memory only as the request says (shadow state only for
        // the requests used here).
        unsafe {
            core::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") result,
                options(nostack),
            );
        }
        result
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        let _ = args;
        default
    }
}

/// Whether the program runs under Valgrind (the number of Valgrind layers, 0 natively).
pub fn running_on_valgrind() -> u64 {
    client_request(0, &[0x1001, 0, 0, 0, 0, 0])
}

/// memcheck: the `len` bytes at `addr` become undefined ("secret" for the taint test).
pub fn make_mem_undefined(addr: *const u8, len: usize) {
    client_request(0, &[MC_BASE + 1, addr as u64, len as u64, 0, 0, 0]);
}

/// memcheck: the `len` bytes at `addr` become defined (declassified).
pub fn make_mem_defined(addr: *const u8, len: usize) {
    client_request(0, &[MC_BASE + 2, addr as u64, len as u64, 0, 0, 0]);
}

/// Declassifies `x`: returns it with memcheck's definedness set, so that the caller may branch
/// on it. Use ONLY on values that are public by design (a verdict the caller receives anyway).
#[inline(always)]
pub fn declassify<T: Copy>(x: T) -> T {
    let v = x;
    make_mem_defined(&v as *const T as *const u8, core::mem::size_of::<T>());
    // Read it back through memory so the defined copy is what the caller branches on.
    // SAFETY: `v` is a live, initialised `T`.
    unsafe { core::ptr::read_volatile(&v) }
}

/// [`declassify`] for a [`subtle::Choice`], as a `bool` (without `subtle`'s debug assertion,
/// which would branch on the undeclassified value).
#[inline(always)]
pub fn declassify_choice(c: subtle::Choice) -> bool {
    declassify(c.unwrap_u8()) != 0
}

/// callgrind: zero the cost counters.
pub fn callgrind_zero_stats() {
    client_request(0, &[CT_BASE + 1, 0, 0, 0, 0, 0]);
}

/// callgrind: toggle event collection.
pub fn callgrind_toggle_collect() {
    client_request(0, &[CT_BASE + 2, 0, 0, 0, 0, 0]);
}

/// callgrind: dump the counters (and zero them), labelled with the NUL-terminated `label`.
pub fn callgrind_dump_stats_at(label: &core::ffi::CStr) {
    client_request(0, &[CT_BASE + 3, label.as_ptr() as u64, 0, 0, 0, 0]);
}
