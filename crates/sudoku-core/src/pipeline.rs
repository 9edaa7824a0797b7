//! The ordered, bounded, parallel map behind every batch: records in, answers
//! out in input order, memory bounded by a window, never by the input.
//!
//! # Design
//!
//! ```text
//!  source (own thread)   ──jobs──▶  workers (N threads, or the caller's
//!  pulls records, waits             thread when N = 1), each with its own
//!  for a window slot                state (solvers, buffers)
//!         ▲                                │ (seq, answer)
//!         └──── slot returned ◀── sink (caller's thread): reorders,
//!                                 writes answer `seq` once every earlier
//!                                 one is written, then frees its slot
//! ```
//!
//! - **Bounded.** A job takes one of `window` slots before it is read off the
//!   source, and gives it back only when its answer has been handed to the
//!   sink. So at most `window` jobs are read, queued, being worked on or
//!   waiting to be reordered, whatever the input's length, and the reorder
//!   buffer never holds more than `window` answers, even when one job is
//!   much slower than those after it.
//! - **Ordered and prompt.** Answers reach the sink in input order as soon
//!   as they and every earlier answer are ready. Before the sink's thread
//!   blocks waiting for more, it calls [`Sink::idle`], so a writer can flush:
//!   a puzzle typed at a terminal is answered when its line is complete.
//! - **The source on its own thread.** Reading (which may block on a pipe or
//!   a terminal) never holds up answers that are ready. The source thread is
//!   not joined: if the sink fails (a closed pipe), [`Pipeline::run`] returns
//!   at once, and a source still blocked in a read ends with the process or
//!   at its next record.
//! - **Batching is the caller's.** A job is whatever the caller makes it:
//!   for cheap records (a 9×9 solve takes about a microsecond) the CLI's
//!   jobs are chunks of up to a few hundred records, so channel traffic is
//!   per chunk, not per puzzle.
//!
//! Channels are `crossbeam-channel`'s bounded channels; workers are scoped
//! threads borrowing the caller's closures.
//!
//! # Example
//!
//! ```
//! use sudoku_core::pipeline::Pipeline;
//!
//! let mut out = Vec::new();
//! let r: Result<(), ()> = Pipeline::new(2).run(
//!     (0..100u64).map(|i| i * i),
//!     || (),                       // per-worker state
//!     |_, x| x + 1,                // the work, on a worker
//!     |y| { out.push(y); Ok(()) }, // the sink, in input order
//! );
//! assert!(r.is_ok());
//! assert_eq!(out, (0..100u64).map(|i| i * i + 1).collect::<Vec<_>>());
//! ```

use std::collections::VecDeque;

use crossbeam_channel::{Receiver, Sender, TryRecvError, bounded, select};

/// Where answers go, in input order, on the caller's thread.
pub trait Sink<R> {
    /// Why the sink stopped (a write error, say); the pipeline stops too.
    type Error;
    /// The next answer, in input order.
    fn put(&mut self, answer: R) -> Result<(), Self::Error>;
    /// No answer is ready: the pipeline is about to wait. Flush here.
    fn idle(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

impl<R, E, F: FnMut(R) -> Result<(), E>> Sink<R> for F {
    type Error = E;
    fn put(&mut self, answer: R) -> Result<(), E> {
        self(answer)
    }
}

/// An ordered parallel map with a bounded window. See the [module docs](self).
#[derive(Clone, Copy, Debug)]
pub struct Pipeline {
    threads: usize,
    window: usize,
}

impl Pipeline {
    /// `threads` workers (at least 1; with 1 the caller's thread does the
    /// work) and a window of 4 jobs per worker.
    pub fn new(threads: usize) -> Pipeline {
        let threads = threads.max(1);
        Pipeline {
            threads,
            window: 4 * threads,
        }
    }

    /// At most `window` jobs in flight (read but not yet passed to the sink);
    /// at least the number of workers.
    pub fn window(mut self, window: usize) -> Pipeline {
        self.window = window.max(self.threads).max(1);
        self
    }

    /// The number of workers.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The most jobs in flight.
    pub fn jobs_in_flight(&self) -> usize {
        self.window
    }

    /// Run `work` over every item of `source` on the workers (each with its
    /// own state made by `init`), passing the answers to `sink` in input
    /// order. Stops early, with the sink's error, if the sink fails.
    pub fn run<J, R, S, E>(
        &self,
        source: impl Iterator<Item = J> + Send + 'static,
        init: impl Fn() -> S + Sync,
        work: impl Fn(&mut S, J) -> R + Sync,
        mut sink: impl Sink<R, Error = E>,
    ) -> Result<(), E>
    where
        J: Send + 'static,
        R: Send,
    {
        let (slot_tx, slot_rx) = bounded::<()>(self.window);
        for _ in 0..self.window {
            slot_tx.send(()).expect("the slot channel holds a window");
        }
        let (job_tx, job_rx) = bounded::<(u64, J)>(self.window);
        std::thread::Builder::new()
            .name("pipeline-source".into())
            .spawn(move || feed(source, &slot_rx, &job_tx))
            .expect("cannot start the reading thread");

        if self.threads == 1 {
            let mut state = init();
            loop {
                let (_, job) = match job_rx.try_recv() {
                    Ok(j) => j,
                    Err(TryRecvError::Disconnected) => return Ok(()),
                    Err(TryRecvError::Empty) => {
                        sink.idle()?;
                        match job_rx.recv() {
                            Ok(j) => j,
                            Err(_) => return Ok(()),
                        }
                    }
                };
                sink.put(work(&mut state, job))?;
                // The source may have stopped; a slot nobody takes is harmless.
                let _ = slot_tx.try_send(());
            }
        }

        let (done_tx, done_rx) = bounded::<(u64, R)>(self.window);
        // Dropped when the sink fails: workers waiting for jobs stop.
        let (stop_tx, stop_rx) = bounded::<()>(0);
        std::thread::scope(|scope| {
            for _ in 0..self.threads {
                let (jobs, done, stop) = (job_rx.clone(), done_tx.clone(), stop_rx.clone());
                let (init, work) = (&init, &work);
                scope.spawn(move || {
                    let mut state = init();
                    loop {
                        let job = select! {
                            recv(jobs) -> j => j,
                            recv(stop) -> _ => break,
                        };
                        let Ok((seq, job)) = job else { break };
                        if done.send((seq, work(&mut state, job))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop((done_tx, job_rx));
            let result = reorder(&done_rx, &slot_tx, &mut sink);
            drop(stop_tx);
            drop(done_rx);
            result
        })
    }
}

/// The source thread: one slot per job, then the job.
fn feed<J>(source: impl Iterator<Item = J>, slots: &Receiver<()>, jobs: &Sender<(u64, J)>) {
    for (seq, job) in (0u64..).zip(source) {
        if slots.recv().is_err() || jobs.send((seq, job)).is_err() {
            return;
        }
    }
}

/// The sink's side with several workers: answers back into input order.
fn reorder<R, E>(
    done: &Receiver<(u64, R)>,
    slots: &Sender<()>,
    sink: &mut impl Sink<R, Error = E>,
) -> Result<(), E> {
    // pending[k] is answer `next + k`, when it has arrived.
    let mut pending: VecDeque<Option<R>> = VecDeque::new();
    let mut next = 0u64;
    loop {
        let (seq, answer) = match done.try_recv() {
            Ok(a) => a,
            Err(TryRecvError::Disconnected) => return Ok(()),
            Err(TryRecvError::Empty) => {
                sink.idle()?;
                match done.recv() {
                    Ok(a) => a,
                    Err(_) => return Ok(()),
                }
            }
        };
        let k = (seq - next) as usize;
        if pending.len() <= k {
            pending.resize_with(k + 1, || None);
        }
        pending[k] = Some(answer);
        while let Some(Some(_)) = pending.front() {
            let a = pending.pop_front().flatten().expect("checked above");
            next += 1;
            sink.put(a)?;
            let _ = slots.try_send(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn answers_come_in_input_order_on_any_number_of_threads() {
        for threads in [1, 2, 3, 8] {
            let mut out = Vec::new();
            Pipeline::new(threads)
                .run(
                    0..1000u32,
                    || 0u32,
                    |calls, x| {
                        *calls += 1;
                        // uneven work so that later jobs often finish first
                        if x % 7 == 0 {
                            std::thread::sleep(Duration::from_micros(200));
                        }
                        x * 3
                    },
                    |y| -> Result<(), ()> {
                        out.push(y);
                        Ok(())
                    },
                )
                .unwrap();
            assert_eq!(
                out,
                (0..1000).map(|x| x * 3).collect::<Vec<_>>(),
                "{threads} threads"
            );
        }
    }

    #[test]
    fn jobs_in_flight_never_exceed_the_window() {
        // The source counts what it has handed out; the sink what it has
        // taken: the difference is bounded by the window, even when job 0
        // is far slower than the rest.
        let read = Arc::new(AtomicUsize::new(0));
        let r = Arc::clone(&read);
        let source = (0..2000usize).inspect(move |_| {
            r.fetch_add(1, Ordering::SeqCst);
        });
        let mut taken = 0usize;
        let mut worst = 0usize;
        Pipeline::new(3)
            .window(10)
            .run(
                source,
                || (),
                |_, x| {
                    if x == 0 {
                        std::thread::sleep(Duration::from_millis(50));
                    }
                    x
                },
                |x: usize| -> Result<(), ()> {
                    assert_eq!(x, taken);
                    taken += 1;
                    worst = worst.max(read.load(Ordering::SeqCst) - taken);
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!(taken, 2000);
        // at most the window plus the one the source holds while waiting
        assert!(worst <= 11, "{worst} jobs in flight with a window of 10");
    }

    #[test]
    fn a_failing_sink_stops_the_run_with_its_error() {
        for threads in [1, 2] {
            let mut seen = 0;
            let r = Pipeline::new(threads).run(
                0..u64::MAX,
                || (),
                |_, x| x,
                |x: u64| {
                    seen += 1;
                    if x == 50 { Err("closed") } else { Ok(()) }
                },
            );
            assert_eq!(r, Err("closed"));
            assert_eq!(seen, 51);
        }
    }

    #[test]
    fn a_blocked_source_does_not_hold_back_ready_answers() {
        // The source yields one item, then blocks until the sink has seen
        // that item's answer: only possible if answers are written while
        // the source waits.
        struct S<'a>(Sender<()>, &'a mut usize, &'a mut Vec<u32>);
        impl Sink<u32> for S<'_> {
            type Error = ();
            fn put(&mut self, x: u32) -> Result<(), ()> {
                self.2.push(x);
                if x == 0 {
                    let _ = self.0.try_send(());
                }
                Ok(())
            }
            fn idle(&mut self) -> Result<(), ()> {
                *self.1 += 1;
                Ok(())
            }
        }
        for threads in [1, 2] {
            let (seen_tx, seen_rx) = bounded::<()>(1);
            let source = (0..2u32).inspect(move |&i| {
                if i == 1 {
                    seen_rx
                        .recv_timeout(Duration::from_secs(10))
                        .expect("the first answer was not passed on while the source waited");
                }
            });
            let (mut idles, mut out) = (0, Vec::new());
            Pipeline::new(threads)
                .run(source, || (), |_, x| x, S(seen_tx, &mut idles, &mut out))
                .unwrap();
            assert_eq!(out, vec![0, 1], "{threads} threads");
            assert!(idles >= 1, "the sink was never told to flush");
        }
    }
}
