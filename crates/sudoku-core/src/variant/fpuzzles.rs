//! The f-puzzles format: the JSON the f-puzzles editor saves, and the
//! compressed form its links carry (`https://www.f-puzzles.com/?load=N4Ig…`).
//!
//! A puzzle is one JSON object: `size` (the side), `grid` (rows of cells,
//! each with an optional `value`, `given`, `givenPencilMarks` and `region`),
//! and one key per kind of constraint. A link's `load=` parameter is that
//! JSON compressed with lz-string's base64 form (pieroxy's lz-string, the
//! algorithm f-puzzles uses; decoded here by the `lz-str` crate); the payload
//! alone (`N4Ig…`) and SudokuPad's `fpuz` prefix are read too.
//!
//! How the keys are read (each becomes the constraint of the same rule in
//! the ISS vocabulary, checked by the same parsers):
//!
//! | f-puzzles key | becomes |
//! |---|---|
//! | `grid[r][c].value` | a given (every digit in the grid, as f-puzzles shows it) |
//! | `grid[r][c].givenPencilMarks` | the cell's candidates |
//! | `grid[r][c].region` | a jigsaw layout, when it differs from the boxes (`-1` or absent: the box) |
//! | `diagonal+`, `diagonal-` | the diagonals ╱ and ╲ |
//! | `antiknight`, `antiking`, `disjointgroups` | the same rules |
//! | `nonconsecutive` | no consecutive neighbours; with white dots, every white dot is given |
//! | `killercage` (`value` optional) | a cage |
//! | `extraregion` | a cage without a sum (every digit once when it has n cells) |
//! | `littlekillersum` (`cell` outside the grid, `direction` DR/DL/UR/UL) | a little killer (a sum along the diagonal) |
//! | `sandwichsum` (`cell` R0Cc or RrC0) | a sandwich clue |
//! | `thermometer`, `palindrome`, `renban`, `whispers`, `betweenline`, `regionsumline` (each with `lines`) | one constraint per line |
//! | `arrow` (`cells` the circle, `lines` starting at the circle) | one arrow per line |
//! | `difference` (white dot, difference 1), `ratio` (black dot, ratio 2) | kropki dots |
//! | `xv` (`value` X or V) | XV |
//! | `negative`: `xv` | every X and V is given |
//! | `negative`: `ratio`, with `nonconsecutive` | every kropki dot is given |
//! | `odd`, `even` | parity cells |
//! | `quadruple` | a quadruple |
//!
//! Cosmetic keys (`title`, `author`, `ruleset`, `solution`, `text`, `line`,
//! `cage`, `circle`, `rectangle`, …) are skipped. A key for a rule this
//! reader does not know (`clone`, `minimum`, …), a dot of another
//! difference or ratio, or a negative rule on one colour of dots only, is an
//! error naming the key: the puzzle would otherwise be solved without a rule
//! it has. Errors name the place in the JSON (`killercage[2].cells[1]`).

use serde_json::{Map, Value};

use super::{CellName, Constraint, Puzzle, Shape, VariantError};
use super::{iss, little_killer};

/// Keys that draw without adding a rule.
const COSMETIC: &[&str] = &[
    "size",
    "grid",
    "title",
    "author",
    "ruleset",
    "solution",
    "text",
    "line",
    "cage",
    "circle",
    "rectangle",
    "disabledlogic",
    "truecandidatesoptions",
    "highlightConflicts",
    "version",
];

/// The keys of rules this reader knows (besides the cosmetic ones).
const RULES: &[&str] = &[
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "disjointgroups",
    "nonconsecutive",
    "negative",
    "killercage",
    "extraregion",
    "littlekillersum",
    "sandwichsum",
    "thermometer",
    "palindrome",
    "renban",
    "whispers",
    "betweenline",
    "regionsumline",
    "regionSumLine",
    "arrow",
    "difference",
    "ratio",
    "xv",
    "odd",
    "even",
    "quadruple",
];

/// Whether a text looks like f-puzzles input: a JSON object, an f-puzzles
/// link, or a compressed payload.
pub fn is_fpuzzles(text: &str) -> bool {
    let t = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    t.starts_with('{') || payload(t).is_some()
}

/// The compressed payload of a link, or of a bare payload.
fn payload(text: &str) -> Option<&str> {
    let t = text.trim();
    let t = match (t.find("load="), t.find("fpuzN4Ig")) {
        (Some(k), _) => &t[k + 5..],
        (None, Some(k)) => &t[k + 4..],
        (None, None) => t,
    };
    let t = t.split(['&', '#']).next().unwrap_or(t);
    // `{"` compresses to `N4Ig` (every f-puzzles JSON starts with it).
    let ok = t.starts_with("N4Ig")
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=%$-_ ".contains(&b));
    ok.then_some(t)
}

/// Read f-puzzles input: a JSON object, or a link or payload (see the
/// module docs).
pub fn parse(text: &str) -> Result<Puzzle, VariantError> {
    let t = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if t.starts_with('{') {
        return parse_json(t);
    }
    parse_link(t)
}

/// Read a link (`https://www.f-puzzles.com/?load=N4Ig…`), SudokuPad's
/// `fpuzN4Ig…`, or the bare payload.
pub fn parse_link(text: &str) -> Result<Puzzle, VariantError> {
    let Some(p) = payload(text) else {
        return Err(token_error(
            text,
            "not an f-puzzles link: expected ...?load=N4Ig... or the N4Ig... payload".into(),
        ));
    };
    // Links pass through forms and mail: undo the usual damage.
    let p = p
        .replace("%2B", "+")
        .replace("%2F", "/")
        .replace("%3D", "=")
        .replace(' ', "+");
    let json = lz_str::decompress_from_base64(&p)
        .and_then(|units| String::from_utf16(&units).ok())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            token_error(
                text,
                "the f-puzzles payload does not decompress (cut short or mistyped?)".into(),
            )
        })?;
    parse_json(&json).map_err(|e| match e {
        VariantError::Token {
            column, message, ..
        } => VariantError::Field {
            path: "(compressed data)".into(),
            message: format!("column {column} of the decompressed JSON: {message}"),
        },
        other => other,
    })
}

fn token_error(text: &str, message: String) -> VariantError {
    VariantError::Token {
        column: 1,
        token: text.chars().take(40).collect(),
        message,
    }
}

fn field(path: impl Into<String>, message: impl Into<String>) -> VariantError {
    VariantError::Field {
        path: path.into(),
        message: message.into(),
    }
}

/// Read an f-puzzles JSON object.
pub fn parse_json(text: &str) -> Result<Puzzle, VariantError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let column = if e.line() <= 1 {
            e.column()
        } else {
            // Pretty-printed JSON: count the characters before the place.
            text.split_inclusive('\n')
                .take(e.line() - 1)
                .map(|l| l.chars().count())
                .sum::<usize>()
                + e.column()
        };
        VariantError::Token {
            column: column.max(1),
            token: "f-puzzles JSON".into(),
            message: {
                // serde's own "at line L column C" is said by the column
                let m = e.to_string();
                let m = m.split(" at line ").next().unwrap_or(&m).to_string();
                format!("not valid JSON: {m}")
            },
        }
    })?;
    let Value::Object(obj) = value else {
        return Err(field("(top)", "an f-puzzles puzzle is a JSON object"));
    };
    Reader::new(&obj)?.read()
}

/// The reading state: the object, its shape, and the puzzle so far.
struct Reader<'a> {
    obj: &'a Map<String, Value>,
    shape: Shape,
    puzzle: Puzzle,
}

impl<'a> Reader<'a> {
    fn new(obj: &'a Map<String, Value>) -> Result<Reader<'a>, VariantError> {
        let size = match obj.get("size") {
            Some(v) => int(v).ok_or_else(|| field("size", "the side is a whole number"))?,
            None => obj
                .get("grid")
                .and_then(Value::as_array)
                .map(|g| g.len() as i64)
                .ok_or_else(|| field("size", "missing: the grid's side"))?,
        };
        let shape = usize::try_from(size)
            .ok()
            .filter(|&n| n >= 1)
            .and_then(Shape::new)
            .ok_or_else(|| {
                field(
                    "size",
                    format!("{size}: sides 1 to {} are supported", Shape::MAX_SIDE),
                )
            })?;
        Ok(Reader {
            obj,
            shape,
            puzzle: Puzzle::new(shape),
        })
    }

    fn read(mut self) -> Result<Puzzle, VariantError> {
        for (key, v) in self.obj {
            let empty = matches!(v, Value::Null | Value::Bool(false))
                || v.as_array().is_some_and(Vec::is_empty)
                || v.as_str().is_some_and(str::is_empty);
            if !empty && !COSMETIC.contains(&key.as_str()) && !RULES.contains(&key.as_str()) {
                return Err(field(
                    key.as_str(),
                    format!(
                        "f-puzzles rule {key:?} is not supported (supported: {})",
                        RULES.join(", ")
                    ),
                ));
            }
        }
        self.grid()?;
        for (key, anti) in [("diagonal+", true), ("diagonal-", false)] {
            if self.flag(key)? {
                let c = Constraint::Diagonal(super::regions::Diagonal { anti });
                self.puzzle.constraints.push(c);
            }
        }
        for (key, c) in [
            ("antiknight", Constraint::AntiKnight),
            ("antiking", Constraint::AntiKing),
            ("disjointgroups", Constraint::DisjointSets),
        ] {
            if self.flag(key)? {
                self.puzzle.constraints.push(c);
            }
        }
        self.negative_rules()?;
        self.cages()?;
        self.little_killers()?;
        self.sandwiches()?;
        for (key, kind) in [
            ("thermometer", "Thermo"),
            ("palindrome", "Palindrome"),
            ("renban", "Renban"),
            ("whispers", "Whisper"),
            ("betweenline", "Between"),
            ("regionsumline", "RegionSumLine"),
            ("regionSumLine", "RegionSumLine"),
        ] {
            self.lines(key, kind)?;
        }
        self.arrows()?;
        self.dots()?;
        self.parity()?;
        self.quadruples()?;
        Ok(self.puzzle)
    }

    /// The entries of an array key (none when absent or null).
    fn entries(&self, key: &str) -> Result<&'a [Value], VariantError> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(a)) => Ok(a),
            Some(_) => Err(field(key, "expected a list")),
        }
    }

    fn flag(&self, key: &str) -> Result<bool, VariantError> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(field(key, "expected true or false")),
        }
    }

    /// Parse one constraint with the ISS reader's parser for `kind`.
    fn push(&mut self, path: &str, kind: &str, args: &[String]) -> Result<(), VariantError> {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let c = iss::constraint(kind, &args, self.shape).map_err(|m| field(path, m))?;
        self.puzzle.constraints.push(c);
        Ok(())
    }

    fn grid(&mut self) -> Result<(), VariantError> {
        let n = self.shape.side();
        let Some(rows) = self.obj.get("grid") else {
            return Ok(());
        };
        let rows = rows
            .as_array()
            .filter(|r| r.len() == n)
            .ok_or_else(|| field("grid", format!("expected {n} rows of {n} cells")))?;
        let default = default_regions(self.shape);
        let mut regions = default.clone();
        for (r, row) in rows.iter().enumerate() {
            let row = row
                .as_array()
                .filter(|c| c.len() == n)
                .ok_or_else(|| field(format!("grid[{r}]"), format!("expected {n} cells")))?;
            for (c, cell) in row.iter().enumerate() {
                let path = format!("grid[{r}][{c}]");
                let i = r * n + c;
                let Some(cell) = cell.as_object() else {
                    if cell.is_null() {
                        continue;
                    }
                    return Err(field(path, "a cell is a JSON object"));
                };
                if let Some(v) = cell.get("value").filter(|v| !v.is_null()) {
                    let d = int(v)
                        .filter(|&d| d >= 0 && d as usize <= n)
                        .ok_or_else(|| {
                            field(format!("{path}.value"), format!("not a digit 1 to {n}"))
                        })?;
                    if d > 0 {
                        self.puzzle.candidates[i] = 1 << (d - 1);
                    }
                }
                if let Some(marks) = cell.get("givenPencilMarks").and_then(Value::as_array) {
                    if !marks.is_empty() && self.puzzle.candidates[i].count_ones() > 1 {
                        let mut mask = 0u16;
                        for (k, m) in marks.iter().enumerate() {
                            let d =
                                int(m)
                                    .filter(|&d| d >= 1 && d as usize <= n)
                                    .ok_or_else(|| {
                                        field(
                                            format!("{path}.givenPencilMarks[{k}]"),
                                            format!("not a digit 1 to {n}"),
                                        )
                                    })?;
                            mask |= 1 << (d - 1);
                        }
                        self.puzzle.candidates[i] = mask;
                    }
                }
                if let Some(v) = cell.get("region").filter(|v| !v.is_null()) {
                    let k = int(v)
                        .filter(|&k| k == -1 || (0..n as i64).contains(&k))
                        .ok_or_else(|| {
                            field(
                                format!("{path}.region"),
                                format!("not a region 0 to {}", n - 1),
                            )
                        })?;
                    if k >= 0 {
                        regions[i] = Some(k as u8);
                    }
                }
            }
        }
        if regions == default {
            return Ok(());
        }
        let mut layout = String::with_capacity(self.shape.cells());
        for (i, r) in regions.iter().enumerate() {
            let Some(r) = r else {
                let c = self.shape.cell(i);
                return Err(field(
                    format!("grid[{}][{}].region", c.row, c.col),
                    format!(
                        "a {} grid has no boxes: every cell needs its region",
                        self.shape
                    ),
                ));
            };
            layout.push(char::from_digit(*r as u32, 36).unwrap_or('?'));
        }
        let jigsaw = super::jigsaw::Jigsaw::parse(&layout, self.shape.without_boxes())
            .map_err(|m| field("grid[*][*].region", m))?;
        self.shape = self.shape.without_boxes();
        self.puzzle.shape = self.shape;
        self.puzzle.constraints.push(Constraint::Jigsaw(jigsaw));
        Ok(())
    }

    /// `nonconsecutive` and `negative`: the rules about cells without a mark.
    fn negative_rules(&mut self) -> Result<(), VariantError> {
        let mut negative = Vec::new();
        for (k, v) in self.entries("negative")?.iter().enumerate() {
            let s = v
                .as_str()
                .ok_or_else(|| field(format!("negative[{k}]"), "expected a string"))?;
            negative.push((k, s));
        }
        let nonconsecutive = self.flag("nonconsecutive")?;
        let white = !self.entries("difference")?.is_empty();
        let black_negative = negative.iter().any(|&(_, s)| s == "ratio");
        for &(k, s) in &negative {
            match s {
                "xv" => self.puzzle.constraints.push(Constraint::StrictXv),
                "ratio" => {}
                other => {
                    return Err(field(
                        format!("negative[{k}]"),
                        format!("the negative rule for {other:?} is not supported (xv, ratio)"),
                    ));
                }
            }
        }
        match (nonconsecutive, black_negative) {
            (false, false) => {}
            (true, false) if !white => self.puzzle.constraints.push(Constraint::AntiConsecutive),
            (true, true) => self.puzzle.constraints.push(Constraint::StrictKropki),
            (true, false) => {
                return Err(field(
                    "nonconsecutive",
                    "white dots with the negative rule for white dots only are not supported \
                     (with black dots negative too they are: negative [\"ratio\"])",
                ));
            }
            (false, true) => {
                return Err(field(
                    "negative",
                    "the negative rule for black dots only is not supported \
                     (with nonconsecutive too it is: every dot given)",
                ));
            }
        }
        Ok(())
    }

    fn cages(&mut self) -> Result<(), VariantError> {
        for (key, with_sum) in [("killercage", true), ("extraregion", false)] {
            for (k, e) in self.entries(key)?.iter().enumerate() {
                let path = format!("{key}[{k}]");
                let sum = if with_sum {
                    match e.get("value") {
                        None | Some(Value::Null) => String::new(),
                        Some(v) => text(v)
                            .ok_or_else(|| field(format!("{path}.value"), "the sum is a number"))?,
                    }
                } else {
                    String::new()
                };
                let mut args = vec![sum.trim().to_string()];
                args.extend(self.cell_list(e, "cells", &path)?);
                self.push(&path, "Cage", &args)?;
            }
        }
        Ok(())
    }

    fn little_killers(&mut self) -> Result<(), VariantError> {
        let n = self.shape.side() as i32;
        for (k, e) in self.entries("littlekillersum")?.iter().enumerate() {
            let path = format!("littlekillersum[{k}]");
            let sum = match e.get("value").and_then(text) {
                Some(s) if !s.trim().is_empty() && s.trim() != "0" => s.trim().to_string(),
                _ => continue, // an empty clue draws an arrow and says nothing
            };
            let (r, c) = outside_cell(e.get("cell"), n)
                .ok_or_else(|| field(format!("{path}.cell"), "expected a cell name like R0C3"))?;
            let (dr, dc) = match e.get("direction").and_then(Value::as_str) {
                Some("DR") => (1, 1),
                Some("DL") => (1, -1),
                Some("UR") => (-1, 1),
                Some("UL") => (-1, -1),
                _ => {
                    return Err(field(
                        format!("{path}.direction"),
                        "expected DR, DL, UR or UL",
                    ));
                }
            };
            let (mut r, mut c) = (r + dr, c + dc);
            let mut cells = Vec::new();
            while (0..n).contains(&r) && (0..n).contains(&c) {
                cells.push(CellName::new(r as u8, c as u8));
                r += dr;
                c += dc;
            }
            if cells.is_empty() {
                return Err(field(path, "the diagonal misses the grid"));
            }
            // ISS names a diagonal by its first cell when the direction
            // follows from it; any other diagonal is the same sum.
            let kind = if little_killer::diagonal(cells[0], self.shape).as_deref() == Some(&cells) {
                let args = [sum, iss::cell_id(&cells[0])];
                self.push(&path, "LittleKiller", &args)?;
                continue;
            } else {
                "Sum"
            };
            let mut args = vec![sum];
            args.extend(cells.iter().map(iss::cell_id));
            self.push(&path, kind, &args)?;
        }
        Ok(())
    }

    fn sandwiches(&mut self) -> Result<(), VariantError> {
        let n = self.shape.side() as i32;
        for (k, e) in self.entries("sandwichsum")?.iter().enumerate() {
            let path = format!("sandwichsum[{k}]");
            let sum = match e.get("value").and_then(text) {
                Some(s) if !s.trim().is_empty() => s.trim().to_string(),
                _ => continue,
            };
            let (r, c) = outside_cell(e.get("cell"), n)
                .ok_or_else(|| field(format!("{path}.cell"), "expected a cell name like R0C3"))?;
            let line = if (r == -1 || r == n) && (0..n).contains(&c) {
                format!("C{}", c + 1)
            } else if (c == -1 || c == n) && (0..n).contains(&r) {
                format!("R{}", r + 1)
            } else {
                return Err(field(
                    format!("{path}.cell"),
                    "a sandwich clue sits just outside a row or column (R0C3, R3C0)",
                ));
            };
            self.push(&path, "Sandwich", &[sum, line])?;
        }
        Ok(())
    }

    fn lines(&mut self, key: &str, kind: &str) -> Result<(), VariantError> {
        for (k, e) in self.entries(key)?.iter().enumerate() {
            let Some(lines) = e.get("lines").and_then(Value::as_array) else {
                return Err(field(
                    format!("{key}[{k}].lines"),
                    "expected a list of lines",
                ));
            };
            for (j, line) in lines.iter().enumerate() {
                let path = format!("{key}[{k}].lines[{j}]");
                let cells = self.cells(line, &path)?;
                if cells.len() < 2 {
                    continue; // a dot of a line: no neighbours to constrain
                }
                self.push(&path, kind, &cells)?;
            }
        }
        Ok(())
    }

    fn arrows(&mut self) -> Result<(), VariantError> {
        for (k, e) in self.entries("arrow")?.iter().enumerate() {
            let path = format!("arrow[{k}]");
            let circle = self.cell_list(e, "cells", &path)?;
            if circle.is_empty() || circle.len() > 3 {
                return Err(field(
                    format!("{path}.cells"),
                    format!("a circle of {} cells: 1 to 3", circle.len()),
                ));
            }
            let Some(lines) = e.get("lines").and_then(Value::as_array) else {
                return Err(field(format!("{path}.lines"), "expected a list of lines"));
            };
            // Each line from the circle is an arrow of its own; a line
            // starts in the circle.
            for (j, line) in lines.iter().enumerate() {
                let lpath = format!("{path}.lines[{j}]");
                let cells = self.cells(line, &lpath)?;
                let shaft: Vec<String> = cells
                    .iter()
                    .filter(|c| !circle.iter().any(|x| same_cell(x, c)))
                    .cloned()
                    .collect();
                if shaft.is_empty() {
                    continue;
                }
                let mut args = Vec::new();
                let kind = if circle.len() == 1 {
                    "Arrow"
                } else {
                    args.push(circle.len().to_string());
                    "PillArrow"
                };
                args.extend(circle.iter().cloned());
                args.extend(shaft);
                self.push(&lpath, kind, &args)?;
            }
        }
        Ok(())
    }

    fn dots(&mut self) -> Result<(), VariantError> {
        for (key, kind, default) in [("difference", "WhiteDot", "1"), ("ratio", "BlackDot", "2")] {
            for (k, e) in self.entries(key)?.iter().enumerate() {
                let path = format!("{key}[{k}]");
                let value = e.get("value").and_then(text).unwrap_or_default();
                let value = value.trim();
                if !value.is_empty() && value != default {
                    return Err(field(
                        format!("{path}.value"),
                        format!(
                            "a {} dot of {value} is not supported (only {default})",
                            if key == "ratio" {
                                "ratio"
                            } else {
                                "difference"
                            }
                        ),
                    ));
                }
                let cells = self.cell_list(e, "cells", &path)?;
                self.push(&path, kind, &cells)?;
            }
        }
        for (k, e) in self.entries("xv")?.iter().enumerate() {
            let path = format!("xv[{k}]");
            let kind = match e.get("value").and_then(Value::as_str).map(str::trim) {
                Some("x" | "X") => "X",
                Some("v" | "V") => "V",
                None | Some("") => continue,
                Some(other) => {
                    return Err(field(format!("{path}.value"), format!("{other:?}: X or V")));
                }
            };
            let cells = self.cell_list(e, "cells", &path)?;
            self.push(&path, kind, &cells)?;
        }
        Ok(())
    }

    fn parity(&mut self) -> Result<(), VariantError> {
        for (key, kind) in [("odd", "Odd"), ("even", "Even")] {
            let mut cells = Vec::new();
            for (k, e) in self.entries(key)?.iter().enumerate() {
                let path = format!("{key}[{k}].cell");
                let c = e
                    .get("cell")
                    .and_then(Value::as_str)
                    .ok_or_else(|| field(path.as_str(), "expected a cell name"))?;
                iss::cell(c, self.shape).map_err(|m| field(path.as_str(), m))?;
                cells.push(c.to_string());
            }
            if !cells.is_empty() {
                self.push(key, kind, &cells)?;
            }
        }
        Ok(())
    }

    fn quadruples(&mut self) -> Result<(), VariantError> {
        for (k, e) in self.entries("quadruple")?.iter().enumerate() {
            let path = format!("quadruple[{k}]");
            let cells = self.cell_list(e, "cells", &path)?;
            let parsed = cells
                .iter()
                .map(|c| iss::cell(c, self.shape))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|m| field(format!("{path}.cells"), m))?;
            let top = parsed.iter().map(|c| c.row).min();
            let left = parsed.iter().map(|c| c.col).min();
            let (Some(top), Some(left)) = (top, left) else {
                return Err(field(format!("{path}.cells"), "no cells"));
            };
            let block = |c: &CellName| c.row - top <= 1 && c.col - left <= 1;
            if parsed.len() != 4 || !parsed.iter().all(block) {
                return Err(field(
                    format!("{path}.cells"),
                    "a quadruple sits on the corner of four cells in a 2x2 block",
                ));
            }
            let mut args = vec![iss::cell_id(&CellName::new(top, left))];
            for (j, v) in self.entries_of(e, "values", &path)?.iter().enumerate() {
                let d = text(v)
                    .ok_or_else(|| field(format!("{path}.values[{j}]"), "expected a digit"))?;
                args.push(d);
            }
            self.push(&path, "Quad", &args)?;
        }
        Ok(())
    }

    fn entries_of(&self, e: &'a Value, key: &str, path: &str) -> Result<&'a [Value], VariantError> {
        match e.get(key) {
            Some(Value::Array(a)) => Ok(a),
            _ => Err(field(format!("{path}.{key}"), "expected a list")),
        }
    }

    /// A list of cell names under `key` of an entry.
    fn cell_list(&self, e: &Value, key: &str, path: &str) -> Result<Vec<String>, VariantError> {
        let path = format!("{path}.{key}");
        match e.get(key) {
            Some(v) => self.cells(v, &path),
            None => Err(field(path, "missing")),
        }
    }

    /// A JSON list of cell names, each checked against the grid.
    fn cells(&self, v: &Value, path: &str) -> Result<Vec<String>, VariantError> {
        let list = v
            .as_array()
            .ok_or_else(|| field(path, "expected a list of cell names"))?;
        let mut out = Vec::with_capacity(list.len());
        for (k, c) in list.iter().enumerate() {
            let p = format!("{path}[{k}]");
            let name = c
                .as_str()
                .ok_or_else(|| field(p.as_str(), "expected a cell name like R1C1"))?;
            let cell = iss::cell(name, self.shape).map_err(|m| field(p.as_str(), m))?;
            out.push(iss::cell_id(&cell));
        }
        Ok(out)
    }
}

/// Write a puzzle as f-puzzles JSON (read back by [`parse_json`]), or say
/// which constraint f-puzzles cannot express (a sum off a diagonal, a slow
/// thermometer, a double arrow, whispers of another difference, greater-than
/// signs, lockout and zipper lines, X-sums, skyscrapers).
pub fn to_json(p: &Puzzle) -> Result<String, VariantError> {
    use serde_json::json;
    let shape = p.shape;
    let n = shape.side();
    let name = |c: &CellName| format!("R{}C{}", c.row + 1, c.col + 1);
    let names = |cs: &[CellName]| cs.iter().map(name).collect::<Vec<_>>();
    let regions = p.constraints.iter().find_map(|c| match c {
        Constraint::Jigsaw(j) if shape.boxes().is_none() => Some(j.regions.clone()),
        _ => None,
    });
    let mut grid = Vec::with_capacity(n);
    for r in 0..n {
        let mut row = Vec::with_capacity(n);
        for c in 0..n {
            let i = r * n + c;
            let mut cell = Map::new();
            let m = p.candidates[i];
            if m.count_ones() == 1 {
                cell.insert("value".into(), json!(m.trailing_zeros() + 1));
                cell.insert("given".into(), json!(true));
            } else if m != shape.all() {
                let marks: Vec<u32> = super::solver::digits(m).map(u32::from).collect();
                cell.insert("givenPencilMarks".into(), json!(marks));
            }
            if let Some(rg) = &regions {
                cell.insert("region".into(), json!(rg[i]));
            }
            row.push(Value::Object(cell));
        }
        grid.push(Value::Array(row));
    }
    let mut out = Map::new();
    out.insert("size".into(), json!(n));
    out.insert("grid".into(), Value::Array(grid));
    let mut add = |key: &str, v: Value| match out.get_mut(key) {
        Some(Value::Array(a)) => a.push(v),
        _ => {
            out.insert(key.into(), Value::Array(vec![v]));
        }
    };
    let mut flags: Vec<&str> = Vec::new();
    let mut negative: Vec<&str> = Vec::new();
    let unsupported = |c: &Constraint, why: &str| Err(c.error(format!("f-puzzles has no {why}")));
    for c in &p.constraints {
        let pairs = |cs: &[CellName]| {
            let idx: Vec<u16> = cs.iter().map(|&x| shape.index(x) as u16).collect();
            super::kropki::neighbour_pairs(&idx, shape)
                .into_iter()
                .map(|(a, b)| json!([name(&shape.cell(a as usize)), name(&shape.cell(b as usize))]))
                .collect::<Vec<_>>()
        };
        match c {
            Constraint::Diagonal(d) => flags.push(if d.anti { "diagonal+" } else { "diagonal-" }),
            Constraint::Windoku => {
                for top in [1u8, 5] {
                    for left in [1u8, 5] {
                        let cells: Vec<String> = (0..9)
                            .map(|i| name(&CellName::new(top + i / 3, left + i % 3)))
                            .collect();
                        add("extraregion", json!({ "cells": cells }));
                    }
                }
            }
            Constraint::DisjointSets => flags.push("disjointgroups"),
            Constraint::AntiKnight => flags.push("antiknight"),
            Constraint::AntiKing => flags.push("antiking"),
            Constraint::AntiConsecutive => flags.push("nonconsecutive"),
            Constraint::StrictKropki => {
                flags.push("nonconsecutive");
                negative.push("ratio");
            }
            Constraint::StrictXv => negative.push("xv"),
            // With the boxes kept, the regions are extra regions.
            Constraint::Jigsaw(j) if shape.boxes().is_some() => {
                for r in 0..n as u8 {
                    let cells: Vec<String> = (0..shape.cells())
                        .filter(|&i| j.regions[i] == r)
                        .map(|i| name(&shape.cell(i)))
                        .collect();
                    add("extraregion", json!({ "cells": cells }));
                }
            }
            Constraint::Jigsaw(_) => {}
            Constraint::Cage(k) => {
                let mut e = json!({ "cells": names(&k.cells) });
                if let Some(s) = k.sum {
                    e["value"] = json!(s.to_string());
                }
                add("killercage", e);
            }
            Constraint::LittleKiller(l) => {
                add("littlekillersum", little_killer_entry(l.sum, &l.cells, n)?)
            }
            Constraint::Sum(k) => {
                let straight = k.cells.len() >= 2
                    && k.cells.windows(2).all(|w| {
                        let d = |a: CellName, b: CellName| {
                            (b.row as i32 - a.row as i32, b.col as i32 - a.col as i32)
                        };
                        d(w[0], w[1]) == d(k.cells[0], k.cells[1])
                    });
                let entry = straight
                    .then(|| little_killer_entry(k.sum, &k.cells, n))
                    .and_then(Result::ok);
                match entry {
                    Some(e) => add("littlekillersum", e),
                    None => return unsupported(c, "sum of repeating digits off a diagonal"),
                }
            }
            Constraint::Sandwich(sw) => {
                let cell = match sw.line {
                    super::sandwich::Line::Row(r) => format!("R{}C0", r + 1),
                    super::sandwich::Line::Col(k) => format!("R0C{}", k + 1),
                };
                add(
                    "sandwichsum",
                    json!({ "cell": cell, "value": sw.sum.to_string() }),
                );
            }
            Constraint::Thermo(x) => add("thermometer", json!({ "lines": [names(&x.cells)] })),
            Constraint::Arrow(a) => {
                let (circle, shaft) = a.cells.split_at(a.pill);
                // the line starts at the circle cell next to the shaft
                let start = circle
                    .iter()
                    .min_by_key(|c| {
                        let f = shaft[0];
                        c.row.abs_diff(f.row) as u32 + c.col.abs_diff(f.col) as u32
                    })
                    .copied()
                    .unwrap_or(circle[0]);
                let mut line = vec![name(&start)];
                line.extend(names(shaft));
                add("arrow", json!({ "cells": names(circle), "lines": [line] }));
            }
            Constraint::WhiteDot(x) => {
                for pr in pairs(&x.cells) {
                    add("difference", json!({ "cells": pr }));
                }
            }
            Constraint::BlackDot(x) => {
                for pr in pairs(&x.cells) {
                    add("ratio", json!({ "cells": pr }));
                }
            }
            Constraint::X(x) | Constraint::V(x) => {
                let v = if matches!(c, Constraint::X(_)) {
                    "X"
                } else {
                    "V"
                };
                for pr in pairs(&x.cells) {
                    add("xv", json!({ "cells": pr, "value": v }));
                }
            }
            Constraint::Odd(x) | Constraint::Even(x) => {
                let key = if matches!(c, Constraint::Odd(_)) {
                    "odd"
                } else {
                    "even"
                };
                for cell in &x.cells {
                    add(key, json!({ "cell": name(cell) }));
                }
            }
            Constraint::Renban(x) => add("renban", json!({ "lines": [names(&x.cells)] })),
            Constraint::Palindrome(x) => add("palindrome", json!({ "lines": [names(&x.cells)] })),
            Constraint::Between(x) => add("betweenline", json!({ "lines": [names(&x.cells)] })),
            Constraint::RegionSumLine(x) => {
                add("regionsumline", json!({ "lines": [names(&x.cells)] }))
            }
            Constraint::Whisper(w) if w.least() == 5 => {
                add("whispers", json!({ "lines": [names(&w.cells)] }))
            }
            Constraint::Whisper(_) => {
                return unsupported(c, "whispers of a difference other than 5");
            }
            Constraint::Quad(q) => {
                let cells: Vec<String> = [(0, 0), (0, 1), (1, 0), (1, 1)]
                    .iter()
                    .map(|&(dr, dc)| name(&CellName::new(q.cell.row + dr, q.cell.col + dc)))
                    .collect();
                add("quadruple", json!({ "cells": cells, "values": q.digits }));
            }
            Constraint::AllDifferent(x) => add("extraregion", json!({ "cells": names(&x.cells) })),
            Constraint::GreaterThan(_) => return unsupported(c, "greater-than sign"),
            Constraint::Lockout(_) => return unsupported(c, "lockout line"),
            Constraint::Zipper(_) => return unsupported(c, "zipper line"),
            Constraint::XSum(_) => return unsupported(c, "X-sum clue"),
            Constraint::Skyscraper(_) => return unsupported(c, "skyscraper clue"),
            Constraint::SlowThermo(_) => return unsupported(c, "slow thermometer"),
            Constraint::DoubleArrow(_) => return unsupported(c, "double arrow"),
        }
    }
    for f in flags {
        out.insert(f.into(), json!(true));
    }
    if !negative.is_empty() {
        out.insert("negative".into(), json!(negative));
    }
    Ok(Value::Object(out).to_string())
}

/// An f-puzzles link (`https://www.f-puzzles.com/?load=…`) for a puzzle.
pub fn to_link(p: &Puzzle) -> Result<String, VariantError> {
    let json = to_json(p)?;
    Ok(format!(
        "https://www.f-puzzles.com/?load={}",
        lz_str::compress_to_base64(&json)
    ))
}

/// A little killer entry for a diagonal: the clue sits one step before its
/// first cell.
fn little_killer_entry(sum: u32, cells: &[CellName], side: usize) -> Result<Value, VariantError> {
    let (a, b) = (cells[0], cells[1]);
    let (dr, dc) = (b.row as i32 - a.row as i32, b.col as i32 - a.col as i32);
    let direction = match (dr, dc) {
        (1, 1) => "DR",
        (1, -1) => "DL",
        (-1, 1) => "UR",
        (-1, -1) => "UL",
        _ => return Err(field("littlekillersum", "not a diagonal")),
    };
    // The clue sits off the grid and the diagonal runs to the far edge.
    let ray = |n: i32| {
        let (mut r, mut c) = (a.row as i32, a.col as i32);
        let mut out = Vec::new();
        while (0..n).contains(&r) && (0..n).contains(&c) {
            out.push(CellName::new(r as u8, c as u8));
            r += dr;
            c += dc;
        }
        out
    };
    let (before_r, before_c) = (a.row as i32 - dr, a.col as i32 - dc);
    let n = side as i32;
    if (0..n).contains(&before_r) && (0..n).contains(&before_c) || ray(n) != cells {
        return Err(field("littlekillersum", "not a whole diagonal"));
    }
    // 1-based clue position, possibly 0 (above or left of the grid)
    let (r, c) = (before_r + 1, before_c + 1);
    Ok(serde_json::json!({
        "cell": format!("R{r}C{c}"),
        "direction": direction,
        "value": sum.to_string(),
    }))
}

/// The box of each cell, or `None` on a grid without boxes.
fn default_regions(shape: Shape) -> Vec<Option<u8>> {
    (0..shape.cells())
        .map(|i| shape.box_of(shape.cell(i)).map(|b| b as u8))
        .collect()
}

fn same_cell(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// A whole number written as a number or a string.
fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A value written as a string or a number, as text.
fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A clue cell just outside (or on) the grid, 0-based: `R0C3` is (-1, 2).
fn outside_cell(v: Option<&Value>, n: i32) -> Option<(i32, i32)> {
    let s = v?.as_str()?.to_ascii_uppercase();
    let rest = s.strip_prefix('R')?;
    let (r, c) = rest.split_once('C')?;
    let (r, c): (i32, i32) = (r.parse().ok()?, c.parse().ok()?);
    ((0..=n + 1).contains(&r) && (0..=n + 1).contains(&c)).then_some((r - 1, c - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(body: &str) -> String {
        let row = format!("[{}]", ["{}"; 9].join(","));
        let grid = vec![row; 9].join(",");
        format!(r#"{{"size":9,"grid":[{grid}]{body}}}"#)
    }

    #[test]
    fn keys_become_constraints() {
        let p = parse_json(&json(
            r#","killercage":[{"cells":["R1C1","R1C2"],"value":"3"}],
               "diagonal+":true,"antiknight":true,
               "thermometer":[{"lines":[["R5C5","R5C6","R5C7"],["R6C5","R7C5"]]}],
               "arrow":[{"cells":["R9C9"],"lines":[["R9C9","R9C8","R9C7"],["R9C9","R8C9"]]}],
               "littlekillersum":[{"cell":"R0C3","direction":"DL","value":"7"},
                                  {"cell":"R0C3","direction":"DR","value":"30"},
                                  {"cell":"R0C5","direction":"DR","value":""}],
               "sandwichsum":[{"cell":"R0C2","value":"10"},{"cell":"R4C0","value":0}],
               "difference":[{"cells":["R3C3","R3C4"]}],"ratio":[{"cells":["R3C5","R3C6"],"value":"2"}],
               "xv":[{"cells":["R4C4","R4C5"],"value":"X"}],
               "odd":[{"cell":"R2C2"}],"quadruple":[{"cells":["R7C1","R7C2","R8C1","R8C2"],"values":[1,2]}],
               "title":"t","author":"a","text":[{"cells":["R1C1"],"value":"hi"}]"#,
        ))
        .expect("reads");
        let iss = p.to_string();
        for token in [
            ".Cage~3~R1C1~R1C2",
            ".Diagonal~1",
            ".AntiKnight",
            ".Thermo~R5C5~R5C6~R5C7",
            ".Thermo~R6C5~R7C5",
            ".Arrow~R9C9~R9C8~R9C7",
            ".Arrow~R9C9~R8C9",
            ".LittleKiller~7~R1C2",
            ".Sum~30~R1C4~R2C5~R3C6~R4C7~R5C8~R6C9",
            ".Sandwich~10~C2",
            ".Sandwich~0~R4",
            ".WhiteDot~R3C3~R3C4",
            ".BlackDot~R3C5~R3C6",
            ".X~R4C4~R4C5",
            ".Odd~R2C2",
            ".Quad~R7C1~1~2",
        ] {
            assert!(iss.contains(token), "{token} missing from {iss}");
        }
        assert_eq!(p.constraints.len(), 16, "{iss}");
    }

    #[test]
    fn givens_pencilmarks_and_regions() {
        let mut rows: Vec<Vec<String>> = (0..6)
            .map(|r| {
                (0..6)
                    .map(|c| {
                        // regions are the columns: a jigsaw
                        format!(
                            r#"{{"region":{c}{}}}"#,
                            if r == 0 && c == 0 {
                                r#","value":4,"given":true"#
                            } else {
                                ""
                            }
                        )
                    })
                    .collect()
            })
            .collect();
        rows[1][1] = r#"{"region":1,"givenPencilMarks":[1,3]}"#.into();
        let grid: Vec<String> = rows.iter().map(|r| format!("[{}]", r.join(","))).collect();
        let text = format!(r#"{{"size":6,"grid":[{}]}}"#, grid.join(","));
        let p = parse_json(&text).expect("reads");
        assert_eq!(p.shape.side(), 6);
        assert!(p.shape.boxes().is_none());
        assert_eq!(p.candidates[0], 1 << 3);
        assert_eq!(p.candidates[7], 0b101);
        assert!(matches!(p.constraints[0], Constraint::Jigsaw(_)));
        // default regions (-1) on a 9×9 grid: no jigsaw
        let p = parse_json(&json("").replace("{}", r#"{"region":-1}"#)).expect("reads");
        assert!(p.constraints.is_empty() && p.shape.boxes().is_some());
    }

    #[test]
    fn negative_rules() {
        let p = parse_json(&json(r#","nonconsecutive":true"#)).expect("reads");
        assert_eq!(p.constraints, [Constraint::AntiConsecutive]);
        let p = parse_json(&json(
            r#","nonconsecutive":true,"negative":["ratio","xv"],"difference":[{"cells":["R1C1","R1C2"]}]"#,
        ))
        .expect("reads");
        assert!(p.constraints.contains(&Constraint::StrictKropki));
        assert!(p.constraints.contains(&Constraint::StrictXv));
        let e = parse_json(&json(r#","negative":["ratio"]"#))
            .unwrap_err()
            .to_string();
        assert!(e.contains("black dots only"), "{e}");
    }

    #[test]
    fn errors_name_the_place() {
        let e = parse_json(&json(
            r#","killercage":[{"cells":["R1C1","R10C1"],"value":"5"}]"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("killercage[0].cells[1]") && e.contains("off the 9x9 grid"),
            "{e}"
        );
        let e = parse_json(&json(
            r#","clone":[{"cells":["R1C1"],"cloneCells":["R2C2"]}]"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("\"clone\" is not supported"), "{e}");
        let e = parse_json(&json(
            r#","difference":[{"cells":["R1C1","R1C2"],"value":"3"}]"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("difference[0].value"), "{e}");
        let e = parse_json(r#"{"size":9,"grid":[[{}],]}"#).unwrap_err();
        assert!(matches!(e, VariantError::Token { .. }), "{e:?}");
        let e = parse_json(&json(
            r#","killercage":[{"cells":["R1C1","R1C2"],"value":"30"}]"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("killercage[0]") && e.contains("sum to 30"),
            "{e}"
        );
        assert!(parse_json("[1,2]").is_err());
        assert!(parse_json(r#"{"size":40}"#).is_err());
        assert!(parse_link("N4IgAAAA!!").is_err());
        assert!(parse_link("https://example.com/?x=1").is_err());
    }

    #[test]
    fn links_decompress() {
        let text = json(r#","antiking":true"#);
        let payload = lz_str::compress_to_base64(&text);
        assert!(payload.starts_with("N4Ig"), "{payload}");
        for link in [
            format!("https://www.f-puzzles.com/?load={payload}"),
            payload.clone(),
            format!("fpuz{payload}"),
            format!("https://sudokupad.app/fpuz{payload}"),
        ] {
            assert!(is_fpuzzles(&link), "{link}");
            let p = parse(&link).expect("reads");
            assert_eq!(p.constraints, [Constraint::AntiKing]);
        }
        assert!(!is_fpuzzles(".~R1C1_5"));
        assert!(!is_fpuzzles(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        ));
    }
}
