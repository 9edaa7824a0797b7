//! The search loop compiled for each width, and on x86-64 once more with
//! the `popcnt` instruction (chosen at run time).

use super::{Job, run_job};
use crate::stats::StopReason;

/// Which build of the search loop runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kernel {
    /// Plain Rust: `count_ones` as the target allows (a bit-twiddling
    /// sequence on baseline x86-64).
    Portable,
    /// x86-64 with the `popcnt` instruction.
    #[cfg(target_arch = "x86_64")]
    Popcnt,
}

impl Kernel {
    /// The fastest build this CPU runs.
    pub(super) fn detect() -> Kernel {
        *Kernel::available().last().unwrap_or(&Kernel::Portable)
    }

    /// Every build this CPU runs, the portable one first.
    pub(super) fn available() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut kernels = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("popcnt") {
            kernels.push(Kernel::Popcnt);
        }
        kernels
    }
}

/// Calls `$run::<W>` for the width `$w` (one of [`super::WIDTHS`]).
macro_rules! by_width {
    ($w:expr, $($run:ident)::+; $($arg:expr),*) => {
        match $w {
            1 => $($run)::+::<1>($($arg),*),
            2 => $($run)::+::<2>($($arg),*),
            3 => $($run)::+::<3>($($arg),*),
            4 => $($run)::+::<4>($($arg),*),
            6 => $($run)::+::<6>($($arg),*),
            8 => $($run)::+::<8>($($arg),*),
            12 => $($run)::+::<12>($($arg),*),
            16 => $($run)::+::<16>($($arg),*),
            20 => $($run)::+::<20>($($arg),*),
            24 => $($run)::+::<24>($($arg),*),
            32 => $($run)::+::<32>($($arg),*),
            48 => $($run)::+::<48>($($arg),*),
            64 => $($run)::+::<64>($($arg),*),
            w => unreachable!("width {w} is not one of WIDTHS"),
        }
    };
}

/// Run the search loop with the kernel's build for the tables' width.
pub(super) fn drive(kernel: Kernel, job: &mut Job<'_, '_>) -> StopReason {
    match kernel {
        Kernel::Portable => by_width!(job.t.w, portable; job),
        #[cfg(target_arch = "x86_64")]
        Kernel::Popcnt => by_width!(job.t.w, popcnt::run; job),
    }
}

fn portable<const W: usize>(job: &mut Job<'_, '_>) -> StopReason {
    run_job::<W>(job)
}

#[cfg(target_arch = "x86_64")]
mod popcnt {
    use super::super::{Stack, Tables, Visit, search};
    use super::*;
    use crate::limits::Limits;
    use crate::stats::Stats;

    /// The search loop compiled with `popcnt` (every step it calls is
    /// `#[inline(always)]`, so the whole loop gets the instruction).
    pub(super) fn run<const W: usize>(job: &mut Job<'_, '_>) -> StopReason {
        // `inner` takes the job's parts one by one: references passed as
        // arguments tell the optimiser that they do not overlap, references
        // read from a struct do not (through the `Job`, 1.4-2.7% more
        // instructions on 12-queens, callgrind)
        #[target_feature(enable = "popcnt")]
        #[allow(clippy::too_many_arguments)]
        fn inner<const W: usize>(
            t: &Tables,
            s: &mut Stack,
            base: usize,
            limits: &Limits,
            fill: bool,
            visit: &mut Visit<'_>,
            stats: &mut Stats,
        ) -> StopReason {
            search::<W>(t, s, base, limits, fill, visit, stats)
        }
        assert!(std::is_x86_feature_detected!("popcnt"));
        let Job {
            t,
            s,
            base,
            limits,
            fill,
            visit,
            stats,
        } = job;
        // SAFETY: the CPU has `popcnt` (checked just above; the check is a
        // cached load), the one feature `inner` enables.
        unsafe { inner::<W>(t, s, *base, limits, *fill, *visit, stats) }
    }
}
