//! The transposition table: a lock-free hash of search results shared by all threads.
//!
//! Four 16-byte entries make a 64-byte cluster (one cache line). Each entry is two atomic
//! words: the packed data and `key ^ data`. A reader recomputes the key from both words, so
//! an entry torn by two threads writing at once simply fails verification and reads as a
//! miss; moves read from the table are validated with `Position::is_legal` by the caller.

use crate::core::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Whether a stored score is exact or only a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    /// The true score is at most the stored one (all moves failed low).
    Upper = 1,
    /// The true score is at least the stored one (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub mv: Option<Move>,
    /// Score as stored: the caller converts it with [`score_from_tt`].
    pub score: i32,
    /// Static evaluation of the position (when it was computed).
    pub eval: i32,
    pub depth: i32,
    pub bound: TtBound,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const ENTRIES: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Cluster {
    entries: [Entry; ENTRIES],
}

// data layout: move 0..16, score 16..32, eval 32..48, depth 48..56, bound 56..58, age 58..64
#[inline(always)]
fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: TtBound, age: u8) -> u64 {
    let m = mv.map_or(0, |m| m.raw()) as u64;
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let e = (eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let d = depth.clamp(0, 255) as u64;
    m | s << 16 | e << 32 | d << 48 | (bound as u64) << 56 | ((age & 63) as u64) << 58
}

#[inline(always)]
fn data_depth(d: u64) -> i32 {
    ((d >> 48) & 0xff) as i32
}

#[inline(always)]
fn data_age(d: u64) -> u8 {
    (d >> 58) as u8 & 63
}

/// Asks Linux to back the (still untouched) capacity of `buf` with transparent huge pages.
/// With 4 KiB pages a large table costs a TLB miss on nearly every probe, and giving its
/// pages back at exit takes ~80 ms per GiB (longer than `quit` may take); 2 MiB pages cut
/// both. Only the 2 MiB-aligned middle of the buffer can be advised.
fn advise_huge_pages<T>(buf: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = buf.as_mut_ptr() as usize;
        let end = start + buf.capacity() * std::mem::size_of::<T>();
        let (a, b) = ((start + HUGE - 1) & !(HUGE - 1), end & !(HUGE - 1));
        if b > a {
            // SAFETY: [a, b) lies inside the allocation that `buf` owns; MADV_HUGEPAGE only
            // changes how the kernel backs those pages, never their contents or validity.
            // A failure (e.g. THP disabled) leaves ordinary pages, which is fine.
            unsafe {
                libc::madvise(a as *mut libc::c_void, b - a, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buf;
}

/// The shared table.
pub struct Tt {
    clusters: Vec<Cluster>,
    age: AtomicU8,
}

impl Tt {
    /// A table of about `mb` megabytes (at least one cluster). Where the memory cannot be had
    /// (the size overflows the address space, or the allocator refuses), the largest half,
    /// quarter, … of it that can: never an abort.
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let mut count = (bytes / std::mem::size_of::<Cluster>()).max(1);
        let mut clusters = Vec::new();
        while clusters.try_reserve_exact(count).is_err() && count > 1 {
            count /= 2;
        }
        advise_huge_pages(&mut clusters);
        clusters.resize_with(count, Cluster::default);
        Tt {
            clusters,
            age: AtomicU8::new(0),
        }
    }

    /// Empties every entry and resets the age: the table is as new.
    pub fn clear(&self) {
        for c in &self.clusters {
            for e in &c.entries {
                e.check.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        // Multiply-shift maps the key onto the cluster count without a modulo.
        let idx = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[idx]
    }

    /// Asks the processor to bring the cluster of `key` into the cache, so that the probe a
    /// moment later does not wait for memory (the table is larger than the caches).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.cluster(key) as *const Cluster as *const i8;
            // SAFETY: a prefetch is only a hint: it never faults and changes no memory (and
            // `p` points into the table anyway).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry whose key verifies, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.cluster(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            if data != 0 && e.check.load(Ordering::Relaxed) ^ data == key {
                let bound = match (data >> 56) & 3 {
                    1 => TtBound::Upper,
                    2 => TtBound::Lower,
                    3 => TtBound::Exact,
                    _ => return None,
                };
                return Some(TtHit {
                    mv: Move::from_raw(data as u16),
                    score: (data >> 16) as u16 as i16 as i32,
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: data_depth(data),
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result. Replaces the same position's entry (keeping its move when this result
    /// has none) unless that one is much deeper; otherwise the entry whose depth, less a
    /// penalty for age, is smallest.
    #[inline]
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: TtBound) {
        let age = self.age.load(Ordering::Relaxed);
        let cluster = self.cluster(key);
        let mut victim = &cluster.entries[0];
        let mut victim_worth = i32::MAX;
        for e in &cluster.entries {
            let data = e.data.load(Ordering::Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = e;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            if e.check.load(Ordering::Relaxed) ^ data == key {
                // Same position: keep a much deeper exact-or-bound result from this search.
                if bound != TtBound::Exact && data_depth(data) > depth + 3 && data_age(data) == age {
                    return;
                }
                let mv = mv.or(Move::from_raw(data as u16));
                let new = pack(mv, score, eval, depth, bound, age);
                e.data.store(new, Ordering::Relaxed);
                e.check.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let age_gap = (age.wrapping_sub(data_age(data)) & 63) as i32;
            let worth = data_depth(data) - 8 * age_gap;
            if worth < victim_worth {
                victim = e;
                victim_worth = worth;
            }
        }
        let new = pack(mv, score, eval, depth, bound, age);
        victim.data.store(new, Ordering::Relaxed);
        victim.check.store(key ^ new, Ordering::Relaxed);
    }

    /// Entries written in the current search, per mille, from a sample of the table.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.clusters.len().min(250);
        let mut used = 0;
        for c in &self.clusters[..sample] {
            for e in &c.entries {
                let d = e.data.load(Ordering::Relaxed);
                if d != 0 && data_age(d) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES)) as u32
    }
}

/// Converts a score to its stored form: decisive scores (mates and rule wins) count plies
/// from this node instead of from the root, so they stay true when reached by another path.
#[inline(always)]
pub fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v >= super::DECISIVE_BOUND {
        v + ply as i32
    } else if v <= -super::DECISIVE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// The inverse of [`score_to_tt`] at `ply`.
#[inline(always)]
pub fn score_from_tt(v: i32, ply: usize) -> i32 {
    if v >= super::DECISIVE_BOUND {
        v - ply as i32
    } else if v <= -super::DECISIVE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = Tt::new(1);
        let mv = Move::parse("h2e2").ok();
        tt.store(0x1234_5678_9abc_def0, mv, -123, 45, 7, TtBound::Lower);
        let hit = tt.probe(0x1234_5678_9abc_def0).expect("stored entry");
        assert_eq!(hit.mv, mv);
        assert_eq!(
            (hit.score, hit.eval, hit.depth, hit.bound),
            (-123, 45, 7, TtBound::Lower)
        );
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
        tt.clear();
        assert!(tt.probe(0x1234_5678_9abc_def0).is_none());
    }
}
