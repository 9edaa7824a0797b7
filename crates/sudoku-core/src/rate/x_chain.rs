//! X-chain: on one digit, a chain of alternating strong links (conjugate
//! pairs) and weak links (cells that see each other) that begins and ends
//! with a strong link. If the first cell is not the digit, the last one is;
//! so the digit is removed from every cell that sees both ends. The search
//! is breadth-first, so the shortest chain from each start is found.

use super::step::{CellDigit, Link, LinkKind, Step};
use super::{conjugate_pair, push_common_eliminations};
use crate::candidates::{Candidates, bit};

const NONE: usize = usize::MAX;

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    let cells = c.masks().len();
    // States: 2 * cell + on (on = 1 when the chain makes the cell the digit).
    let mut parent = vec![NONE; 2 * cells];
    let mut queue: Vec<usize> = Vec::with_capacity(2 * cells);
    let mut adj = vec![[NONE; 3]; cells];
    for d in 1..=l.n as u8 {
        let bd = bit(d);
        adj.iter_mut().for_each(|a| *a = [NONE; 3]);
        for h in 0..l.houses.len() {
            if let Some([p, q]) = conjugate_pair(c, h, d) {
                let kind = h / l.n;
                adj[p][kind] = q;
                adj[q][kind] = p;
            }
        }
        for s in 0..cells {
            if adj[s].iter().all(|&x| x == NONE) {
                continue;
            }
            parent.iter_mut().for_each(|p| *p = NONE);
            queue.clear();
            let root = 2 * s;
            parent[root] = root;
            queue.push(root);
            let mut qi = 0;
            while qi < queue.len() {
                let st = queue[qi];
                qi += 1;
                let (x, on) = (st / 2, st % 2 == 1);
                if on {
                    if x != s && try_end(c, step, &parent, s, st, d) {
                        return true;
                    }
                    for &y in &l.peers[x] {
                        // A cell without a strong link would end the chain
                        // on a weak link: skip it.
                        if c.mask(y) & bd != 0
                            && parent[2 * y] == NONE
                            && adj[y].iter().any(|&z| z != NONE)
                        {
                            parent[2 * y] = st;
                            queue.push(2 * y);
                        }
                    }
                } else {
                    for &y in &adj[x] {
                        if y != NONE && parent[2 * y + 1] == NONE {
                            parent[2 * y + 1] = st;
                            queue.push(2 * y + 1);
                        }
                    }
                }
            }
        }
    }
    false
}

fn try_end(c: &Candidates, step: &mut Step, parent: &[usize], s: usize, st: usize, d: u8) -> bool {
    let e = st / 2;
    let l = c.layout();
    let bd = bit(d);
    if !l.peers[s]
        .iter()
        .any(|&t| t != e && c.mask(t) & bd != 0 && l.sees(t, e))
    {
        return false;
    }
    // Collect the path from the root to st.
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
    let chain: Vec<usize> = path.iter().map(|&x| x / 2).collect();
    if !push_common_eliminations(c, step, s, e, d, &chain) {
        return false;
    }
    step.digits.push(d);
    step.cells.extend(chain.iter().copied());
    for w in path.windows(2) {
        let kind = if w[1] % 2 == 1 {
            LinkKind::Strong
        } else {
            LinkKind::Weak
        };
        step.links.push(Link {
            from: CellDigit {
                cell: w[0] / 2,
                digit: d,
            },
            to: CellDigit {
                cell: w[1] / 2,
                digit: d,
            },
            kind,
        });
    }
    true
}
