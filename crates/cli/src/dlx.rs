//! `dlx`: solve exact-cover problems written in Knuth's DLX text format.
//!
//! [`run`] chains three steps, each a small function: [`stream_load`]
//! (the files, or standard input, parsed as they are read straight into
//! the engine, keeping no text; invalid UTF-8 is reported with its file,
//! line and column), [`configure`] (engine, limits, heuristic, threads,
//! progress bar) and [`search`], which streams each solution to the
//! output as it is found; [`write_summary`] ends the output and
//! [`exit_code`] says how complete the answer is. The links engine writes
//! the options from its own nodes (their items' names, one space apart:
//! [`Written`]); the cells engine when printing, `--split`,
//! `--subproblem` and the memoised search read the whole text first
//! ([`read_inputs`], [`parse_input`]).

use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow};
use clap::{Parser, ValueEnum};
use exact_cover::format::{Loaded, OptionTexts, ParseError, Parsed, Warning, parse_owned};
use exact_cover::split::{Subproblem, split, subproblem_solver};
use exact_cover::{
    Bits, Cells, Config, Dlx, Heuristic, Limits, NoObserver, Observer, OptionNames, Problem,
    Report, Stats, StopReason,
};

use crate::{When, deadline_after, exit, open_output, parse_secs, worker_threads};

const ABOUT: &str = "Solve an exact-cover problem given in Knuth's DLX text format";

const AFTER_HELP: &str =
    "Run 'dlx --help' for the input format, the output formats and the exit codes.";

const AFTER_LONG_HELP: &str = r#"INPUT FORMAT (Knuth's, as read by his DLX1, DLX2 and DLX3 programs):
  - Lines whose first non-blank character is '|' are comments; blank lines are skipped.
  - The first other line lists the items: the primary items (each must be covered
    exactly once), then a lone '|', then the secondary items (covered at most once;
    the '|' and the secondary items are optional).
  - Every later line is one option: the names of its items, separated by blanks.
  - 'item:colour' in an option gives a secondary item a colour: options that share
    the item must then agree on its colour instead of excluding each other.
  - 'u:v|item' on the items line lets a primary item be covered between u and v
    times, 'v|item' exactly v times (links engine only).

  Example (Knuth's first example, with F and G secondary):
    | a comment
    A B C D E | F G
    C E F
    A D G
    B C F
    A D
    B G
    D E G
  Its one solution, in text format:
    A D
    C E F
    B G

OUTPUT (standard output, or -o FILE):
  text (or line)  each solution as its options, one per line: each option's items in
                  the order the input gives them, one space apart ('item:colour' with
                  a colour), with a blank line between solutions. With --count: the number of
                  solutions, or 'at least N (REASON)' when a limit stopped the search,
                  e.g. 'at least 12 (node limit reached)'.
  json            JSON Lines, written as the search goes: one line per solution,
                    {"solution": ["A D", "C E F", "B G"]}
                  (none with --count), then one summary line,
                    {"count": 1, "complete": true, "stop": "exhausted",
                     "stats": {"nodes": .., "updates": .., "mems": .., "max_depth": ..,
                               "bytes": .., "seconds": ..}}
                  where "stop" is exhausted, solution-limit, node-limit or deadline and
                  "complete" is true only for exhausted (the count is exact). "mems"
                  counts memory accesses as Knuth's programs do (--mems; null
                  otherwise).
  Standard error gets the number of solutions (and why the search stopped when it
  was cut short), warnings, --stats and the progress bar.

SPLITTING (for a cluster, or any pool of machines):
  --split DEPTH   prints the subproblems at DEPTH levels of the search tree, one token
                  per line: the options forced on the problem (option numbers from 0, in
                  file order, comma-separated, e.g. 0,10). Every solution contains the
                  options of exactly one token, so the counts of all tokens add up to
                  'dlx --count FILE'. Deeper splits give more, smaller subproblems.
  --subproblem TOKEN
                  counts (with --count) or prints only the solutions containing the
                  token's options, on one thread. A failed task is simply run again.
    dlx --split 3 queens12.dlx > tokens.txt
    while read t; do dlx --count --subproblem "$t" queens12.dlx; done < tokens.txt

MEMOISED SEARCH AND THE ZDD (--memo, --zdd, --sample, --best; DXZ's method):
  Subproblems with the same items left to cover (and the same colours on the
  secondary items) are solved once and cached (--memo-cache N entries at most;
  a full cache is emptied and the search goes on, never a wrong answer). Fast
  where subproblems repeat (tilings: 'xc --print domino12 | dlx --count --memo
  --heuristic first' counts 53,060,477,521,960,000 tilings in milliseconds);
  colours are supported, multiplicities are not. Counts of any size are exact.
  --zdd FILE      writes the ZDD (zero-suppressed decision diagram) of all the
                  solutions, reduced and ordered: options are ordered by their first
                  primary item (in the item order, --item-order), then by their
                  number; each subproblem branches on its first uncovered primary
                  item. Text:
                    | comment lines first
                    ID:(OPTION?LO:HI)     one line per node, children before parents
                    root R                the last line
                  IDs from 2 in decimal; OPTION is the option's number (from 0, in
                  input order); LO is the node of the solutions without the option,
                  HI of the rest of the solutions with it; 0 means no solution and 1
                  the empty solution (the terminals). A solution is a path from the
                  root to 1: the options of the nodes left by their HI edge.
                  The item order can matter a lot (a tiling branched along its long
                  side: far more subproblems). --item-order auto (default) picks it
                  from the options, greedily keeping the frontier (the items later
                  in the order that options of earlier ones reach) small; it does
                  not depend on the items line's order (ties go to names).
                  --item-order given branches in the items line's order.
                  Example, 'a b c d e f' with options 'a b', 'b c', 'd e', 'e f',
                  'a d', 'b e', 'c f' (the 2x3 domino tilings):
                    2:(6?0:1)  3:(2?0:2)  4:(3?0:1)  5:(5?0:2)  6:(1?5:4)  7:(4?0:6)
                    8:(0?7:3)  root 8                       (one per line)
  --sample N      prints N solutions drawn uniformly at random from the ZDD
                  (--seed S: reproducible; default seed 0).
  --best K        prints the K solutions of least total weight, lightest first, each
                  after a line '| weight W' (JSON: {"solution": [..], "weight": W}).
                  Weights: --weights FILE, one integer per option in input order
                  (negative allowed: the heaviest solutions are the best of the
                  negated weights); default 1 each.

KNUTH'S OPTIONS:
  --every M (his m: every M-th solution printed), --max-level L (a level limit;
  the answer is then a lower bound), -v/-vv/-vvv with --delta N (progress reports
  with the current state, each solution's level, every choice), several input
  files (read as one problem), and his mems count (--mems, either engine: in
  --stats, the JSON summary and the -v reports).

ENGINES:
  links  Dancing Links (Knuth's DLX); handles multiplicities; progress bar.
  cells  dancing cells (sparse sets, as in Knuth's SSXCC); often faster; no
         multiplicities, no progress bar. Like SSXCC it never enters a choice
         that leaves a primary item with no option (a smaller tree: fewer nodes);
         --no-prune searches the links engine's (DLX1's) tree instead.
         It reduces the problem when it loads it: the root's forced moves are
         taken at once (not search nodes), and secondary items that cannot
         constrain anything (in at most one option, or all their options share
         a primary item) are dropped: same answers, fewer nodes and updates;
         --no-reduce loads the problem as it is (Knuth's tree and counts).
         --trail stamped|each sets how it saves sizes for backtracking (default:
         chosen per problem; same tree and answers, only the speed differs);
         --general-walks turns off the search compiled for the problem's option
         length (3 or 6 items; same tree and answers).

EXIT CODES (the same table as 'sudoku'):
  0  complete answer: the whole search ran and found at least one solution.
  1  cut short by a limit (--limit, --max-nodes, --timeout), or the problem has
     no solution at all.
  2  usage error (bad flag or value), unreadable or malformed input (the message
     names the line and column), or an output error (unwritable file, full disk).
     A closed pipe ('dlx ... | head') is not an error: exit 0."#;

/// The `dlx` command line.
#[derive(Parser, Debug)]
#[command(
    name = "dlx",
    version,
    about = ABOUT,
    long_about = None,
    after_help = AFTER_HELP,
    after_long_help = AFTER_LONG_HELP
)]
pub struct Args {
    /// Input files ('-' or nothing: standard input). Several files are read as
    /// one problem, one after the other (as 'cat' would join them): the items
    /// line from the first, options from all; errors name the file and its line.
    pub files: Vec<PathBuf>,
    /// Write the answers to FILE ('-': standard output, the default).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Only count the solutions (in parallel: see --threads).
    #[arg(long)]
    pub count: bool,
    /// Stop after N solutions (N >= 1). With --count, counts on one thread.
    #[arg(long, value_name = "N", value_parser = parse_limit)]
    pub limit: Option<u64>,
    /// Stop after N search nodes. With --count, counts on one thread.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Stop after this many seconds (above 1e9: no deadline).
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub timeout: Option<Duration>,
    /// Item choice: mrv (fewest options first) or first (no heuristic).
    #[arg(long, value_enum, default_value_t = HeuristicArg::Mrv)]
    pub heuristic: HeuristicArg,
    /// Random tie-breaks and option order, reproducible with the same seed.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Threads for --count (default 0 = all cores; at most 4 per core).
    ///
    /// Solutions are printed from one thread, so without --count only 1 is
    /// accepted; --limit and --max-nodes count on one thread (their answer depends
    /// on the search order). The count is the same on any number of threads.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Search engine: links (Dancing Links), cells (dancing cells) or bits
    /// (bit-parallel, for small problems).
    ///
    /// links: Knuth's DLX; handles multiplicities. cells: sparse sets as in Knuth's
    /// SSXCC; no multiplicities, no progress bar. bits: the live options as one bit
    /// set, each item's options counted by population count; at most 4,096 options
    /// and 4,096 primary items; the fastest where primary items are few (queens,
    /// Langford pairs, pentominoes, small random problems: 3-5x the cells engine),
    /// slower with hundreds (Sudoku); no multiplicities, no progress bar; prunes as
    /// cells does.
    #[arg(long, value_enum, default_value_t = EngineArg::Links)]
    pub engine: EngineArg,
    /// Cells engine: enter every choice, as the links engine and DLX1 do, instead
    /// of pruning those that leave a primary item with no option (SSXCC's rule).
    ///
    /// Same solutions; more nodes. For comparing node counts with DLX1 or --engine
    /// links. The links engine never prunes, so it ignores this flag.
    #[arg(long)]
    pub no_prune: bool,
    /// Cells engine: load the problem as it is. Otherwise the engine reduces it
    /// when it loads it: it takes the root's forced moves (an option that is the
    /// only one of a primary item is in every solution: chosen at once, and the
    /// options that clash with it dropped), then drops the redundant secondary
    /// items (in at most one option, or all their options share a primary item:
    /// at most one of them is in any solution, so the item never constrains
    /// anything).
    ///
    /// Same solutions and counts either way. With the reduction the tree lacks
    /// the root's forced nodes (the same tree less those, with MRV), and
    /// updates and mems are fewer. For comparing nodes, updates and mems with
    /// Knuth's programs, which make neither reduction. The links engine ignores
    /// this flag.
    #[arg(long)]
    pub no_reduce: bool,
    /// Cells engine: how sizes are saved for backtracking: stamped (once per item
    /// and step, behind a per-item stamp test) or each (at every removal, no
    /// test). Default: chosen per problem (each when the items' sets hold at
    /// most 64 options on average).
    ///
    /// Same tree, solutions and counts either way; only the speed differs (each
    /// pays on small sets, stamped on large ones such as polyomino packing). The
    /// links engine ignores this flag.
    #[arg(long, value_enum)]
    pub trail: Option<TrailArg>,
    /// Cells engine: walk every option with the general loops (to the option's
    /// spacer), even when nearly all options have one length of 3 or 6 items,
    /// for which the engine otherwise runs a search compiled for that length.
    ///
    /// Same tree, solutions and counts either way; only the speed differs. The
    /// links engine ignores this flag.
    #[arg(long)]
    pub general_walks: bool,
    /// Count mems, memory accesses as Knuth's programs count them (his cost
    /// measure), shown by --stats, in the JSON summary and in the -v reports.
    ///
    /// Counted access by access (what counts: the docs of exact_cover::Cells and
    /// Dlx::set_mems); a search compiled for counting, so it is off unless asked
    /// for (about 10% more instructions on Sudoku XCC with the cells engine).
    #[arg(long)]
    pub mems: bool,
    /// With --count: memoised counting (DXZ): subproblems with the same items left
    /// to cover (and colours) are counted once; exact counts of any size.
    ///
    /// Orders of magnitude faster on tilings; colours handled, no multiplicities, one
    /// thread. --heuristic mrv (default) or first (often better on tilings; it
    /// branches in the --item-order); --max-nodes and --timeout apply.
    #[arg(long)]
    pub memo: bool,
    /// With --memo, --zdd, --sample or --best: keep at most N cached subproblems
    /// (default 4194304); a full cache is emptied and the search goes on (slower,
    /// never wrong).
    #[arg(long, value_name = "N")]
    pub memo_cache: Option<usize>,
    /// With --memo, --zdd, --sample or --best: the order of the primary items
    /// that --zdd (and --memo --heuristic first) branch in: auto (default; a
    /// greedy frontier-minimising order computed from the options, the same
    /// whatever the items line's order) or given (the items line's order).
    #[arg(long, value_enum, default_value_t = ItemOrderArg::Auto)]
    pub item_order: ItemOrderArg,
    /// Build the ZDD of all solutions by memoised search and write it to FILE
    /// ('-': standard output) in the text format of --help; the count goes to
    /// standard output (or to standard error when the ZDD does).
    #[arg(long, value_name = "FILE")]
    pub zdd: Option<PathBuf>,
    /// Print N solutions drawn uniformly at random (independently, with
    /// repetition) from the ZDD of all solutions; --seed S makes it reproducible.
    #[arg(long, value_name = "N")]
    pub sample: Option<usize>,
    /// Print the K solutions of least total weight (see --weights), lightest
    /// first, each after a line '| weight W'; found on the ZDD of all solutions.
    #[arg(long, value_name = "K")]
    pub best: Option<usize>,
    /// With --best: the options' weights, one integer per option in input order
    /// (blanks or newlines between them; '|' starts a comment line). Default: 1
    /// per option (the solutions with the fewest options first).
    #[arg(long, value_name = "FILE", requires = "best")]
    pub weights: Option<PathBuf>,
    /// Print only every M-th solution (the M-th, 2M-th, ...; Knuth's 'm' option);
    /// all of them are counted.
    #[arg(long, value_name = "M", value_parser = parse_every, conflicts_with = "count")]
    pub every: Option<u64>,
    /// Search at most L levels of choices deep (Knuth's level limit; links
    /// engine): solutions of at most L options are found, deeper nodes are not
    /// entered, and the answer is then a lower bound ('level limit reached').
    #[arg(long, value_name = "L")]
    pub max_level: Option<usize>,
    /// Knuth-style reports on stderr (links engine, one thread): -v a progress
    /// report every --delta nodes (counts, the estimate of the tree done, the
    /// current choice at each level); -vv also each solution's number and level;
    /// -vvv also every choice tried.
    #[arg(short = 'v', long, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// With -v: nodes between progress reports (they come at most every 65536
    /// nodes).
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    pub delta: u64,
    /// Print statistics (nodes, updates, time, bytes, solutions) on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Output format: text (alias line) or json (JSON Lines). See --help.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the subproblems at DEPTH levels of the search tree, one token per line
    /// (see --help): their counts add up to the total.
    #[arg(long, value_name = "DEPTH", conflicts_with_all = ["count", "subproblem", "limit", "max_nodes", "timeout"])]
    pub split: Option<usize>,
    /// Only the solutions containing the options of TOKEN (a line of --split), on
    /// one thread.
    #[arg(long, value_name = "TOKEN", allow_hyphen_values = true)]
    pub subproblem: Option<String>,
    /// Progress bar on stderr: auto (when stderr is a terminal), always, never.
    ///
    /// Links engine on one thread only: '--count --progress always' counts on one
    /// thread unless --threads says otherwise.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    pub progress: When,
}

/// `--heuristic`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HeuristicArg {
    Mrv,
    First,
}

/// `--item-order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ItemOrderArg {
    /// A frontier-minimising order computed from the options (the same
    /// whatever the items line's order).
    Auto,
    /// The items line's order.
    Given,
}

/// `--engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    Links,
    Cells,
    Bits,
}

/// `--trail`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TrailArg {
    /// Save a size once per item and step (a stamp test per removal).
    Stamped,
    /// Save a size at every removal.
    Each,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Options as their items' names (one space apart), a blank line
    /// between solutions.
    #[value(alias = "line")]
    Text,
    /// JSON Lines: one line per solution, then a summary line.
    Json,
}

/// `--every`: a positive spacing.
fn parse_every(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("--every 0 would print nothing; give M >= 1 (or use --count)".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a number of solutions")),
    }
}

/// `--limit`: a positive number of solutions.
fn parse_limit(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err(
            "--limit 0 would stop before the first solution; give N >= 1 \
                      (or --count to count them all)"
                .to_string(),
        ),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a number of solutions")),
    }
}

/// Run `dlx` with parsed arguments; `Err` is a usage, input or I/O error
/// (exit code 2, unless it is a closed pipe: see [`crate::is_broken_pipe`]).
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let direct = args.split.is_none() && args.subproblem.is_none();
    let memo = args.memo
        || args.memo_cache.is_some()
        || args.zdd.is_some()
        || args.sample.is_some()
        || args.best.is_some();
    let streams = args.engine == EngineArg::Links
        || args.engine == EngineArg::Cells && args.count && args.verbose == 0;
    if direct && !memo && streams {
        // the files (or standard input) are parsed as they are read,
        // keeping no text (the least memory): counting prints no option,
        // and the links engine prints options from its own nodes
        let (load, source) = stream_load(&args.files, args.engine, config_of(args))?;
        return finish(args, load, &OptionTexts::new(), &source);
    }
    let mut input = read_inputs(&args.files)?;
    if memo {
        return memo_run(args, &mut input);
    }
    // the text moves into the result as the options' texts (not copied);
    // the cells engine is loaded straight from the parser (no `Problem`
    // beside it; `--split` and `--subproblem` need one), so the peak
    // memory of a big file is the text and the engine's arrays
    let (load, texts) = if direct && args.engine != EngineArg::Bits {
        let loaded = load_cells(&mut input, config_of(args))?;
        (Load::Cells(Box::new(loaded.engine)), loaded.option_texts)
    } else {
        let parsed = parse_input(&mut input)?;
        if let Some(depth) = args.split {
            return write_split(args, &parsed, &input.source, depth);
        }
        (Load::Problem(Box::new(parsed.problem)), parsed.option_texts)
    };
    finish(args, load, &texts, &input.source)
}

/// Search the loaded problem as the arguments say, write the answers and
/// the summary, and report on stderr.
fn finish(args: &Args, load: Load, texts: &OptionTexts, source: &str) -> anyhow::Result<ExitCode> {
    let mut plan = configure(args, load, source)?;
    let mut out = open_output(args.output.as_deref())?;
    let destination = match &args.output {
        Some(p) if p.as_os_str() != "-" => p.display().to_string(),
        _ => "standard output".to_string(),
    };
    let start = Instant::now();
    let report = search(&mut plan, texts, &mut out)
        .with_context(|| format!("cannot write the solutions to {destination}"))?;
    let elapsed = start.elapsed();
    write_summary(&mut out, &plan, &report, elapsed)
        .and_then(|()| out.flush())
        .with_context(|| format!("cannot write to {destination}"))?;
    report_on_stderr(&report, elapsed, args.stats);
    Ok(ExitCode::from(exit_code(&report)))
}

/// `--split DEPTH`: the subproblems' tokens, one per line (JSON Lines:
/// `{"subproblem": "0,10"}`), and their number on stderr.
fn write_split(
    args: &Args,
    parsed: &Parsed,
    source: &str,
    depth: usize,
) -> anyhow::Result<ExitCode> {
    let config = config_of(args);
    let parts = split(&parsed.problem, config, depth).map_err(|e| anyhow!("{source}: {e}"))?;
    let mut out = open_output(args.output.as_deref())?;
    let mut text = String::new();
    for part in &parts {
        match args.format {
            Format::Text => text.push_str(&part.token()),
            Format::Json => {
                text.push_str(&serde_json::json!({"subproblem": part.token()}).to_string())
            }
        }
        text.push('\n');
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write the subproblems")?;
    eprintln!("{} subproblems at depth {depth}", parts.len());
    Ok(ExitCode::SUCCESS)
}

/// The search configuration of the arguments.
fn config_of(args: &Args) -> Config {
    Config {
        heuristic: match args.heuristic {
            HeuristicArg::Mrv => Heuristic::Mrv,
            HeuristicArg::First => Heuristic::First,
        },
        seed: args.seed,
        reduce: !args.no_reduce,
    }
}

/// The input text and where it came from (a path, or `<stdin>`).
#[derive(Debug)]
pub struct Input {
    pub text: String,
    pub source: String,
    /// With several files: each one's name and the line of `text` (from 1)
    /// it starts on.
    pub parts: Vec<(String, usize)>,
}

/// Read the files of the command line (none: standard input) as one text.
pub fn read_inputs(files: &[PathBuf]) -> anyhow::Result<Input> {
    if files.len() <= 1 {
        return read_input(files.first().map(PathBuf::as_path));
    }
    let mut text = String::new();
    let mut parts = Vec::new();
    let mut line = 1;
    for f in files {
        let one = read_input(Some(f))?;
        parts.push((one.source, line));
        line += one.text.lines().count();
        text.push_str(&one.text);
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
    }
    let source = parts
        .iter()
        .map(|p| p.0.as_str())
        .collect::<Vec<_>>()
        .join(" + ");
    Ok(Input {
        text,
        source,
        parts,
    })
}

impl Input {
    /// Where line `line` of the joined text comes from: the file's name and
    /// its own line number.
    pub fn locate(&self, line: usize) -> (&str, usize) {
        match self.parts.iter().rev().find(|p| p.1 <= line) {
            Some((name, start)) => (name, line + 1 - start),
            None => (&self.source, line),
        }
    }
}

/// Read a file (standard input for `None` or `-`) as UTF-8 text.
pub fn read_input(file: Option<&Path>) -> anyhow::Result<Input> {
    let (bytes, source) = match file {
        Some(p) if p.as_os_str() != "-" => (
            std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?,
            p.display().to_string(),
        ),
        _ => {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .context("cannot read standard input")?;
            (bytes, "<stdin>".to_string())
        }
    };
    let text = decode_utf8(bytes).map_err(|e| anyhow!("{source}: {e}"))?;
    Ok(Input {
        text,
        source,
        parts: Vec::new(),
    })
}

/// Parse the files (standard input for none or `-`) straight into the
/// engine as they are read, one after the other as [`read_inputs`] joins
/// them, keeping no option text (see [`Dlx::parse_stream`]); print the
/// parser's warnings on stderr. Errors and warnings name the file and its
/// own line. Returns the loaded engine and the input's name (the files'
/// names joined by ` + `).
pub fn stream_load(
    files: &[PathBuf],
    engine: EngineArg,
    config: Config,
) -> anyhow::Result<(Load, String)> {
    let mut chain = Chain::open(files)?;
    let source = chain.source();
    let loaded = match engine {
        EngineArg::Links => Dlx::parse_stream(&mut chain, config, false)
            .map(|l| (Load::Links(Box::new(l.engine)), l.warnings)),
        EngineArg::Cells => Cells::parse_stream(&mut chain, config, false)
            .map(|l| (Load::Cells(Box::new(l.engine)), l.warnings)),
        EngineArg::Bits => unreachable!("the bits engine loads a parsed problem"),
    };
    let (load, warnings) = loaded.map_err(|e| {
        let (file, line) = chain.locate(e.line);
        anyhow!("{file}: {}", ParseError { line, ..e })
    })?;
    for w in &warnings {
        let (file, line) = chain.locate(w.line);
        eprintln!("dlx: {file}: warning: line {line}: {}", w.message);
    }
    Ok((load, source))
}

/// The files of the command line (standard input for none or `-`), read
/// one after the other as one stream, a line end added after a file whose
/// last line has none (as [`read_inputs`] joins them); it records the line
/// of the stream each file starts on, for [`locate`](Self::locate).
struct Chain {
    /// The files not yet started, each with its name, in reverse order.
    rest: Vec<(Box<dyn Read>, String)>,
    /// The file being read.
    current: Option<Box<dyn Read>>,
    /// Each file started: its name and the line (from 1) it starts on.
    parts: Vec<(String, usize)>,
    /// Line ends passed on so far.
    lines: usize,
    /// The last byte passed on from the current file.
    last: Option<u8>,
    /// A line end to pass on before the next file.
    pending: bool,
}

impl Chain {
    /// Open every file first, so a missing one is reported before any
    /// parsing, as `cannot read FILE`.
    fn open(files: &[PathBuf]) -> anyhow::Result<Chain> {
        let mut rest: Vec<(Box<dyn Read>, String)> = Vec::new();
        let stdin =
            || -> (Box<dyn Read>, String) { (Box::new(io::stdin().lock()), "<stdin>".to_string()) };
        if files.is_empty() {
            rest.push(stdin());
        }
        for p in files {
            if p.as_os_str() == "-" {
                rest.push(stdin());
            } else {
                let f = std::fs::File::open(p)
                    .with_context(|| format!("cannot read {}", p.display()))?;
                rest.push((Box::new(f), p.display().to_string()));
            }
        }
        rest.reverse();
        Ok(Chain {
            rest,
            current: None,
            parts: Vec::new(),
            lines: 0,
            last: None,
            pending: false,
        })
    }

    /// The input's name: the files' names joined by ` + `.
    fn source(&self) -> String {
        let names: Vec<&str> = self.rest.iter().rev().map(|f| f.1.as_str()).collect();
        names.join(" + ")
    }

    /// Where line `line` of the stream comes from: the file's name and its
    /// own line number.
    fn locate(&self, line: usize) -> (&str, usize) {
        match self.parts.iter().rev().find(|p| p.1 <= line) {
            Some((name, start)) => (name, line + 1 - start),
            None => match (self.parts.first(), self.rest.last()) {
                (Some(part), _) => (&part.0, line),
                (None, Some(file)) => (&file.1, line),
                (None, None) => ("<stdin>", line),
            },
        }
    }
}

impl Read for Chain {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.pending {
                self.pending = false;
                buf[0] = b'\n';
                self.lines += 1;
                return Ok(1);
            }
            let Some(file) = self.current.as_mut() else {
                let Some((file, name)) = self.rest.pop() else {
                    return Ok(0);
                };
                self.parts.push((name, self.lines + 1));
                self.current = Some(file);
                self.last = None;
                continue;
            };
            let n = file.read(buf)?;
            if n == 0 {
                // (the last file is passed on as it is)
                self.pending = self.last.is_some_and(|b| b != b'\n') && !self.rest.is_empty();
                self.current = None;
                continue;
            }
            self.lines += buf[..n].iter().filter(|&&b| b == b'\n').count();
            self.last = Some(buf[n - 1]);
            return Ok(n);
        }
    }
}

/// The bytes as text, or where the first invalid UTF-8 sequence is (1-based
/// line, and column in characters as in parse errors).
pub fn decode_utf8(bytes: Vec<u8>) -> Result<String, ParseError> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let valid = std::str::from_utf8(&bytes[..at]).expect("valid up to here");
        let line_start = valid.rfind('\n').map_or(0, |k| k + 1);
        ParseError {
            line: valid.matches('\n').count() + 1,
            column: valid[line_start..].chars().count() + 1,
            message: format!("not valid UTF-8 (byte 0x{:02X})", bytes[at]),
        }
    })
}

/// Parse the problem; print the parser's warnings on stderr. The text
/// moves into the result (the options' texts), leaving `input.text` empty.
pub fn parse_input(input: &mut Input) -> anyhow::Result<Parsed> {
    let parsed = parse_owned(std::mem::take(&mut input.text)).map_err(|e| input.error(e))?;
    input.warn(&parsed.warnings);
    Ok(parsed)
}

/// [`parse_input`] straight into the cells engine (see [`Cells::parse`]).
pub fn load_cells(input: &mut Input, config: Config) -> anyhow::Result<Loaded<Cells>> {
    let loaded =
        Cells::parse(std::mem::take(&mut input.text), config).map_err(|e| input.error(e))?;
    input.warn(&loaded.warnings);
    Ok(loaded)
}

impl Input {
    /// A parse error, with the file and its own line.
    fn error(&self, e: ParseError) -> anyhow::Error {
        let (file, line) = self.locate(e.line);
        anyhow!("{file}: {}", ParseError { line, ..e })
    }

    /// Print the parser's warnings on stderr.
    fn warn(&self, warnings: &[Warning]) {
        for w in warnings {
            let (file, line) = self.locate(w.line);
            eprintln!("dlx: {file}: warning: line {line}: {}", w.message);
        }
    }
}

/// The problem as loaded: parsed, or straight into an engine.
#[derive(Debug)]
pub enum Load {
    Problem(Box<Problem>),
    Links(Box<Dlx>),
    Cells(Box<Cells>),
}

/// The solver a plan runs.
#[derive(Debug)]
pub enum Engine {
    /// Dancing links (a parallel count copies it for each thread).
    Links(Box<Dlx>),
    /// Dancing cells, built (and checked) by [`configure`].
    Cells(Box<Cells>),
    /// Dancing links with the options of a `--subproblem` token selected.
    Subproblem(Box<Dlx>),
    /// The bit-parallel engine.
    Bits(Box<Bits>),
}

/// Everything the search needs besides the problem.
#[derive(Debug)]
pub struct Plan {
    pub engine: Engine,
    pub config: Config,
    pub limits: Limits,
    /// Count only (no solutions written).
    pub count: bool,
    /// Worker threads (counting only; 1 otherwise).
    pub threads: usize,
    /// Show a progress bar (links engine on one thread).
    pub progress: bool,
    pub format: Format,
    /// Print every `every`-th solution (1: all).
    pub every: u64,
    /// The level limit (links engine).
    pub max_level: Option<usize>,
    /// Knuth-style reports (`-v`, `-vv`, `-vvv`) and their spacing in nodes.
    pub verbose: u8,
    pub delta: u64,
}

/// Check the arguments against each other and the problem, and build the plan.
pub fn configure(args: &Args, load: Load, source: &str) -> anyhow::Result<Plan> {
    let config = config_of(args);
    let limits = Limits {
        max_solutions: args.limit,
        max_nodes: args.max_nodes,
        deadline: args.timeout.and_then(deadline_after),
        cancel: None,
    };
    let threads = threads(args)?;
    let engine = match (args.engine, &args.subproblem, load) {
        (EngineArg::Cells | EngineArg::Bits, Some(_), _) => {
            anyhow::bail!("--subproblem runs on the links engine: leave out --engine")
        }
        (_, _, Load::Cells(cells)) => Engine::Cells(cells),
        (_, _, Load::Links(dlx)) => Engine::Links(dlx),
        (EngineArg::Links, Some(token), Load::Problem(problem)) => {
            let sub: Subproblem = token
                .parse()
                .map_err(|e| anyhow!("--subproblem '{token}': {e}"))?;
            let mut dlx = subproblem_solver(&problem, config, &sub)
                .map_err(|e| anyhow!("--subproblem '{token}': {e} ({source})"))?;
            dlx.set_names(&problem);
            Engine::Subproblem(Box::new(dlx))
        }
        (EngineArg::Links, None, Load::Problem(problem)) => {
            let mut dlx = Dlx::with_config(&problem, config);
            dlx.set_names(&problem);
            Engine::Links(Box::new(dlx))
        }
        (EngineArg::Cells, None, Load::Problem(problem)) => Engine::Cells(Box::new(
            Cells::with_config(&problem, config).map_err(|e| anyhow!("{source}: {e}"))?,
        )),
        (EngineArg::Bits, None, Load::Problem(problem)) => Engine::Bits(Box::new(
            Bits::with_config(&problem, config).map_err(|e| anyhow!("{source}: {e}"))?,
        )),
    };
    if args.engine != EngineArg::Links && (args.max_level.is_some() || args.verbose > 0) {
        anyhow::bail!("--max-level and -v run on the links engine: leave out --engine");
    }
    if args.engine == EngineArg::Bits
        && (args.no_prune || args.mems || args.trail.is_some() || args.general_walks)
    {
        anyhow::bail!(
            "the bits engine always prunes and counts no mems: leave out --no-prune, \
             --mems, --trail and --general-walks (or use --engine cells)"
        );
    }
    let mut progress = args.progress.enabled() && args.verbose == 0;
    if progress && (args.engine != EngineArg::Links || threads > 1) {
        if args.progress == When::Always {
            eprintln!(
                "dlx: warning: no progress bar {}",
                if args.engine == EngineArg::Cells {
                    "with the cells engine"
                } else if args.engine == EngineArg::Bits {
                    "with the bits engine"
                } else {
                    "when counting on several threads"
                }
            );
        }
        progress = false;
    }
    let engine = match engine {
        Engine::Cells(mut cells) => {
            cells.set_pruning(!args.no_prune);
            cells.set_mems(args.mems);
            match args.trail {
                Some(TrailArg::Stamped) => cells.set_trail(exact_cover::TrailStyle::Stamped),
                Some(TrailArg::Each) => cells.set_trail(exact_cover::TrailStyle::EachRemoval),
                None => {}
            }
            cells.set_fixed_walks(!args.general_walks);
            Engine::Cells(cells)
        }
        Engine::Links(mut dlx) => {
            dlx.set_mems(args.mems);
            Engine::Links(dlx)
        }
        Engine::Subproblem(mut dlx) => {
            dlx.set_mems(args.mems);
            Engine::Subproblem(dlx)
        }
        Engine::Bits(bits) => Engine::Bits(bits),
    };
    Ok(Plan {
        engine,
        config,
        limits,
        count: args.count,
        threads,
        progress,
        format: args.format,
        every: args.every.unwrap_or(1),
        max_level: args.max_level,
        verbose: args.verbose,
        delta: args.delta.max(1),
    })
}

/// The threads of `--threads`: one unless counting; all cores by default
/// when counting without a solution or node limit.
fn threads(args: &Args) -> anyhow::Result<usize> {
    if !args.count {
        return match args.threads {
            None | Some(1) => Ok(1),
            Some(n) => anyhow::bail!(
                "--threads {n} needs --count: solutions are printed from one thread \
                 (--threads counts in parallel)"
            ),
        };
    }
    if args.limit.is_some()
        || args.max_nodes.is_some()
        || args.subproblem.is_some()
        || args.max_level.is_some()
        || args.verbose > 0
    {
        // these limits depend on the order of the search; a subproblem is
        // one task of a split, counted on one thread
        return Ok(1);
    }
    Ok(match args.threads {
        Some(n) => worker_threads("dlx", n),
        None if args.progress == When::Always => 1,
        None => worker_threads("dlx", 0),
    })
}

/// Run the search, writing each solution to `out` as it is found (nothing
/// when counting). A write error stops the search and is returned. The
/// links engine writes the options from its own nodes; the cells engine's
/// are `texts` (the input's lines, written the same way: see [`Written`]).
pub fn search(plan: &mut Plan, texts: &OptionTexts, out: &mut dyn Write) -> io::Result<Report> {
    if plan.count {
        return Ok(count(plan));
    }
    let watch = plan.watch();
    let mut sink = SolutionWriter::new(out, plan.format);
    sink.every = plan.every;
    let mut visit =
        |sol: &[usize], options: OptionNames<'_>| sink.visit(sol, Written::Engine(options));
    let report = match &mut plan.engine {
        Engine::Cells(cells) => {
            cells.search(&plan.limits, |sol| sink.visit(sol, Written::Texts(texts)))
        }
        Engine::Bits(bits) => {
            bits.search(&plan.limits, |sol| sink.visit(sol, Written::Texts(texts)))
        }
        Engine::Subproblem(dlx) => {
            dlx.set_max_level(plan.max_level);
            search_links(dlx, &plan.limits, watch, &mut visit)
        }
        Engine::Links(dlx) => {
            dlx.set_max_level(plan.max_level);
            search_links(dlx, &plan.limits, watch, &mut visit)
        }
    };
    match sink.error.take() {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// What [`search_links`] shows besides the solutions, and whether it counts.
#[derive(Clone, Copy, Debug)]
struct Watch {
    count: bool,
    progress: bool,
    verbose: u8,
    delta: u64,
}

impl Plan {
    fn watch(&self) -> Watch {
        Watch {
            count: self.count,
            progress: self.progress,
            verbose: self.verbose,
            delta: self.delta,
        }
    }
}

/// Search (`visit` set) or count on the links engine, with the progress
/// bar or the Knuth-style reports the plan asks for.
fn search_links(
    dlx: &mut Dlx,
    limits: &Limits,
    plan: Watch,
    visit: &mut dyn FnMut(&[usize], OptionNames<'_>) -> ControlFlow<()>,
) -> Report {
    if plan.verbose > 0 {
        let mut obs = Knuth::new(plan.verbose, plan.delta);
        let r = if plan.count {
            dlx.count_observed(limits, &mut obs)
        } else {
            dlx.search_named(limits, visit, &mut obs)
        };
        obs.report(&r.stats);
        r
    } else if plan.progress {
        let mut bar = Bar::new();
        let r = if plan.count {
            dlx.count_observed(limits, &mut bar)
        } else {
            dlx.search_named(limits, visit, &mut bar)
        };
        bar.0.finish_and_clear();
        r
    } else if plan.count {
        dlx.count(limits)
    } else {
        dlx.search_named(limits, visit, &mut NoObserver)
    }
}

/// Count the solutions, on `plan.threads` threads.
fn count(plan: &mut Plan) -> Report {
    let mut none = |_: &[usize], _: OptionNames<'_>| ControlFlow::Continue(());
    let watch = plan.watch();
    match &mut plan.engine {
        Engine::Cells(cells) if plan.threads > 1 => {
            cells.count_parallel(&plan.limits, plan.threads)
        }
        Engine::Cells(cells) => cells.count(&plan.limits),
        Engine::Bits(bits) if plan.threads > 1 => bits.count_parallel(&plan.limits, plan.threads),
        Engine::Bits(bits) => bits.count(&plan.limits),
        Engine::Subproblem(dlx) => {
            dlx.set_max_level(plan.max_level);
            search_links(dlx, &plan.limits, watch, &mut none)
        }
        Engine::Links(dlx) if plan.threads > 1 => dlx.count_parallel(&plan.limits, plan.threads),
        Engine::Links(dlx) => {
            dlx.set_max_level(plan.max_level);
            search_links(dlx, &plan.limits, watch, &mut none)
        }
    }
}

/// Knuth-style reports on stderr: every `delta` nodes the current choice
/// at each level (its option, and its place among the item's options),
/// the solutions, nodes and deepest level so far, and the estimate of the
/// tree done (`-v`); each solution's number and level (`-vv`); every
/// choice tried (`-vvv`).
/// The options are written from the engine's nodes (see [`OptionNames`]).
struct Knuth {
    verbose: u8,
    delta: u64,
    next: u64,
    /// Per level: (option, place from 1, options of the item).
    path: Vec<(usize, u64, u64)>,
    solutions: u64,
    /// Scratch for an option's text.
    line: String,
}

impl Knuth {
    fn new(verbose: u8, delta: u64) -> Knuth {
        Knuth {
            verbose,
            delta,
            next: delta,
            path: Vec::new(),
            solutions: 0,
            line: String::new(),
        }
    }

    /// The closing line, as Knuth's programs end.
    fn report(&self, stats: &Stats) {
        eprintln!(
            "Altogether {} solution{}, {} nodes, {} updates{}, max level {}.",
            stats.solutions,
            if stats.solutions == 1 { "" } else { "s" },
            stats.nodes,
            stats.updates,
            mems_part(stats),
            stats.max_depth
        );
    }
}

impl Observer for Knuth {
    fn backtrack(&mut self, depth: usize) {
        self.path.truncate(depth + 1);
    }

    fn choose(&mut self, depth: usize, _item: usize, choices: u64) {
        self.path.truncate(depth);
        self.path.push((usize::MAX, 0, choices));
    }

    fn try_option_named(&mut self, depth: usize, option: usize, options: OptionNames<'_>) {
        if let Some(p) = self.path.get_mut(depth) {
            p.0 = option;
            p.1 += 1;
            if self.verbose >= 3 {
                self.line.clear();
                Written::Engine(options).write(option, &mut self.line);
                eprintln!("L{depth}: {} ({} of {})", self.line, p.1, p.2);
            }
        }
    }

    fn solution(&mut self, depth: usize) {
        self.solutions += 1;
        if self.verbose >= 2 {
            eprintln!("solution {} at level {depth}", self.solutions);
        }
    }

    fn tick_named(&mut self, progress: f64, stats: &Stats, options: OptionNames<'_>) {
        if stats.nodes < self.next {
            return;
        }
        self.next = stats.nodes.saturating_add(self.delta);
        let mut text = format!("Current state (level {}):\n", self.path.len());
        for (option, place, of) in &self.path {
            if *option != usize::MAX {
                text.push(' ');
                Written::Engine(options).write(*option, &mut text);
                text.push_str(&format!(" ({place} of {of})\n"));
            }
        }
        text.push_str(&format!(
            " {} solutions, {} nodes, {} updates{}, max level {} so far; about {:.5} done\n",
            stats.solutions,
            stats.nodes,
            stats.updates,
            mems_part(stats),
            stats.max_depth,
            progress
        ));
        eprint!("{text}");
    }
}

/// `, N mems` for Knuth's report lines when mems are counted.
fn mems_part(stats: &Stats) -> String {
    if stats.mems > 0 {
        format!(", {} mems", stats.mems)
    } else {
        String::new()
    }
}

/// How often streamed solutions are flushed at least, so a slow search
/// shows its solutions as they come while a fast one writes in big blocks.
const FLUSH_EVERY: Duration = Duration::from_millis(200);

/// Where a solution's options are written from: the engine's nodes (the
/// links engine), or the input's lines (the cells engine and the memoised
/// search), written the same way: the option's items, one space apart.
#[derive(Clone, Copy, Debug)]
pub enum Written<'a> {
    Engine(OptionNames<'a>),
    Texts(&'a OptionTexts),
}

impl Written<'_> {
    /// Append option `k` to `out` (`?` if there is no option `k`).
    pub fn write(self, k: usize, out: &mut String) {
        match self {
            Written::Engine(options) => {
                if !options.write(k, out) {
                    out.push('?');
                }
            }
            Written::Texts(texts) => {
                let text = texts.get(k).unwrap_or("?");
                for (n, word) in text.split_whitespace().enumerate() {
                    if n > 0 {
                        out.push(' ');
                    }
                    out.push_str(word);
                }
            }
        }
    }
}

/// Writes solutions as they are found; keeps the first write error.
struct SolutionWriter<'a> {
    out: &'a mut dyn Write,
    format: Format,
    first: bool,
    /// Scratch: the solution's text, and where each option's ends in it.
    text: String,
    ends: Vec<usize>,
    line: Vec<u8>,
    last_flush: Instant,
    error: Option<io::Error>,
    /// Print every `every`-th solution; `seen` counts them all.
    every: u64,
    seen: u64,
}

impl<'a> SolutionWriter<'a> {
    fn new(out: &'a mut dyn Write, format: Format) -> Self {
        SolutionWriter {
            out,
            format,
            first: true,
            text: String::new(),
            ends: Vec::new(),
            line: Vec::new(),
            last_flush: Instant::now(),
            error: None,
            every: 1,
            seen: 0,
        }
    }

    fn visit(&mut self, sol: &[usize], options: Written<'_>) -> ControlFlow<()> {
        self.seen += 1;
        if self.seen % self.every != 0 {
            return ControlFlow::Continue(());
        }
        match self.write(sol, options) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.error = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    fn write(&mut self, sol: &[usize], options: Written<'_>) -> io::Result<()> {
        self.text.clear();
        match self.format {
            Format::Text => {
                // the whole solution in one write
                if !std::mem::take(&mut self.first) {
                    self.text.push('\n');
                }
                for &k in sol {
                    options.write(k, &mut self.text);
                    self.text.push('\n');
                }
                self.out.write_all(self.text.as_bytes())?;
            }
            Format::Json => {
                self.ends.clear();
                for &k in sol {
                    options.write(k, &mut self.text);
                    self.ends.push(self.text.len());
                }
                // {"solution":["A D","C E F"]}, as serde writes the struct
                self.line.clear();
                self.line.extend_from_slice(b"{\"solution\":[");
                let mut start = 0;
                for (n, &end) in self.ends.iter().enumerate() {
                    if n > 0 {
                        self.line.push(b',');
                    }
                    serde_json::to_writer(&mut self.line, &self.text[start..end])?;
                    start = end;
                }
                self.line.extend_from_slice(b"]}\n");
                self.out.write_all(&self.line)?;
            }
        }
        if self.last_flush.elapsed() >= FLUSH_EVERY {
            self.out.flush()?;
            self.last_flush = Instant::now();
        }
        Ok(())
    }
}

/// The progress bar: Knuth's estimate of the fraction of the tree done.
struct Bar(indicatif::ProgressBar);

impl Bar {
    fn new() -> Bar {
        let bar = indicatif::ProgressBar::new(10_000);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {percent}% (est.) {msg}",
            )
            .expect("valid template"),
        );
        Bar(bar)
    }
}

impl Observer for Bar {
    fn tick(&mut self, progress: f64, stats: &Stats) {
        self.0.set_position((progress * 10_000.0) as u64);
        self.0.set_message(format!(
            "{} solutions, {} nodes",
            stats.solutions, stats.nodes
        ));
    }
}

/// End the output: the count (text `--count`) or the JSON summary line.
pub fn write_summary(
    out: &mut dyn Write,
    plan: &Plan,
    report: &Report,
    elapsed: Duration,
) -> io::Result<()> {
    let s = &report.stats;
    match plan.format {
        Format::Text if plan.count => writeln!(out, "{}", count_text(report)),
        Format::Text => Ok(()),
        Format::Json => {
            let summary = Summary {
                count: s.solutions,
                complete: report.stop.is_complete(),
                stop: report.stop,
                stats: SummaryStats {
                    nodes: s.nodes,
                    updates: s.updates,
                    mems: (s.mems > 0).then_some(s.mems),
                    max_depth: s.max_depth,
                    bytes: s.peak_bytes,
                    seconds: elapsed.as_secs_f64(),
                },
            };
            let mut line = serde_json::to_vec(&summary)?;
            line.push(b'\n');
            out.write_all(&line)
        }
    }
}

/// The JSON summary line (fields in this order).
#[derive(serde::Serialize)]
struct Summary {
    count: u64,
    complete: bool,
    stop: StopReason,
    stats: SummaryStats,
}

#[derive(serde::Serialize)]
struct SummaryStats {
    nodes: u64,
    updates: u64,
    /// Knuth's mems (`--mems`; null when not counted).
    mems: Option<u64>,
    max_depth: u32,
    bytes: u64,
    seconds: f64,
}

/// The count as text: `N` when exact, `at least N (why it stopped)` when a
/// limit cut the search short.
pub fn count_text(report: &Report) -> String {
    let n = report.stats.solutions;
    if report.stop.is_complete() {
        n.to_string()
    } else {
        format!("at least {n} ({})", report.stop)
    }
}

/// The solutions found (and why the search stopped, when cut short) and
/// the statistics, on stderr.
fn report_on_stderr(report: &Report, elapsed: Duration, stats: bool) {
    let s = &report.stats;
    let noun = if s.solutions == 1 {
        "solution"
    } else {
        "solutions"
    };
    if report.stop.is_complete() {
        eprintln!("{} {noun}", s.solutions);
    } else {
        eprintln!("{} {noun} (search cut short: {})", s.solutions, report.stop);
    }
    if stats {
        let mems = if s.mems > 0 {
            format!("  mems {}", s.mems)
        } else {
            String::new()
        };
        eprintln!(
            "nodes {}  updates {}{mems}  max depth {}  bytes {}  time {:.3}s  solutions {}",
            s.nodes,
            s.updates,
            s.max_depth,
            s.peak_bytes,
            elapsed.as_secs_f64(),
            s.solutions
        );
    }
}

/// The memoised paths: `dlx --count --memo` (memoised counting, written
/// as `--count` writes its answer: text, the count or `at least N
/// (REASON)`; JSON, the summary line with the count as a JSON integer of any
/// size), `--zdd FILE`, `--sample N` and `--best K` (on the ZDD).
fn memo_run(args: &Args, input: &mut Input) -> anyhow::Result<ExitCode> {
    let source = input.source.clone();
    let zdd_mode = args.zdd.is_some() || args.sample.is_some() || args.best.is_some();
    if !zdd_mode && (!args.count || !args.memo) {
        anyhow::bail!(
            "--memo and --memo-cache go with --count, --zdd, --sample or --best: memoised search counts solutions, it does not list them (try 'dlx --count --memo FILE')"
        );
    }
    if [
        args.zdd.is_some(),
        args.sample.is_some(),
        args.best.is_some(),
    ]
    .iter()
    .filter(|&&b| b)
    .count()
        > 1
    {
        anyhow::bail!("--zdd, --sample and --best are separate runs: give one of them");
    }
    if args.limit.is_some()
        || args.engine != EngineArg::Links
        || args.no_prune
        || args.no_reduce
        || args.mems
        || args.trail.is_some()
        || args.general_walks
    {
        anyhow::bail!(
            "memoised search (--memo, --zdd, --sample, --best) adds up subproblems: leave out --limit, --engine, --no-prune, --no-reduce, --trail, --general-walks and --mems"
        );
    }
    if args.every.is_some() || args.max_level.is_some() || args.verbose > 0 {
        anyhow::bail!(
            "--every, --max-level and -v go with plain search: leave them out with --memo, --zdd, --sample or --best"
        );
    }
    if args.split.is_some() || args.subproblem.is_some() {
        anyhow::bail!(
            "memoised search (--memo, --zdd, --sample, --best) takes the whole problem: leave out --split and --subproblem (count each subproblem without --memo)"
        );
    }
    if zdd_mode && args.heuristic != HeuristicArg::Mrv {
        anyhow::bail!(
            "the ZDD always branches on the first uncovered item (that keeps it ordered): leave out --heuristic"
        );
    }
    let heuristic = match args.heuristic {
        HeuristicArg::Mrv => Heuristic::Mrv,
        HeuristicArg::First => Heuristic::First,
    };
    let parsed = parse_input(input)?;
    let weights = match &args.weights {
        Some(path) => {
            let text = std::fs::read(path)
                .with_context(|| format!("--weights: cannot read {}", path.display()))?;
            let text = decode_utf8(text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
            parse_weights(&text, parsed.problem.option_count())
                .map_err(|e| anyhow!("{}: {e}", path.display()))?
        }
        None => vec![1; parsed.problem.option_count()],
    };
    let order = match args.item_order {
        ItemOrderArg::Auto => exact_cover::ItemOrder::Auto,
        ItemOrderArg::Given => exact_cover::ItemOrder::Given,
    };
    let mut memo = exact_cover::Memo::with_item_order(&parsed.problem, order)
        .map_err(|e| anyhow!("{source}: {e}"))?
        .with_heuristic(heuristic);
    if let Some(n) = args.memo_cache {
        memo = memo.with_cache_limit(n);
    }
    let limits = Limits {
        max_solutions: None,
        max_nodes: args.max_nodes,
        deadline: args.timeout.and_then(deadline_after),
        cancel: None,
    };
    let start = Instant::now();
    if zdd_mode {
        return zdd_run(args, &parsed, &mut memo, &limits, &weights, start);
    }
    let answer = memo.count(&limits);
    let (report, count) = (&answer.report, answer.count);
    let count_text = match (report.stop.is_complete(), answer.overflow) {
        (true, false) => count.to_string(),
        (true, true) => {
            // past u128: the ZDD counts in big numbers
            let (zdd, _) = memo.zdd(&limits);
            match zdd {
                Some(z) => z.count_big().to_string(),
                None => format!("at least {count} (the count passed 2^128)"),
            }
        }
        (false, true) => format!("at least {count} (the count passed 2^128)"),
        (false, false) => format!("at least {count} ({})", report.stop),
    };
    let elapsed = start.elapsed();
    let exact = report.stop.is_complete() && !count_text.starts_with("at least");
    let mut out = open_output(args.output.as_deref())?;
    let s = &report.stats;
    let written = match args.format {
        Format::Text => writeln!(out, "{count_text}"),
        Format::Json => writeln!(
            out,
            "{{\"count\":{},\"complete\":{exact},\"stop\":{},\"stats\":{{\"nodes\":{},\"updates\":{},\"max_depth\":{},\"bytes\":{},\"seconds\":{}}}}}",
            if exact {
                count_text.as_str().to_string()
            } else {
                count.to_string()
            },
            serde_json::to_string(&report.stop)?,
            s.nodes,
            s.updates,
            s.max_depth,
            s.peak_bytes,
            elapsed.as_secs_f64()
        ),
    };
    written
        .and_then(|()| out.flush())
        .context("cannot write the count")?;
    eprintln!("{count_text} solutions");
    if args.stats {
        memo_stats(report, elapsed);
    }
    Ok(ExitCode::from(if exact && count > 0 {
        exit::OK
    } else {
        exit::INCOMPLETE
    }))
}

/// `--stats` of the memoised paths.
fn memo_stats(report: &Report, elapsed: Duration) {
    let s = &report.stats;
    eprintln!(
        "nodes {}  cache hits {} ({:.1}%)  cache emptied {}  max depth {}  bytes {}  time {:.3}s",
        s.nodes,
        s.guesses,
        100.0 * exact_cover::Memo::cache_hit_rate(report),
        s.updates,
        s.max_depth,
        s.peak_bytes,
        elapsed.as_secs_f64()
    );
}

/// `--zdd`, `--sample`, `--best`: build the ZDD, then write it, draw from
/// it or rank its solutions.
fn zdd_run(
    args: &Args,
    parsed: &Parsed,
    memo: &mut exact_cover::Memo,
    limits: &Limits,
    weights: &[i64],
    start: Instant,
) -> anyhow::Result<ExitCode> {
    let (zdd, report) = memo.zdd(limits);
    let Some(zdd) = zdd else {
        eprintln!("dlx: the ZDD was not finished: {}", report.stop);
        if args.stats {
            memo_stats(&report, start.elapsed());
        }
        return Ok(ExitCode::from(exit::INCOMPLETE));
    };
    let count = zdd.count_big();
    let destination = match &args.output {
        Some(p) if p.as_os_str() != "-" => p.display().to_string(),
        _ => "standard output".to_string(),
    };
    let mut out = open_output(args.output.as_deref())?;
    if let Some(path) = &args.zdd {
        let to_stdout = path.as_os_str() == "-";
        if to_stdout {
            zdd.write_text(&mut out)
        } else {
            let mut f = std::fs::File::create(path)
                .with_context(|| format!("--zdd: cannot create {}", path.display()))?;
            zdd.write_text(&mut f)
                .with_context(|| format!("--zdd: cannot write {}", path.display()))?;
            match args.format {
                Format::Text => writeln!(out, "{count}"),
                Format::Json => writeln!(
                    out,
                    "{{\"count\":{count},\"zdd_nodes\":{},\"complete\":true}}",
                    zdd.len()
                ),
            }
        }
        .and_then(|()| out.flush())
        .with_context(|| format!("cannot write to {destination}"))?;
        eprintln!("{count} solutions; ZDD of {} nodes", zdd.len());
    } else if let Some(n) = args.sample {
        let mut rng = exact_cover::SplitMix64::new(args.seed.unwrap_or(0));
        let mut sink = SolutionWriter::new(&mut out, args.format);
        for sol in zdd.samples(n, &mut rng) {
            if sink
                .visit(&sol, Written::Texts(&parsed.option_texts))
                .is_break()
            {
                break;
            }
        }
        if let Some(e) = sink.error.take() {
            return Err(e).with_context(|| format!("cannot write to {destination}"));
        }
        out.flush()
            .with_context(|| format!("cannot write to {destination}"))?;
        eprintln!(
            "{} samples from {count} solutions",
            if count == num_bigint::BigUint::ZERO {
                0
            } else {
                n
            }
        );
    } else if let Some(k) = args.best {
        let best = zdd.best(k, weights);
        let mut text = String::new();
        for (i, (w, sol)) in best.iter().enumerate() {
            match args.format {
                Format::Text => {
                    if i > 0 {
                        text.push('\n');
                    }
                    text.push_str(&format!("| weight {w}\n"));
                    for &o in sol {
                        Written::Texts(&parsed.option_texts).write(o, &mut text);
                        text.push('\n');
                    }
                }
                Format::Json => {
                    let opts: Vec<String> = sol
                        .iter()
                        .map(|&o| {
                            let mut t = String::new();
                            Written::Texts(&parsed.option_texts).write(o, &mut t);
                            t
                        })
                        .collect();
                    let weight = i64::try_from(*w).map_or_else(
                        |_| serde_json::Value::String(w.to_string()),
                        serde_json::Value::from,
                    );
                    text.push_str(
                        &serde_json::json!({"weight": weight, "solution": opts}).to_string(),
                    );
                    text.push('\n');
                }
            }
        }
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .with_context(|| format!("cannot write to {destination}"))?;
        eprintln!("{} best of {count} solutions", best.len());
    }
    if args.stats {
        memo_stats(&report, start.elapsed());
    }
    Ok(ExitCode::from(if count > num_bigint::BigUint::ZERO {
        exit::OK
    } else {
        exit::INCOMPLETE
    }))
}

/// `--weights`: one integer per option, in input order; `|` starts a
/// comment line. Errors name the line and column.
pub fn parse_weights(text: &str, options: usize) -> Result<Vec<i64>, ParseError> {
    let mut weights = Vec::with_capacity(options);
    for (ln, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('|') {
            continue;
        }
        let mut col = 1;
        let mut rest = line;
        while !rest.is_empty() {
            let blank = rest.len() - rest.trim_start().len();
            col += rest[..blank].chars().count();
            rest = &rest[blank..];
            if rest.is_empty() {
                break;
            }
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let token = &rest[..end];
            let w = token.parse::<i64>().map_err(|_| ParseError {
                line: ln + 1,
                column: col,
                message: format!("'{token}' is not an integer weight"),
            })?;
            if weights.len() == options {
                return Err(ParseError {
                    line: ln + 1,
                    column: col,
                    message: format!("more weights than the problem's {options} options"),
                });
            }
            weights.push(w);
            col += token.chars().count();
            rest = &rest[end..];
        }
    }
    if weights.len() < options {
        return Err(ParseError {
            line: text.lines().count().max(1),
            column: 1,
            message: format!(
                "{} weights for {options} options: give one per option, in input order",
                weights.len()
            ),
        });
    }
    Ok(weights)
}

/// The exit code of a search: [`exit::OK`] for a complete search with at
/// least one solution, [`exit::INCOMPLETE`] when a limit cut it short or
/// there is no solution.
pub fn exit_code(report: &Report) -> u8 {
    if report.stop == StopReason::Exhausted && report.stats.solutions > 0 {
        exit::OK
    } else {
        exit::INCOMPLETE
    }
}
