//! Double word squares as exact cover with colours (Knuth's XCC).
//!
//! A 3×3 grid must read a word along each row and down each column. The
//! primary items are the six lines (`r0 r1 r2 c0 c1 c2`); each cell is a
//! secondary item whose colour is its letter. An option puts one word on one
//! line and colours that line's three cells; two options that cross must
//! agree on the shared cell's colour, which is exactly the XCC rule.
//!
//! `cargo run -p exact-cover --release --example word_squares [WORD...]`
//! (three-letter words; a small built-in list when none are given)

use std::ops::ControlFlow;

use exact_cover::{Dlx, Limits, ProblemBuilder};

const WORDS: &[&str] = &[
    "ace", "act", "add", "age", "ago", "aid", "aim", "air", "ale", "all", "and", "ant", "ape",
    "arc", "are", "arm", "art", "ash", "ate", "awe", "bad", "bag", "bar", "bat", "bed", "bee",
    "bet", "bid", "big", "bit", "boa", "bog", "bud", "bus", "cab", "can", "cap", "car", "cat",
    "cod", "cot", "cow", "cub", "cue", "dab", "den", "dew", "did", "die", "dig", "dim", "doe",
    "dog", "dot", "dry", "due", "ear", "eat", "ebb", "eel", "egg", "ego", "elf", "elk", "emu",
    "end", "era", "eve", "ewe", "eye", "ice", "ink", "ire", "net", "new", "nod", "not", "now",
    "oak", "oar", "oat", "odd", "ode", "old", "one", "ore", "owe", "owl", "own", "rat", "raw",
    "red", "rid", "rod", "rot", "row", "rub", "rue", "rye", "sea", "see", "set", "sew", "tab",
    "tar", "tea", "tee", "ten", "toe", "ton", "too", "tow", "tub", "two", "use", "wet", "woe",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = if args.is_empty() {
        WORDS.to_vec()
    } else {
        args.iter().map(String::as_str).collect()
    };
    if let Some(bad) = words
        .iter()
        .find(|w| w.chars().count() != 3 || w.contains([':', '|', ' ']))
    {
        eprintln!("word_squares: {bad:?} is not a three-letter word");
        std::process::exit(2);
    }

    let mut b = ProblemBuilder::new();
    for line in ["r0", "r1", "r2", "c0", "c1", "c2"] {
        b.primary(line);
    }
    for r in 0..3 {
        for c in 0..3 {
            b.secondary(&format!("x{r}{c}"));
        }
    }
    // option k is (line, word); remember them to print the squares
    let mut meaning = Vec::new();
    for w in &words {
        let letters: Vec<char> = w.chars().collect();
        for k in 0..3 {
            let row = (0..3).map(|c| format!("x{k}{c}:{}", letters[c]));
            b.option_named(std::iter::once(format!("r{k}")).chain(row));
            meaning.push((true, k, *w));
            let col = (0..3).map(|r| format!("x{r}{k}:{}", letters[r]));
            b.option_named(std::iter::once(format!("c{k}")).chain(col));
            meaning.push((false, k, *w));
        }
    }
    let problem = match b.build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("word_squares: {e}");
            std::process::exit(2);
        }
    };

    let mut dlx = Dlx::new(&problem);
    let mut shown = 0;
    let report = dlx.search(&Limits::none(), |solution| {
        if shown < 3 {
            let mut rows = [""; 3];
            for &k in solution {
                let (is_row, line, word) = meaning[k];
                if is_row {
                    rows[line] = word;
                }
            }
            println!("{}\n{}\n{}\n", rows[0], rows[1], rows[2]);
            shown += 1;
        }
        ControlFlow::Continue(())
    });
    println!(
        "{} word squares from {} words ({} search nodes)",
        report.stats.solutions,
        words.len(),
        report.stats.nodes
    );
}
