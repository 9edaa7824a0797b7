//! XY-chain: a chain of bivalue cells, each seeing the next, where the digit
//! one cell is forced to take is the one the next cell loses. Starting from
//! "the first cell is not a" and ending at a cell forced to be a, the first
//! or the last cell is a; so a is removed from every cell that sees both.
//! The search is breadth-first, so the shortest chain from each start is
//! found.

use super::push_common_eliminations;
use super::step::{CellDigit, Link, LinkKind, Step};
use crate::candidates::{Candidates, bit, digits};

const NONE: usize = usize::MAX;

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    let n = l.n;
    let cells = c.masks().len();
    // States: cell * n + (digit - 1), meaning "the chain makes this cell that digit".
    let mut parent = vec![NONE; cells * n];
    let mut queue: Vec<usize> = Vec::with_capacity(cells * 2);
    for s in 0..cells {
        let ms = c.mask(s);
        if ms.count_ones() != 2 {
            continue;
        }
        for a in digits(ms) {
            let ba = bit(a);
            // Quick filter: some cell with a must see s.
            if !l.peers[s]
                .iter()
                .any(|&t| c.mask(t) & ba != 0 && c.mask(t).count_ones() >= 2)
            {
                continue;
            }
            let b = digits(ms & !ba).next().unwrap_or(a);
            parent.iter_mut().for_each(|p| *p = NONE);
            queue.clear();
            let root = s * n + (b as usize - 1);
            parent[root] = root;
            queue.push(root);
            let mut qi = 0;
            while qi < queue.len() {
                let st = queue[qi];
                qi += 1;
                let (x, v) = (st / n, (st % n) as u8 + 1);
                if v == a && x != s && try_end(c, step, &parent, s, st, a, n) {
                    return true;
                }
                let bv = bit(v);
                for &y in &l.peers[x] {
                    let my = c.mask(y);
                    if my.count_ones() != 2 || my & bv == 0 {
                        continue;
                    }
                    let w = digits(my & !bv).next().unwrap_or(v);
                    let ns = y * n + (w as usize - 1);
                    if parent[ns] == NONE {
                        parent[ns] = st;
                        queue.push(ns);
                    }
                }
            }
        }
    }
    false
}

fn try_end(
    c: &Candidates,
    step: &mut Step,
    parent: &[usize],
    s: usize,
    st: usize,
    a: u8,
    n: usize,
) -> bool {
    let e = st / n;
    let l = c.layout();
    let ba = bit(a);
    if !l.peers[s]
        .iter()
        .any(|&t| t != e && c.mask(t) & ba != 0 && l.sees(t, e))
    {
        return false;
    }
    let mut path = Vec::new();
    let mut cur = st;
    loop {
        path.push(cur);
        let p = parent[cur];
        if p == cur {
            break;
        }
        cur = p;
    }
    path.reverse();
    let chain: Vec<usize> = path.iter().map(|&x| x / n).collect();
    if !push_common_eliminations(c, step, s, e, a, &chain) {
        return false;
    }
    step.digits.push(a);
    step.cells.extend(chain.iter().copied());
    // s(a) = s(b) - y(b) = y(w) - ... = e(a)
    let mut off = a;
    for (i, &state) in path.iter().enumerate() {
        let (x, on) = (state / n, (state % n) as u8 + 1);
        if i > 0 {
            let prev = path[i - 1] / n;
            step.links.push(Link {
                from: CellDigit {
                    cell: prev,
                    digit: off,
                },
                to: CellDigit {
                    cell: x,
                    digit: off,
                },
                kind: LinkKind::Weak,
            });
        }
        let this_off = digits(c.mask(x) & !bit(on)).next().unwrap_or(on);
        step.links.push(Link {
            from: CellDigit {
                cell: x,
                digit: this_off,
            },
            to: CellDigit { cell: x, digit: on },
            kind: LinkKind::Strong,
        });
        off = on;
    }
    true
}
