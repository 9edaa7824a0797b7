//! Knuth's DLX text format, as read by his DLX1, DLX2 and DLX3 programs.
//!
//! - Lines whose first non-blank character is `|` are comments; blank lines
//!   are skipped.
//! - The first other line lists the items: primary items, then a lone `|`,
//!   then secondary items. A primary item written `u:v|name` must be covered
//!   between `u` and `v` times, `v|name` exactly `v` times (DLX3).
//! - Every later line is one option: the names of its items, `item:colour`
//!   for a secondary item with a colour (DLX2).
//! - An option with no primary item can never be chosen; it is dropped with a
//!   warning, as Knuth's programs do.
//!
//! Names and colours may be longer than Knuth's programs allow (8 characters).

use std::collections::HashMap;
use std::fmt;

use crate::problem::{BuildError, ColourId, ItemId, Problem, ProblemBuilder};

/// A parse error: where (1-based line and column, in characters) and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ParseError {
    /// The input line, from 1. Errors found only when the whole problem is
    /// validated (a duplicate item, no primary item) point at line 1.
    pub line: usize,
    /// The column of the offending token, from 1, counted in characters (not
    /// bytes); 1 when the error is about a whole line.
    pub column: usize,
    /// What is wrong, as a sentence fragment for the user ("unknown item 'Q'").
    pub message: String,
}

/// Something accepted but worth telling the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The input line it is about, from 1.
    pub line: usize,
    /// What was accepted and how ("option has no primary item; ignored").
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// A parsed problem, with each option's source text and line, and warnings.
///
/// The three per-option vectors are parallel: option `k` of `problem` is
/// `option_texts[k]`, written on line `option_lines[k]`. Dropped options
/// (see [`Warning`]) are in none of them, so `k` counts kept options only.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The validated problem, ready for [`Dlx`](crate::Dlx) or
    /// [`Cells`](crate::Cells).
    pub problem: Problem,
    /// Option `k` as written in the input (trimmed): `&option_texts[k]`.
    pub option_texts: OptionTexts,
    /// The input line (1-based) of option `k`.
    pub option_lines: Vec<usize>,
    /// Things accepted but worth reporting (options dropped because they have
    /// no primary item), in input order.
    pub warnings: Vec<Warning>,
}

/// The options' source texts: one string of lines and where each text
/// starts in it. Text `k` runs from its start to the end of its line,
/// trailing white space left out. [`parse_owned`] keeps the input text
/// itself this way (the options are not copied, and the input's other lines
/// cost nothing more); [`push`](Self::push) appends a line.
///
/// ```
/// use exact_cover::format::OptionTexts;
/// let mut texts = OptionTexts::new();
/// texts.push("A B");
/// texts.push("C x:red");
/// assert_eq!(&texts[1], "C x:red");
/// assert_eq!(texts.len(), 2);
/// assert_eq!(texts.iter().collect::<Vec<_>>(), ["A B", "C x:red"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionTexts {
    /// Lines of text (the input, or the pushed texts each ended by `\n`).
    text: String,
    /// Where text `k` starts in `text`.
    starts: Vec<usize>,
}

impl OptionTexts {
    /// No texts.
    pub fn new() -> OptionTexts {
        OptionTexts::default()
    }

    /// Append a text; it gets the next index. A text is one line: a line
    /// break in `text` would end it early, so it is taken as a space.
    pub fn push(&mut self, text: &str) {
        self.starts.push(self.text.len());
        if text.contains(['\n', '\r']) {
            self.text.push_str(&text.replace(['\n', '\r'], " "));
        } else {
            self.text.push_str(text);
        }
        self.text.push('\n');
    }

    /// Texts that are lines of `text`, starting at `starts` (each at the
    /// start of an option's first token).
    pub(crate) fn shared(text: String, starts: Vec<usize>) -> OptionTexts {
        OptionTexts { text, starts }
    }

    /// Number of texts.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Text `k`, if there is one.
    pub fn get(&self, k: usize) -> Option<&str> {
        let start = *self.starts.get(k)?;
        let rest = &self.text[start..];
        let line = rest.find('\n').map_or(rest, |end| &rest[..end]);
        Some(line.trim_end())
    }

    /// The texts in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|k| &self[k])
    }

    /// Bytes held (the text and the starts).
    pub fn bytes(&self) -> usize {
        self.text.capacity() + self.starts.capacity() * std::mem::size_of::<usize>()
    }
}

impl std::ops::Index<usize> for OptionTexts {
    type Output = str;

    /// Text `k`; panics when there is no text `k` (see [`get`](OptionTexts::get)).
    fn index(&self, k: usize) -> &str {
        match self.get(k) {
            Some(t) => t,
            None => panic!("option text {k} out of range ({} texts)", self.len()),
        }
    }
}

impl<S: AsRef<str>> FromIterator<S> for OptionTexts {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> OptionTexts {
        let mut texts = OptionTexts::new();
        for t in iter {
            texts.push(t.as_ref());
        }
        texts
    }
}

/// Parse a problem from text in the format described in the [module
/// docs](self).
///
/// ```
/// let text = "| two items, one secondary\nA B | x\nA x:red\nB x:red\nA B\n";
/// let parsed = exact_cover::format::parse(text)?;
/// assert_eq!(parsed.problem.option_count(), 3);
/// assert_eq!(parsed.option_lines, [3, 4, 5]);
/// assert_eq!(&parsed.option_texts[0], "A x:red");
/// # Ok::<(), exact_cover::format::ParseError>(())
/// ```
pub fn parse(text: &str) -> Result<Parsed, ParseError> {
    parse_owned(text.to_string())
}

/// [`parse`], keeping `text` as the options' source texts
/// ([`Parsed::option_texts`]) instead of copying each option's line out
/// of it: less memory at the peak of loading a big file.
///
/// ```
/// let parsed = exact_cover::format::parse_owned("A B\n  A B \nB\n".to_string())?;
/// assert_eq!(&parsed.option_texts[0], "A B");
/// # Ok::<(), exact_cover::format::ParseError>(())
/// ```
pub fn parse_owned(text: String) -> Result<Parsed, ParseError> {
    let mut b = ProblemBuilder::new();
    let mut sink = ToBuilder(Vec::new());
    let read = read(&text, &mut b, &mut sink)?;
    let problem = b.build().map_err(build_error)?;
    Ok(Parsed {
        problem,
        option_texts: OptionTexts::shared(text, read.starts),
        option_lines: read.lines,
        warnings: read.warnings,
    })
}

/// The error of an input with no items line, reported at `line` (the
/// input's last line).
pub(crate) fn no_items_line(line: usize) -> ParseError {
    ParseError {
        line,
        column: 1,
        message: "expected a line of item names, found none".to_string(),
    }
}

/// The builder's error, as a parse error (about the whole problem: line 1).
pub(crate) fn build_error(e: BuildError) -> ParseError {
    ParseError {
        line: 1,
        column: 1,
        message: match e {
            BuildError::NoPrimaryItems => {
                "the items line has no primary item (before '|')".to_string()
            }
            other => other.to_string(),
        },
    }
}

/// A problem parsed straight into a solver's own arrays, with each
/// option's source text and line, and warnings (as in [`Parsed`], without
/// a [`Problem`] beside the solver: see [`Dlx::parse`](crate::Dlx::parse) and
/// [`Cells::parse`](crate::Cells::parse)).
#[derive(Clone, Debug)]
pub struct Loaded<E> {
    /// The solver, loaded with the problem.
    pub engine: E,
    /// Option `k` as written in the input (trimmed): `&option_texts[k]`.
    pub option_texts: OptionTexts,
    /// The input line (1-based) of option `k`.
    pub option_lines: Vec<usize>,
    /// As [`Parsed::warnings`].
    pub warnings: Vec<Warning>,
}

/// Where [`read`] puts what it reads. An `Err` is a message about the
/// line just read (the items line, or the option).
pub(crate) trait Sink {
    /// The items line was read: the items are declared in `b`.
    fn items(&mut self, b: &ProblemBuilder) -> Result<(), String>;
    /// An option to keep (its items valid, in range, not repeated; the
    /// colours as written, not yet interned).
    fn option(
        &mut self,
        b: &mut ProblemBuilder,
        entries: &[(ItemId, Option<&str>)],
    ) -> Result<(), String>;
}

/// The sink of [`parse`]: the options go to the builder.
struct ToBuilder(Vec<(ItemId, Option<ColourId>)>);

impl Sink for ToBuilder {
    fn items(&mut self, _: &ProblemBuilder) -> Result<(), String> {
        Ok(())
    }

    fn option(
        &mut self,
        b: &mut ProblemBuilder,
        entries: &[(ItemId, Option<&str>)],
    ) -> Result<(), String> {
        // colours are interned only for options that are kept
        self.0.clear();
        self.0
            .extend(entries.iter().map(|&(id, c)| (id, c.map(|c| b.colour(c)))));
        b.option(self.0.drain(..));
        Ok(())
    }
}

/// What [`read`] returns besides what it gave the sink: where each kept
/// option starts in the text, its line, and the warnings.
pub(crate) struct Read {
    pub starts: Vec<usize>,
    pub lines: Vec<usize>,
    pub warnings: Vec<Warning>,
}

/// Read `text`: the items are declared in `b`, the options given to `sink`.
pub(crate) fn read<S: Sink>(
    text: &str,
    b: &mut ProblemBuilder,
    sink: &mut S,
) -> Result<Read, ParseError> {
    let mut reader = LineReader::new(true);
    let mut option_starts = Vec::new();
    let mut entries: Vec<(ItemId, Option<&str>)> = Vec::new();
    for raw in text.lines() {
        if let Some(trimmed) = reader.line(raw, &mut entries, b, sink)? {
            option_starts.push(trimmed.as_ptr() as usize - text.as_ptr() as usize);
        }
    }
    let (lines, warnings) = reader.finish()?;
    Ok(Read {
        starts: option_starts,
        lines,
        warnings,
    })
}

/// Load an engine from `text`: [`read`] into a new builder and `sink`,
/// then `build` the engine from them; the options' texts are kept as
/// slices of `text`.
pub(crate) fn load<S: Sink, E>(
    text: String,
    mut sink: S,
    build: impl FnOnce(ProblemBuilder, S) -> Result<E, ParseError>,
) -> Result<Loaded<E>, ParseError> {
    let mut b = ProblemBuilder::new();
    let read = read(&text, &mut b, &mut sink)?;
    Ok(Loaded {
        engine: build(b, sink)?,
        option_texts: OptionTexts::shared(text, read.starts),
        option_lines: read.lines,
        warnings: read.warnings,
    })
}

/// [`load`] from a byte stream: [`read_stream`] (the options' texts and
/// lines kept only with `keep_texts`), then `build`.
pub(crate) fn load_stream<S: Sink, E>(
    input: impl std::io::Read,
    keep_texts: bool,
    block: usize,
    mut sink: S,
    build: impl FnOnce(ProblemBuilder, S) -> Result<E, ParseError>,
) -> Result<Loaded<E>, ParseError> {
    let mut b = ProblemBuilder::new();
    let read = read_stream(input, keep_texts, block, &mut b, &mut sink)?;
    Ok(Loaded {
        engine: build(b, sink)?,
        option_texts: read.texts,
        option_lines: read.lines,
        warnings: read.warnings,
    })
}

/// What [`read_stream`] returns besides what it gave the sink.
pub(crate) struct StreamRead {
    pub texts: OptionTexts,
    pub lines: Vec<usize>,
    pub warnings: Vec<Warning>,
}

/// Bytes [`read_stream`] asks for at a time (whole lines are parsed; a
/// longer line grows the buffer to hold it).
pub(crate) const STREAM_BLOCK: usize = 1 << 20;

/// [`read`] from a byte stream, `block` bytes of whole lines at a time, so that
/// the input's text is never held whole: the same lines, errors and
/// warnings as [`read`] on the whole text; each kept option's text
/// (copied) and line only with `keep_texts`. A byte sequence that is not
/// UTF-8 is an error at its line and column; so is a read error, at the
/// line being read.
pub(crate) fn read_stream<S: Sink>(
    mut input: impl std::io::Read,
    keep_texts: bool,
    block: usize,
    b: &mut ProblemBuilder,
    sink: &mut S,
) -> Result<StreamRead, ParseError> {
    let block = block.max(1);
    let mut reader = LineReader::new(keep_texts);
    let mut texts = OptionTexts::new();
    let mut buf: Vec<u8> = Vec::with_capacity(block);
    let mut at_end = false;
    while !at_end {
        // fill the buffer up to a block, at least to one line end
        let have = buf.len();
        let want = (have + block).max(buf.capacity());
        buf.resize(want, 0);
        let mut filled = have;
        while filled < buf.len() {
            match input.read(&mut buf[filled..]) {
                Ok(0) => {
                    at_end = true;
                    break;
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(ParseError {
                        line: reader.line_no + 1,
                        column: 1,
                        message: format!("cannot read the input: {e}"),
                    });
                }
            }
        }
        buf.truncate(filled);
        // the whole lines read (all of it at the end)
        let end = if at_end {
            buf.len()
        } else {
            match buf.iter().rposition(|&c| c == b'\n') {
                Some(k) => k + 1,
                None => continue, // a line longer than the buffer: read on
            }
        };
        let block = std::str::from_utf8(&buf[..end]).map_err(|e| {
            let valid = std::str::from_utf8(&buf[..e.valid_up_to()]).expect("valid up to here");
            let line_start = valid.rfind('\n').map_or(0, |k| k + 1);
            ParseError {
                line: reader.line_no + valid.matches('\n').count() + 1,
                column: valid[line_start..].chars().count() + 1,
                message: format!("not valid UTF-8 (byte 0x{:02X})", buf[e.valid_up_to()]),
            }
        })?;
        let mut entries: Vec<(ItemId, Option<&str>)> = Vec::new();
        for raw in block.lines() {
            if let Some(trimmed) = reader.line(raw, &mut entries, b, sink)? {
                if keep_texts {
                    texts.push(trimmed);
                }
            }
        }
        buf.drain(..end);
    }
    let (lines, warnings) = reader.finish()?;
    Ok(StreamRead {
        texts,
        lines,
        warnings,
    })
}

/// The reading of the format one line at a time: the items line first,
/// then the options.
struct LineReader {
    /// The items by name: id, and whether secondary.
    items: HashMap<Box<str>, (ItemId, bool)>,
    have_items: bool,
    /// Per item, the line (from 1) of the last option that listed it: a
    /// repeated item is found in constant time, so any option parses in
    /// linear time.
    seen: Vec<usize>,
    /// Lines read so far.
    line_no: usize,
    /// Whether to keep each kept option's line.
    keep_lines: bool,
    lines: Vec<usize>,
    warnings: Vec<Warning>,
}

impl LineReader {
    fn new(keep_lines: bool) -> LineReader {
        LineReader {
            items: HashMap::new(),
            have_items: false,
            seen: Vec::new(),
            line_no: 0,
            keep_lines,
            lines: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The next line (without its line end): its option, if it is one and
    /// is kept, goes to `sink`, and its trimmed text is returned.
    /// `entries` is scratch space.
    fn line<'l, S: Sink>(
        &mut self,
        raw: &'l str,
        entries: &mut Vec<(ItemId, Option<&'l str>)>,
        b: &mut ProblemBuilder,
        sink: &mut S,
    ) -> Result<Option<&'l str>, ParseError> {
        self.line_no += 1;
        let line_no = self.line_no;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('|') && self.have_items {
            return Ok(None);
        }
        if !self.have_items {
            if trimmed.starts_with('|') {
                return Ok(None);
            }
            parse_items(line, line_no, b, &mut self.items)?;
            sink.items(b).map_err(|message| ParseError {
                line: line_no,
                column: 1,
                message,
            })?;
            self.seen = vec![0; self.items.len()];
            self.have_items = true;
            return Ok(None);
        }
        entries.clear();
        let mut any_primary = false;
        for (col, tok) in tokens(line) {
            let err = |message: String| ParseError {
                line: line_no,
                column: col,
                message,
            };
            let (name, colour) = match tok.split_once(':') {
                Some((n, c)) => (n, Some(c)),
                None => (tok, None),
            };
            let Some(&(id, secondary)) = self.items.get(name) else {
                return Err(err(if name.is_empty() {
                    "expected an item name before ':'".to_string()
                } else {
                    format!("unknown item '{name}' (not on the items line)")
                }));
            };
            if self.seen[id.0 as usize] == line_no {
                return Err(err(format!("item '{name}' appears twice in this option")));
            }
            self.seen[id.0 as usize] = line_no;
            let colour = match colour {
                None => None,
                Some("") => return Err(err(format!("expected a colour after '{name}:'"))),
                Some(c) if !secondary => {
                    let _ = c;
                    return Err(err(format!(
                        "primary item '{name}' cannot have a colour (only secondary items, after '|', can)"
                    )));
                }
                Some(c) if c.contains(':') => {
                    return Err(err(format!(
                        "'{tok}': expected item:colour with a single ':'"
                    )));
                }
                Some(c) => Some(c),
            };
            any_primary |= !secondary;
            entries.push((id, colour));
        }
        if !any_primary {
            self.warnings.push(Warning {
                line: line_no,
                message: "option has no primary item; ignored".to_string(),
            });
            return Ok(None);
        }
        sink.option(b, entries).map_err(|message| ParseError {
            line: line_no,
            column: 1,
            message,
        })?;
        if self.keep_lines {
            self.lines.push(line_no);
        }
        Ok(Some(trimmed))
    }

    /// The end of the input: the kept options' lines and the warnings, or
    /// the error of an input with no items line.
    fn finish(self) -> Result<(Vec<usize>, Vec<Warning>), ParseError> {
        if !self.have_items {
            return Err(no_items_line(self.line_no.max(1)));
        }
        Ok((self.lines, self.warnings))
    }
}

/// Whitespace-separated tokens with their 1-based character column.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut col = 0usize;
    let mut rest = line;
    std::iter::from_fn(move || {
        loop {
            let c = rest.chars().next()?;
            if c.is_whitespace() {
                rest = &rest[c.len_utf8()..];
                col += 1;
            } else {
                break;
            }
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let tok = &rest[..end];
        let start = col + 1;
        col += tok.chars().count();
        rest = &rest[end..];
        Some((start, tok))
    })
}

fn parse_items(
    line: &str,
    line_no: usize,
    b: &mut ProblemBuilder,
    items: &mut HashMap<Box<str>, (ItemId, bool)>,
) -> Result<(), ParseError> {
    let mut secondary = false;
    for (col, tok) in tokens(line) {
        let err = |message: String| ParseError {
            line: line_no,
            column: col,
            message,
        };
        if tok == "|" {
            if secondary {
                return Err(err("a second '|' on the items line".to_string()));
            }
            secondary = true;
            continue;
        }
        let (bounds, name) = match tok.rsplit_once('|') {
            Some((bounds, name)) => (Some(bounds), name),
            None => (None, tok),
        };
        if name.is_empty() {
            return Err(err(format!("expected an item name after '{tok}'")));
        }
        if name.contains(':') {
            return Err(err(format!("item name '{name}' cannot contain ':'")));
        }
        if items.contains_key(name) {
            return Err(err(format!("item '{name}' is declared twice")));
        }
        let id = match bounds {
            None if secondary => b.secondary(name),
            None => b.primary(name),
            Some(_) if secondary => {
                return Err(err(format!(
                    "secondary item '{name}' cannot have a multiplicity"
                )));
            }
            Some(bounds) => {
                let num = |s: &str| -> Result<u32, ParseError> {
                    s.parse::<u32>().map_err(|_| {
                        err(format!(
                            "'{tok}': expected a multiplicity 'v|name' or 'u:v|name' with whole numbers"
                        ))
                    })
                };
                let (lo, hi) = match bounds.split_once(':') {
                    Some((u, v)) => (num(u)?, num(v)?),
                    None => {
                        let v = num(bounds)?;
                        (v, v)
                    }
                };
                if lo > hi || hi == 0 {
                    return Err(err(format!(
                        "'{tok}': bounds {lo}..{hi} are empty (need u <= v and v >= 1)"
                    )));
                }
                b.primary_with_bounds(name, lo, hi)
            }
        };
        items.insert(name.into(), (id, secondary));
    }
    if !items.values().any(|&(_, s)| !s) {
        return Err(ParseError {
            line: line_no,
            column: 1,
            message: "the items line has no primary item (before '|')".to_string(),
        });
    }
    Ok(())
}

/// Write a problem in the text format (used by `Problem`'s `Display`).
pub fn write_problem(p: &Problem, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let mut first = true;
    let mut sep = |f: &mut fmt::Formatter<'_>| -> fmt::Result {
        if !std::mem::take(&mut first) {
            f.write_str(" ")?;
        }
        Ok(())
    };
    for (k, it) in p.items().iter().enumerate() {
        if it.is_secondary() {
            continue;
        }
        sep(f)?;
        match it.bounds() {
            (1, 1) => {}
            (lo, hi) if lo == hi => write!(f, "{hi}|")?,
            (lo, hi) => write!(f, "{lo}:{hi}|")?,
        }
        f.write_str(&p.item_name(k as u32))?;
    }
    if p.items().iter().any(|i| i.is_secondary()) {
        sep(f)?;
        f.write_str("|")?;
        for (k, it) in p.items().iter().enumerate() {
            if it.is_secondary() {
                sep(f)?;
                f.write_str(&p.item_name(k as u32))?;
            }
        }
    }
    writeln!(f)?;
    for k in 0..p.option_count() {
        writeln!(f, "{}", p.option_text(k))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 18: an option was checked for repeated items against the
    /// whole option so far (quadratic: 80,000 items took seconds, 1.2M did
    /// not finish). Now linear: a 100,000-item option parses at once, and a
    /// repeat at its end is still found, with its column.
    #[test]
    fn long_options_parse_in_linear_time() {
        let n = 100_000;
        let names: Vec<String> = (0..n).map(|k| format!("i{k}")).collect();
        let line = names.join(" ");
        let text = format!("{line}\n{line}\n");
        let parsed = parse(&text).expect("parses");
        assert_eq!(parsed.problem.option_count(), 1);
        assert_eq!(parsed.problem.option(0).len(), n);

        let bad = format!("{line}\n{line} i17\n");
        let err = parse(&bad).unwrap_err();
        assert_eq!((err.line, err.column), (2, line.chars().count() + 2));
        assert!(
            err.message.contains("'i17' appears twice"),
            "{}",
            err.message
        );
    }

    /// The options' texts are the input's own lines, trimmed, kept
    /// without a copy; a pushed text is one line.
    #[test]
    fn option_texts_are_lines_of_the_input() {
        let text = "| items\nA B | x\n  A x:1  \r\n| a comment\n\nB\tx\r\nA B";
        let parsed = parse_owned(text.to_string()).unwrap();
        let texts: Vec<&str> = parsed.option_texts.iter().collect();
        assert_eq!(texts, ["A x:1", "B\tx", "A B"]);
        assert_eq!(parsed.option_lines, [3, 6, 7]);
        assert_eq!(parse(text).unwrap().option_texts, parsed.option_texts);
        assert_eq!(parsed.option_texts.get(3), None);

        let mut pushed = OptionTexts::new();
        pushed.push("A\nB");
        pushed.push("");
        pushed.push("C");
        assert_eq!(pushed.iter().collect::<Vec<_>>(), ["A B", "", "C"]);
    }

    /// The per-item marks of one option do not leak into the next one, nor
    /// into a problem built after the first.
    #[test]
    fn repeated_items_are_per_option() {
        let p = parse("A B C\nA B\nB A\nC\nA B C\n")
            .expect("parses")
            .problem;
        assert_eq!(p.option_count(), 4);
        let err = parse("A B C\nA B\nC B C\n").unwrap_err();
        assert_eq!((err.line, err.column), (3, 5));

        let mut b = ProblemBuilder::with_items(3, 0);
        b.option_ids(&[0, 1]).option_ids(&[1, 0]);
        assert!(b.build().is_ok());
        b.reset_items(3, 0);
        b.option_ids(&[0, 1]).option_ids(&[2]);
        assert!(b.build().is_ok());
        b.reset_items(3, 0);
        b.option_ids(&[0]).option_ids(&[2, 1, 2]);
        assert!(matches!(
            b.build(),
            Err(BuildError::RepeatedItem { option: 1, .. })
        ));
    }
}
