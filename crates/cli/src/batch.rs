//! The batch commands' shared loop: read a stream of chunks, work on them
//! on the library's ordered pipeline, write each chunk's answers in input
//! order. `solve`, `count`, `rate` and `explain` run on it.

use std::io::{self, Write};

use crossbeam_channel::{Sender, bounded};
use sudoku_core::pipeline::{Pipeline, Sink};

use crate::input::{Chunk, ChunkReader, Input};

/// Counts a command keeps over a run; chunks' counts add up.
pub trait Tally: Default + Send {
    /// Add another chunk's counts.
    fn add(&mut self, other: &Self);
    /// Records answered (for the progress counter).
    fn records(&self) -> u64;
}

/// A chunk's answers: the bytes for the output, messages for stderr, counts.
#[derive(Debug, Default)]
pub struct Answers<T> {
    /// What goes to the output, in record order.
    pub out: Vec<u8>,
    /// What goes to stderr after it.
    pub err: Vec<u8>,
    /// The chunk's counts.
    pub tally: T,
}

/// The sink: answers to the output, messages to stderr, in input order; the
/// output is flushed whenever the pipeline waits.
struct Writer<'a, T> {
    out: &'a mut dyn Write,
    tally: &'a mut T,
    bar: &'a indicatif::ProgressBar,
    /// Output buffers written, back to the workers for reuse.
    spare: Sender<Vec<u8>>,
}

impl<T: Tally> Sink<Answers<T>> for Writer<'_, T> {
    type Error = io::Error;

    fn put(&mut self, a: Answers<T>) -> io::Result<()> {
        self.out.write_all(&a.out)?;
        if !a.err.is_empty() {
            // flush first so that stderr and the output interleave in order
            self.out.flush()?;
            io::stderr().write_all(&a.err)?;
        }
        self.bar.inc(a.tally.records());
        self.tally.add(&a.tally);
        let _ = self.spare.try_send(a.out);
        Ok(())
    }

    fn idle(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The inputs of a list of file arguments.
pub fn files(files: &[std::path::PathBuf]) -> Vec<Input> {
    files.iter().cloned().map(Input::File).collect()
}

/// Run `work` over every record of `inputs` on `threads` workers (each with
/// state from `init`), writing answers to `out` in input order. Returns the
/// summed counts, or the first write error.
pub fn run<S, T: Tally>(
    inputs: Vec<Input>,
    threads: usize,
    out: &mut dyn Write,
    bar: &indicatif::ProgressBar,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &Chunk, &mut Answers<T>) + Sync,
) -> io::Result<T> {
    let mut tally = T::default();
    // Buffers go back where they came from, to be reused rather than freed
    // on another thread: chunks to the reader, output buffers to the workers.
    // Regular files are read by the workers themselves between their jobs;
    // a pipe or a terminal keeps a reading thread, so that a blocked read
    // never holds back answers that are ready.
    let quick = !inputs.is_empty() && inputs.iter().all(Input::is_quick);
    let pipeline = Pipeline::new(threads).quick_source(quick);
    let (chunk_back, chunks_done) = bounded::<Chunk>(pipeline.jobs_in_flight() + threads);
    let (out_back, outs_done) = bounded::<Vec<u8>>(pipeline.jobs_in_flight() + threads);
    let sink = Writer {
        out,
        tally: &mut tally,
        bar,
        spare: out_back,
    };
    pipeline.run(
        ChunkReader::of(inputs)
            .spread_over(threads)
            .recycle(chunks_done),
        init,
        |state, chunk: Chunk| {
            let mut out = outs_done.try_recv().unwrap_or_default();
            out.clear();
            out.reserve(chunk.records.len() * 84);
            let mut a = Answers {
                out,
                err: Vec::new(),
                tally: T::default(),
            };
            work(state, &chunk, &mut a);
            let _ = chunk_back.try_send(chunk);
            a
        },
        sink,
    )?;
    out.flush()?;
    Ok(tally)
}
