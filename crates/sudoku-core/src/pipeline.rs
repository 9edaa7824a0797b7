//! The ordered, bounded, parallel map behind every batch: records in, answers
//! out in input order, memory bounded by a window, never by the input.
//!
//! # Design
//!
//! ```text
//!  source (own thread)   ──jobs──▶  workers: the caller's thread and N − 1
//!  pulls records, waits             threads, each with its own state
//!  for a window slot                (solvers, buffers)
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
//! - **The caller's thread works too.** With N workers, N − 1 threads are
//!   started and the caller's thread is the N-th: between jobs of its own
//!   it takes the others' answers, puts them in order and passes them on,
//!   and it waits only when there is neither a job nor an answer. So N
//!   workers keep N cores busy with no thread that only waits to reorder
//!   (each wake-up of such a thread costs a system call and, on another
//!   core, an interrupt), and with one worker there is no hand-over of
//!   answers at all. An answer another worker finishes while the caller's
//!   thread is busy waits for the end of that job at most.
//! - **The source on its own thread.** Reading (which may block on a pipe or
//!   a terminal) never holds up answers that are ready. The source thread is
//!   not joined: if the sink fails (a closed pipe), [`Pipeline::run`] returns
//!   at once, and a source still blocked in a read ends with the process or
//!   at its next record. A source that never blocks for long (a regular
//!   file) can do without that thread: see [`Pipeline::quick_source`].
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
use std::sync::Mutex;

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
    pulled: bool,
}

impl Pipeline {
    /// `threads` workers (at least 1; the caller's thread is one of them)
    /// and a window of 4 jobs per worker.
    pub fn new(threads: usize) -> Pipeline {
        let threads = threads.max(1);
        Pipeline {
            threads,
            window: 4 * threads,
            pulled: false,
        }
    }

    /// The source never blocks for long (a regular file, an in-memory
    /// list): with several workers, each worker takes the next job off the
    /// source itself, under a lock, instead of a thread of its own reading
    /// ahead; with one worker, the caller's thread reads, works and writes
    /// in turn and no thread is started. Saves a thread (its start, its
    /// memory arena) and its hand-overs. Never set this
    /// for a pipe or a terminal: a worker blocked in a read would hold back
    /// answers that are ready.
    pub fn quick_source(mut self, quick: bool) -> Pipeline {
        self.pulled = quick;
        self
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
        if self.pulled && self.threads == 1 {
            // One worker and a quick source: no thread at all, the caller's
            // thread reads, works and writes in turn.
            let mut state = init();
            for job in source {
                sink.put(work(&mut state, job))?;
            }
            return sink.idle();
        }
        let (slot_tx, slot_rx) = bounded::<()>(self.window);
        for _ in 0..self.window {
            slot_tx.send(()).expect("the slot channel holds a window");
        }
        if self.pulled && self.threads > 1 {
            return self.run_pulled(source, slot_tx, slot_rx, init, work, sink);
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
            for _ in 1..self.threads {
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
            drop(done_tx);
            let mut state = init();
            let result = lead(&job_rx, &done_rx, &slot_tx, &mut sink, |job| {
                work(&mut state, job)
            });
            drop(stop_tx);
            drop(done_rx);
            result
        })
    }
}

impl Pipeline {
    /// [`Pipeline::run`] with a quick source and several workers: every
    /// worker takes a window slot, then the next job off the locked source;
    /// the caller's thread also puts answers in order between its jobs.
    fn run_pulled<J, R, S, E>(
        &self,
        source: impl Iterator<Item = J> + Send,
        slot_tx: Sender<()>,
        slot_rx: Receiver<()>,
        init: impl Fn() -> S + Sync,
        work: impl Fn(&mut S, J) -> R + Sync,
        mut sink: impl Sink<R, Error = E>,
    ) -> Result<(), E>
    where
        R: Send,
    {
        // the next sequence number and the source; `None` once it has ended
        let source = Mutex::new((0u64, Some(source)));
        let take = || -> Option<(u64, J)> {
            let mut s = source.lock().unwrap_or_else(|e| e.into_inner());
            let (seq, src) = &mut *s;
            match src.as_mut()?.next() {
                Some(job) => {
                    *seq += 1;
                    Some((*seq - 1, job))
                }
                None => {
                    *src = None;
                    None
                }
            }
        };
        let (done_tx, done_rx) = bounded::<(u64, R)>(self.window);
        // Dropped when the sink fails: workers waiting for a slot stop.
        let (stop_tx, stop_rx) = bounded::<()>(0);
        std::thread::scope(|scope| {
            for _ in 1..self.threads {
                let (slots, done, stop) = (slot_rx.clone(), done_tx.clone(), stop_rx.clone());
                let (init, work, take) = (&init, &work, &take);
                scope.spawn(move || {
                    let mut state = init();
                    loop {
                        select! {
                            recv(slots) -> s => if s.is_err() { break },
                            recv(stop) -> _ => break,
                        }
                        let Some((seq, job)) = take() else { break };
                        if done.send((seq, work(&mut state, job))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(done_tx);
            let mut state = init();
            let mut order = Reorder {
                pending: VecDeque::new(),
                next: 0,
            };
            let mut open = true;
            let result = (|| loop {
                loop {
                    match done_rx.try_recv() {
                        Ok((seq, answer)) => order.put(seq, answer, &mut sink, &slot_tx)?,
                        Err(TryRecvError::Empty) => break,
                        Err(TryRecvError::Disconnected) if !open => return Ok(()),
                        Err(TryRecvError::Disconnected) => break,
                    }
                }
                if open && slot_rx.try_recv().is_ok() {
                    match take() {
                        Some((seq, job)) => {
                            let answer = work(&mut state, job);
                            order.put(seq, answer, &mut sink, &slot_tx)?;
                        }
                        None => open = false,
                    }
                    continue;
                }
                sink.idle()?;
                if open {
                    select! {
                        recv(slot_rx) -> _ => match take() {
                            Some((seq, job)) => {
                                let answer = work(&mut state, job);
                                order.put(seq, answer, &mut sink, &slot_tx)?;
                            }
                            None => open = false,
                        },
                        recv(done_rx) -> a => {
                            if let Ok((seq, answer)) = a {
                                order.put(seq, answer, &mut sink, &slot_tx)?;
                            }
                        }
                    }
                } else {
                    match done_rx.recv() {
                        Ok((seq, answer)) => order.put(seq, answer, &mut sink, &slot_tx)?,
                        Err(_) => return Ok(()),
                    }
                }
            })();
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

/// The caller's thread with several workers: works on jobs like the
/// others and, between them, puts every worker's answers back into input
/// order for the sink. Waits only when there is neither a job nor an answer.
fn lead<J, R, E>(
    jobs: &Receiver<(u64, J)>,
    done: &Receiver<(u64, R)>,
    slots: &Sender<()>,
    sink: &mut impl Sink<R, Error = E>,
    mut work: impl FnMut(J) -> R,
) -> Result<(), E> {
    let mut order = Reorder {
        pending: VecDeque::new(),
        next: 0,
    };
    let mut jobs_open = true;
    loop {
        // the other workers' answers first: they may complete a run ready
        // for the sink
        loop {
            match done.try_recv() {
                Ok((seq, answer)) => order.put(seq, answer, sink, slots)?,
                Err(TryRecvError::Empty) => break,
                // every other worker has stopped: the jobs have run out
                Err(TryRecvError::Disconnected) if !jobs_open => return Ok(()),
                Err(TryRecvError::Disconnected) => break,
            }
        }
        if jobs_open {
            match jobs.try_recv() {
                Ok((seq, job)) => {
                    order.put(seq, work(job), sink, slots)?;
                    continue;
                }
                Err(TryRecvError::Disconnected) => {
                    jobs_open = false;
                    continue;
                }
                Err(TryRecvError::Empty) => {}
            }
        }
        // nothing to do at once
        sink.idle()?;
        if jobs_open {
            select! {
                recv(jobs) -> j => match j {
                    Ok((seq, job)) => order.put(seq, work(job), sink, slots)?,
                    Err(_) => jobs_open = false,
                },
                recv(done) -> a => {
                    if let Ok((seq, answer)) = a {
                        order.put(seq, answer, sink, slots)?;
                    }
                }
            }
        } else {
            match done.recv() {
                Ok((seq, answer)) => order.put(seq, answer, sink, slots)?,
                Err(_) => return Ok(()),
            }
        }
    }
}

/// Answers back into input order: `pending[k]` is answer `next + k`, when
/// it has arrived.
struct Reorder<R> {
    pending: VecDeque<Option<R>>,
    next: u64,
}

impl<R> Reorder<R> {
    /// Answer `seq` has arrived: pass on every answer now in order, each
    /// freeing its window slot.
    fn put<E>(
        &mut self,
        seq: u64,
        answer: R,
        sink: &mut impl Sink<R, Error = E>,
        slots: &Sender<()>,
    ) -> Result<(), E> {
        let k = (seq - self.next) as usize;
        if self.pending.len() <= k {
            self.pending.resize_with(k + 1, || None);
        }
        self.pending[k] = Some(answer);
        while let Some(Some(_)) = self.pending.front() {
            let a = self.pending.pop_front().flatten().expect("checked above");
            self.next += 1;
            sink.put(a)?;
            let _ = slots.try_send(());
        }
        Ok(())
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
        for (threads, quick) in [1, 2, 3, 8]
            .into_iter()
            .flat_map(|t| [(t, false), (t, true)])
        {
            let mut out = Vec::new();
            Pipeline::new(threads)
                .quick_source(quick)
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
                "{threads} threads, quick source {quick}"
            );
        }
    }

    #[test]
    fn the_callers_thread_is_one_of_the_workers() {
        // N workers are the caller's thread and N − 1 others: with slow
        // jobs, every one of them takes some, the caller's thread included.
        let caller = std::thread::current().id();
        for (threads, quick) in [1, 2, 3].into_iter().flat_map(|t| [(t, false), (t, true)]) {
            let ids = std::sync::Mutex::new(Vec::new());
            let mut out = Vec::new();
            Pipeline::new(threads)
                .quick_source(quick)
                .run(
                    0..30u32,
                    || (),
                    |_, x| {
                        std::thread::sleep(Duration::from_millis(2));
                        ids.lock().unwrap().push(std::thread::current().id());
                        x
                    },
                    |y| -> Result<(), ()> {
                        out.push(y);
                        Ok(())
                    },
                )
                .unwrap();
            assert_eq!(out, (0..30).collect::<Vec<_>>());
            let mut ids = ids.into_inner().unwrap();
            assert!(
                ids.contains(&caller),
                "{threads} threads: the caller's thread did no job"
            );
            ids.sort_by_key(|id| format!("{id:?}"));
            ids.dedup();
            assert_eq!(ids.len(), threads, "{threads} threads worked");
        }
    }

    #[test]
    fn jobs_in_flight_never_exceed_the_window() {
        for quick in [false, true] {
            window_bound(quick);
        }
    }

    fn window_bound(quick: bool) {
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
            .quick_source(quick)
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
        for (threads, quick) in [(1, false), (2, false), (2, true), (3, true)] {
            let mut seen = 0;
            let r = Pipeline::new(threads).quick_source(quick).run(
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
