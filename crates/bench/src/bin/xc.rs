//! Exact-cover benchmark: our dancing-links engine and our dancing-cells
//! engine (one and two threads each), our bit-parallel engine (one thread,
//! where the instance has at most 4,096 options) and the `dlx` crate 0.8.5
//! side by side,
//! counting all solutions of each instance, in one run. Prints a Markdown table of median times over `--passes` runs.
//!
//! `cargo run -p bench --release --bin xc -- [--passes N] [--quick]`
//! (`--help` for usage; unknown arguments are an error, exit code 2)
//!
//! `--print NAME` writes one instance in Knuth's format to stdout instead
//! (`queens14`, `queens14-organ-pipe`, `langford12`, `sudoku-many`, ...), to
//! feed the `dlx` command.

use std::time::{Duration, Instant};

use bench::xc_instances::{
    dominoes, langford, queens, queens_organ_pipe, random_secondary, sudoku_xcc,
};
use exact_cover::{Bits, Cells, Config, Dlx, Limits, count_parallel, format::parse};

/// The stand-in for "a Sudoku with about a million solutions as XCC": the
/// bundled very hard puzzle with givens removed (1,677,910 solutions).
const MANY_SUDOKU: &str =
    "...................7..9.2...5...7.......457.....1...3...1....68..85...1..9.......";

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time<T>(passes: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..passes {
        let t = Instant::now();
        last = Some(f());
        times.push(t.elapsed());
    }
    (median(times), last.expect("at least one pass"))
}

fn peer_count(text: &str) -> u64 {
    let spec = dlx::Spec::new(text, true).expect("peer parses the instance");
    let mut n = 0;
    if spec.opts.iter().flatten().any(|i| i.contains(':')) {
        let mut chooser =
            dlx::choose::mrv_chooser(dlx::choose::prefer_any(), dlx::choose::no_tiebreak());
        let mut p = dlx::c::Problem::from_spec(&spec).expect("peer builds it");
        let mut s = dlx::Solver::new(&mut p);
        while s.next_solution(&mut chooser) {
            n += 1;
        }
    } else {
        let mut chooser =
            dlx::choose::mrv_chooser(dlx::choose::prefer_any(), dlx::choose::no_tiebreak());
        let mut p = dlx::x::Problem::from_spec(&spec, dlx::OptOrder::Seq).expect("peer builds it");
        let mut s = dlx::Solver::new(&mut p);
        while s.next_solution(&mut chooser) {
            n += 1;
        }
    }
    n
}

fn print_instance(name: &str) {
    let number = |prefix: &str, suffix: &str| -> Option<usize> {
        name.strip_prefix(prefix)?
            .strip_suffix(suffix)?
            .parse()
            .ok()
    };
    let text = if let Some(0) = number("queens", "-organ-pipe").or(number("queens", "")) {
        eprintln!("{name}: n-queens needs n >= 1");
        std::process::exit(2);
    } else if let Some(n) = number("queens", "-organ-pipe") {
        queens_organ_pipe(n)
    } else if let Some(n) = number("queens", "") {
        queens(n)
    } else if let Some(n) = number("domino", "") {
        dominoes(n, n)
    } else if let Some(n) = number("langford", "") {
        langford(n)
    } else if name == "sudoku-many" {
        sudoku_xcc(MANY_SUDOKU)
    } else if name == "random-secondary" {
        random_secondary(30, 12, 230, 1)
    } else {
        eprintln!(
            "unknown instance {name}: queensN, queensN-organ-pipe, langfordN, dominoN, \
             sudoku-many, random-secondary"
        );
        std::process::exit(2);
    };
    print!("{text}");
}

const USAGE: &str = "\
Exact-cover benchmark: our dancing-links and dancing-cells engines (one and two
threads each), our bit-parallel engine (one thread, up to 4,096 options) and the
dlx crate 0.8.5, counting all solutions of each instance; prints a Markdown table
of median times.

Usage: xc [--passes N] [--quick]
       xc --print NAME

Options:
  --passes N    runs per measurement, the median is shown (default 3)
  --quick       two small instances (12-queens, Langford n=11) instead of the full set
  --print NAME  write one instance in Knuth's format to stdout instead (queensN,
                queensN-organ-pipe, langfordN, dominoN (N x N domino tilings),
                sudoku-many, random-secondary: a random problem with secondary
                items), to feed the dlx command
  -h, --help    print this help
";

/// What the command line asks for.
#[derive(Debug)]
enum Run {
    Help,
    Print(String),
    Bench { passes: usize, quick: bool },
}

/// Parse the arguments (`--flag VALUE` or `--flag=VALUE`).
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Run, String> {
    let mut passes = 3;
    let mut quick = false;
    let mut print = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Run::Help),
            "--quick" if inline.is_none() => quick = true,
            "--passes" => {
                let v = value("--passes")?;
                passes = match v.parse() {
                    Ok(n) if n > 0 => n,
                    _ => return Err(format!("--passes takes a positive number, got '{v}'")),
                };
            }
            "--print" => print = Some(value("--print")?),
            _ => return Err(format!("unexpected argument '{arg}'")),
        }
    }
    Ok(match print {
        Some(name) => Run::Print(name),
        None => Run::Bench { passes, quick },
    })
}

fn main() {
    let (passes, quick) = match parse_args(std::env::args().skip(1)) {
        Ok(Run::Help) => {
            print!("{USAGE}");
            return;
        }
        Ok(Run::Print(name)) => {
            print_instance(&name);
            return;
        }
        Ok(Run::Bench { passes, quick }) => (passes, quick),
        Err(e) => {
            eprintln!("xc: {e}\nRun 'xc --help' for usage.");
            std::process::exit(2);
        }
    };
    let pent = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/xc/pent6x10.dlx"
    ))
    .expect("testdata/xc/pent6x10.dlx");
    let mut cases: Vec<(String, String, u64)> = vec![
        ("14-queens".into(), queens(14), 365_596),
        (
            "14-queens, organ-pipe order".into(),
            queens_organ_pipe(14),
            365_596,
        ),
        ("Langford n=12".into(), langford(12), 216_288),
        (
            "random, secondary items".into(),
            random_secondary(30, 12, 230, 1),
            344_665,
        ),
        ("pentominoes 6x10".into(), pent, 9_356),
        (
            "Sudoku XCC, 1.68M solutions".into(),
            sudoku_xcc(MANY_SUDOKU),
            1_677_910,
        ),
        ("15-queens".into(), queens(15), 2_279_184),
        (
            "15-queens, organ-pipe order".into(),
            queens_organ_pipe(15),
            2_279_184,
        ),
    ];
    if quick {
        cases = vec![
            ("12-queens".into(), queens(12), 14_200),
            ("Langford n=11".into(), langford(11), 35_584),
        ];
    }
    println!(
        "| instance | solutions | ours 1 thread | ours 2 threads | ours, cells | cells 2 threads | ours, bits | dlx 0.8.5 | dlx / ours (1 thread) | 1 thread / 2 threads | links / cells | cells 1 / 2 threads | cells / bits |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, text, want) in cases {
        let problem = parse(&text).expect("instance parses").problem;
        let (t1, r1) = time(passes, || {
            Dlx::with_config(&problem, Config::default()).count(&Limits::none())
        });
        let (t2, r2) = time(passes, || {
            count_parallel(&problem, Config::default(), &Limits::none(), 2)
        });
        let (tc, rc) = time(passes, || {
            Cells::with_config(&problem, Config::default())
                .expect("no multiplicities in the instances")
                .count(&Limits::none())
        });
        let (tc2, rc2) = time(passes, || {
            Cells::with_config(&problem, Config::default())
                .expect("no multiplicities in the instances")
                .count_parallel(&Limits::none(), 2)
        });
        // the bit-parallel engine takes problems of up to 4,096 options
        let bits = Bits::new(&problem).ok().map(|_| {
            time(passes, || {
                Bits::new(&problem).map(|mut b| b.count(&Limits::none()))
            })
        });
        let (tp, np) = time(passes, || peer_count(&text));
        if let Some((_, Ok(rb))) = &bits
            && rb.stats.solutions != want
        {
            eprintln!(
                "{name}: ours, bits counted {}, expected {want}",
                rb.stats.solutions
            );
            std::process::exit(1);
        }
        let tb = bits.as_ref().map(|(t, _)| t.as_secs_f64());
        let bits_time = tb.map_or_else(|| "n/a".to_string(), |t| format!("{t:.3} s"));
        let cells_over_bits = tb.map_or_else(
            || "n/a".to_string(),
            |t| format!("{:.2}", tc.as_secs_f64() / t),
        );
        for (who, got) in [
            ("ours", r1.stats.solutions),
            ("ours x2", r2.stats.solutions),
            ("ours, cells", rc.stats.solutions),
            ("ours, cells x2", rc2.stats.solutions),
            ("dlx", np),
        ] {
            if got != want {
                eprintln!("{name}: {who} counted {got}, expected {want}");
                std::process::exit(1);
            }
        }
        println!(
            "| {name} | {want} | {:.3} s | {:.3} s | {:.3} s | {:.3} s | {bits_time} | {:.3} s | {:.2} | {:.2} | {:.2} | {:.2} | {cells_over_bits} |",
            t1.as_secs_f64(),
            t2.as_secs_f64(),
            tc.as_secs_f64(),
            tc2.as_secs_f64(),
            tp.as_secs_f64(),
            tp.as_secs_f64() / t1.as_secs_f64(),
            t1.as_secs_f64() / t2.as_secs_f64(),
            t1.as_secs_f64() / tc.as_secs_f64(),
            tc.as_secs_f64() / tc2.as_secs_f64(),
        );
    }
}
