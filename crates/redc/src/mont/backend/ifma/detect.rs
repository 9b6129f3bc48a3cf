//! Detection of AVX512F, AVX512VL and AVX512IFMA: the [`Token`] that every IFMA entry point
//! requires.

/// Proof that this CPU supports AVX512F, AVX512VL and AVX512IFMA.
#[derive(Clone, Copy, Debug)]
pub struct Token(());

static DETECTED: super::super::Detected = super::super::Detected::new();

impl Token {
    /// The token if the CPU (and the operating system, which must save the 512-bit state)
    /// supports the extensions. Asks once, then answers from a cache.
    pub fn get() -> Option<Token> {
        DETECTED.get(cpu_has_ifma).then_some(Token(()))
    }
}

#[cfg(feature = "std")]
fn cpu_has_ifma() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512ifma")
}

#[cfg(not(feature = "std"))]
#[allow(unused_unsafe)]
fn cpu_has_ifma() -> bool {
    use core::arch::x86_64::{__cpuid_count, _xgetbv};
    // SAFETY: CPUID exists on every x86-64 CPU; leaf 7 is read only if present, XGETBV only
    // if CPUID says the OS enabled it (OSXSAVE).
    unsafe {
        if __cpuid_count(0, 0).eax < 7 {
            return false;
        }
        // Leaf 1 ECX bit 27: OSXSAVE.
        if __cpuid_count(1, 0).ecx & (1 << 27) == 0 {
            return false;
        }
        // XCR0 bits 1, 2 (SSE, AVX state) and 5, 6, 7 (opmask, ZMM0-15 upper, ZMM16-31).
        if _xgetbv(0) & 0xe6 != 0xe6 {
            return false;
        }
        let ebx = __cpuid_count(7, 0).ebx;
        // Leaf 7 sub-leaf 0, EBX bit 16: AVX512F; bit 21: AVX512IFMA; bit 31: AVX512VL.
        ebx & (1 << 16) != 0 && ebx & (1 << 21) != 0 && ebx & (1 << 31) != 0
    }
}
