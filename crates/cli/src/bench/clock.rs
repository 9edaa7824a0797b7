//! The clock `sudoku bench` times with: the calling thread's CPU time, so
//! time spent descheduled on a busy machine is not counted (wall time
//! swings twofold there). Where the platform has no per-thread CPU clock
//! (not Unix), or reading it fails, wall time.
//!
//! Reading the thread CPU clock is a system call (a few hundred
//! nanoseconds), so the bench reads it around chunks of puzzles, never
//! around a single quick solve.

use std::time::{Duration, Instant};

/// What the clock measures, for table headers.
pub const WHAT: &str = if cfg!(unix) {
    "thread CPU time"
} else {
    "wall time"
};

/// A reading of this thread's clock.
#[derive(Clone, Copy, Debug)]
pub enum CpuClock {
    /// This thread's CPU time so far.
    Cpu(Duration),
    /// Wall time, where there is no CPU clock.
    Wall(Instant),
}

impl CpuClock {
    /// Now.
    pub fn now() -> CpuClock {
        match sys::thread_cpu_time() {
            Some(t) => CpuClock::Cpu(t),
            None => CpuClock::Wall(Instant::now()),
        }
    }

    /// The time since `self`, on the same clock and the same thread.
    pub fn elapsed(self) -> Duration {
        match self {
            CpuClock::Cpu(t) => {
                sys::thread_cpu_time().map_or(Duration::ZERO, |n| n.saturating_sub(t))
            }
            CpuClock::Wall(t) => t.elapsed(),
        }
    }
}

#[cfg(unix)]
mod sys {
    use std::time::Duration;

    /// The CPU time this thread has used, or `None` if the clock fails.
    pub(super) fn thread_cpu_time() -> Option<Duration> {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` writes one `timespec` through the pointer,
        // which points to a live, writable, properly aligned local; it keeps
        // no reference to it. CLOCK_THREAD_CPUTIME_ID is a valid clock id on
        // every Unix libc defines it for; an error is reported by the
        // return value, which is checked.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if rc != 0 || ts.tv_sec < 0 || !(0..1_000_000_000).contains(&ts.tv_nsec) {
            return None;
        }
        Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }
}

#[cfg(not(unix))]
mod sys {
    /// No per-thread CPU clock here: the caller falls back to wall time.
    pub(super) fn thread_cpu_time() -> Option<std::time::Duration> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_counts_work_and_not_sleep() {
        let t = CpuClock::now();
        let mut x = 1u64;
        for i in 0..3_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
        }
        let busy = t.elapsed();
        assert!(busy > Duration::ZERO, "{x}");
        if cfg!(unix) {
            assert!(matches!(t, CpuClock::Cpu(_)));
            let t = CpuClock::now();
            std::thread::sleep(Duration::from_millis(60));
            assert!(
                t.elapsed() < Duration::from_millis(30),
                "sleep is not CPU time"
            );
        }
    }
}
