//! The seeded random source of generated configurations ([`crate::generator`]), benchmark graphs
//! ([`crate::bench`], [`crate::layout::random_graph`]) and the layout's random restarts: the same
//! numbers for a seed on every platform, wasm included.
//!
//! The generator is SplitMix64 from `rand_xoshiro` (the rust-random project's crate; our seed is its
//! state, as `seed_from_u64` takes it). Its sequence is what every generated configuration, README
//! figure and layout measurement in docs/layout.md was made with, so it stays: `rand_pcg` (used by
//! the walk's duration jitter) would serve as well but would give different files for the same
//! seed. [`SplitMix::below`] is the only code of ours: a uniform index by modulo (its bias, at most
//! `n / 2^64`, does not matter here).

use rand_core::{Rng as _, SeedableRng as _};
use rand_xoshiro::SplitMix64;

/// A seeded SplitMix64 with the one draw the callers need.
#[derive(Debug, Clone)]
pub struct SplitMix(SplitMix64);

impl SplitMix {
    pub fn new(seed: u64) -> Self {
        SplitMix(SplitMix64::seed_from_u64(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n` > 0; returns 0 for 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequence the generated files were made with: SplitMix64 with the seed as its state
    /// (the first outputs for state 0 as published with the algorithm, Steele, Lea and Flood 2014,
    /// and as Java's `SplittableRandom` and `rand_xoshiro` give them).
    #[test]
    fn the_sequence_is_splitmix64_from_the_seed() {
        let mut r = SplitMix::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(r.next_u64(), 0x06c4_5d18_8009_454f);
        let mut r = SplitMix::new(7);
        assert!((0..1000).all(|_| r.below(10) < 10));
        assert_eq!(r.below(0), 0);
    }
}
