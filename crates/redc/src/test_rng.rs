//! Deterministic byte generators for the unit tests (never a source of real randomness).

/// A generator whose every byte comes from a closure; `next_u32` and `next_u64` are filled
/// from it too.
pub(crate) struct Bytes<F: FnMut() -> u8>(F);

impl<F: FnMut() -> u8> rand_core::RngCore for Bytes<F> {
    fn next_u32(&mut self) -> u32 {
        rand_core::impls::next_u32_via_fill(self)
    }
    fn next_u64(&mut self) -> u64 {
        rand_core::impls::next_u64_via_fill(self)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.fill_with(&mut self.0);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl<F: FnMut() -> u8> rand_core::CryptoRng for Bytes<F> {}

/// The bytes `start, start + 1, …` (wrapping), so a zero byte comes up every 256.
pub(crate) fn counting(start: u8) -> Bytes<impl FnMut() -> u8> {
    let mut next = start;
    Bytes(move || {
        let b = next;
        next = next.wrapping_add(1);
        b
    })
}

/// The byte `b` forever.
pub(crate) fn constant(b: u8) -> Bytes<impl FnMut() -> u8> {
    Bytes(move || b)
}

/// The low byte of one splitmix64 step per byte, from `seed`.
pub(crate) fn splitmix(seed: u64) -> Bytes<impl FnMut() -> u8> {
    let mut state = seed;
    Bytes(move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as u8
    })
}
