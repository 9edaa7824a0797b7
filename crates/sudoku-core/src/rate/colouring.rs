//! Simple colouring (single-digit colouring). The conjugate pairs of a digit
//! (houses where it has exactly two places) join cells into clusters; the
//! cells of a cluster take two alternating colours, and exactly one colour
//! holds the digit.
//!
//! - Colour trap: a cell outside the cluster that sees both colours cannot
//!   hold the digit.
//! - Colour wrap: if two cells of one colour see each other, that colour is
//!   false, and the digit is removed from all its cells.

use super::step::{CellDigit, Link, LinkKind, Step};
use crate::candidates::{Candidates, bit};

const NONE: usize = usize::MAX;

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    let cells = c.masks().len();
    let mut adj = vec![[NONE; 3]; cells];
    let mut colour = vec![u8::MAX; cells];
    let mut cluster: Vec<usize> = Vec::new();
    let mut tree: Vec<(usize, usize)> = Vec::new();
    for d in 1..=l.n as u8 {
        let bd = bit(d);
        adj.iter_mut().for_each(|a| *a = [NONE; 3]);
        colour.iter_mut().for_each(|x| *x = u8::MAX);
        for h in 0..l.houses.len() {
            if let Some([p, q]) = super::conjugate_pair(c, h, d) {
                let kind = h / l.n; // 0 row, 1 column, 2 box
                adj[p][kind] = q;
                adj[q][kind] = p;
            }
        }
        for start in 0..cells {
            if colour[start] != u8::MAX || adj[start].iter().all(|&x| x == NONE) {
                continue;
            }
            // Colour the cluster by breadth-first search.
            cluster.clear();
            tree.clear();
            colour[start] = 0;
            cluster.push(start);
            let mut i = 0;
            while i < cluster.len() {
                let x = cluster[i];
                i += 1;
                for &y in &adj[x] {
                    if y != NONE && colour[y] == u8::MAX {
                        colour[y] = 1 - colour[x];
                        cluster.push(y);
                        tree.push((x, y));
                    }
                }
            }
            // Wrap: two cells of one colour that see each other.
            for (ia, &a) in cluster.iter().enumerate() {
                for &b in &cluster[ia + 1..] {
                    if colour[a] == colour[b] && l.sees(a, b) {
                        let bad = colour[a];
                        let h = (0..3)
                            .find(|&k| l.cell_houses[a][k] == l.cell_houses[b][k])
                            .map_or(0, |k| l.cell_houses[a][k]);
                        step.digits.push(d);
                        step.cells.extend([a, b]);
                        step.houses.push(l.house(h));
                        push_tree(step, &tree, d);
                        for &x in cluster.iter() {
                            if colour[x] == bad {
                                step.eliminations.push(CellDigit { cell: x, digit: d });
                            }
                        }
                        return true;
                    }
                }
            }
            // Trap: an outside cell seeing both colours.
            let mut witness = None;
            for t in 0..cells {
                if c.mask(t) & bd == 0 || cluster.contains(&t) {
                    continue;
                }
                let mut seen = [NONE; 2];
                for &x in cluster.iter() {
                    if seen[colour[x] as usize] == NONE && l.sees(t, x) {
                        seen[colour[x] as usize] = x;
                    }
                }
                if seen[0] != NONE && seen[1] != NONE {
                    witness.get_or_insert(seen);
                    step.eliminations.push(CellDigit { cell: t, digit: d });
                }
            }
            if let Some([a, b]) = witness {
                step.digits.push(d);
                step.cells.extend([a, b]);
                push_tree(step, &tree, d);
                return true;
            }
        }
    }
    false
}

fn push_tree(step: &mut Step, tree: &[(usize, usize)], d: u8) {
    for &(x, y) in tree {
        step.links.push(Link {
            from: CellDigit { cell: x, digit: d },
            to: CellDigit { cell: y, digit: d },
            kind: LinkKind::Strong,
        });
    }
}
