// The board: an ARIA grid of n×n cells labelled r1c1..rNcN whose text is the
// cell's digit, and an SVG overlay (hidden from assistive technology) on
// which hints, explained steps and traces are drawn.

const SVG = 'http://www.w3.org/2000/svg';

/** The character of digit d: 1-9, then A for 10 ... ('' for 0). */
export function digitChar(d) {
  if (d <= 0) return '';
  return d <= 9 ? String(d) : String.fromCharCode(55 + d);
}

/** The digit of a character (0 for a blank, -1 for anything else). */
export function charDigit(ch) {
  if (ch === '.' || ch === '0' || ch === '_') return 0;
  if (ch >= '1' && ch <= '9') return ch.charCodeAt(0) - 48;
  const u = ch.toUpperCase();
  if (u >= 'A' && u <= 'P') return u.charCodeAt(0) - 55;
  return -1;
}

export function boxSide(n) {
  return Math.round(Math.sqrt(n));
}

/**
 * Build the board's cells for side n; `onCell(i, event)` gets clicks.
 * `regions` is each cell's region (boxes or a jigsaw's), drawn with thick
 * lines between regions; null draws none.
 */
export function buildBoard(board, overlay, n, onCell, regions) {
  board.replaceChildren();
  board.style.setProperty('--n', n);
  const cells = [];
  for (let r = 0; r < n; r++) {
    const row = document.createElement('div');
    row.setAttribute('role', 'row');
    for (let c = 0; c < n; c++) {
      const i = r * n + c;
      const cell = document.createElement('div');
      cell.setAttribute('role', 'gridcell');
      cell.setAttribute('aria-label', `r${r + 1}c${c + 1}`);
      cell.className = 'cell';
      if (regions && c < n - 1 && regions[i] !== regions[i + 1]) cell.classList.add('box-right');
      if (regions && r < n - 1 && regions[i] !== regions[i + n]) cell.classList.add('box-bottom');
      if (c === n - 1) cell.classList.add('last-col');
      if (r === n - 1) cell.classList.add('last-row');
      cell.tabIndex = i === 0 ? 0 : -1;
      cell.dataset.cell = String(i);
      cell.addEventListener('pointerdown', (e) => onCell(i, e));
      row.appendChild(cell);
      cells.push(cell);
    }
    board.appendChild(row);
  }
  overlay.setAttribute('viewBox', `0 0 ${n} ${n}`);
  overlay.replaceChildren();
  return cells;
}

/** The masks' digits as text: "1 3 7". */
export function maskText(mask, n, sep) {
  const out = [];
  for (let d = 1; d <= n; d++) if (mask & (1 << d)) out.push(digitChar(d));
  return out.join(sep);
}

/** The cells of a house ({row: i}, {col: i} or {box: i}). */
export function houseCells(house, n) {
  const b = boxSide(n);
  const out = [];
  if ('row' in house) for (let c = 0; c < n; c++) out.push(house.row * n + c);
  else if ('col' in house) for (let r = 0; r < n; r++) out.push(r * n + house.col);
  else if ('box' in house) {
    const r0 = Math.floor(house.box / b) * b;
    const c0 = (house.box % b) * b;
    for (let r = r0; r < r0 + b; r++) for (let c = c0; c < c0 + b; c++) out.push(r * n + c);
  }
  return out;
}

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Where candidate d sits in a cell (as a fraction of the cell). */
function candPos(d, n) {
  const b = Math.ceil(Math.sqrt(n));
  const k = d - 1;
  return [((k % b) + 0.5) / b, (Math.floor(k / b) + 0.5) / b];
}

/**
 * Draw a picture on the overlay:
 * { candidates: pencilmark line (n³ chars) or null, step: a rater step or
 *   null, traceCell: a cell index or null }.
 * Houses are shaded, the step's cells outlined, placements circled green,
 * eliminations red, and links drawn (strong solid, weak dashed).
 */
export function draw(overlay, n, picture) {
  overlay.replaceChildren();
  if (!picture) return;
  const { candidates, step, traceCell, traceDigits, filled } = picture;
  if (step) {
    for (const h of step.houses || []) {
      for (const i of houseCells(h, n)) {
        overlay.appendChild(el('rect', { class: 'hl-house', x: i % n, y: Math.floor(i / n), width: 1, height: 1 }));
      }
    }
    for (const i of step.cells || []) {
      overlay.appendChild(el('rect', { class: 'hl-cell', x: (i % n) + 0.04, y: Math.floor(i / n) + 0.04, width: 0.92, height: 0.92 }));
    }
  }
  const keyDigits = new Set(step ? step.digits || [] : []);
  if (candidates && candidates.length === n * n * n) {
    for (let i = 0; i < n * n; i++) {
      if (filled && filled[i]) continue;
      const marks = candidates.slice(i * n, i * n + n);
      let count = 0;
      for (const ch of marks) if (ch !== '.') count++;
      if (count === 1) {
        // placed by an earlier step: drawn, not entered
        const d = charDigit(marks.replace(/\./g, ''));
        overlay.appendChild(el('text', { class: 'placed', x: (i % n) + 0.5, y: Math.floor(i / n) + 0.54 }, digitChar(d)));
      }
      if (count <= 1) continue;
      for (let d = 1; d <= n; d++) {
        if (marks[d - 1] === '.') continue;
        const [fx, fy] = candPos(d, n);
        overlay.appendChild(el('text', {
          class: keyDigits.has(d) ? 'cand key' : 'cand',
          x: (i % n) + fx, y: Math.floor(i / n) + fy,
        }, digitChar(d)));
      }
    }
  }
  if (step) {
    const r = 0.5 / Math.ceil(Math.sqrt(n)) * 0.85;
    for (const e of step.eliminations || []) {
      const [fx, fy] = candPos(e.digit, n);
      overlay.appendChild(el('circle', { class: 'elim-mark', cx: (e.cell % n) + fx, cy: Math.floor(e.cell / n) + fy, r }));
    }
    for (const p of step.placements || []) {
      overlay.appendChild(el('circle', { class: 'place-mark', cx: (p.cell % n) + 0.5, cy: Math.floor(p.cell / n) + 0.5, r: 0.4 }));
    }
    for (const l of step.links || []) {
      const [ax, ay] = candPos(l.from.digit, n);
      const [bx, by] = candPos(l.to.digit, n);
      overlay.appendChild(el('line', {
        class: l.kind === 'weak' ? 'link weak' : 'link',
        x1: (l.from.cell % n) + ax, y1: Math.floor(l.from.cell / n) + ay,
        x2: (l.to.cell % n) + bx, y2: Math.floor(l.to.cell / n) + by,
      }));
    }
  }
  if (traceDigits) {
    for (let i = 0; i < n * n; i++) {
      if (!traceDigits[i] || (filled && filled[i])) continue;
      overlay.appendChild(el('text', { class: 'placed trace', x: (i % n) + 0.5, y: Math.floor(i / n) + 0.54 }, digitChar(traceDigits[i])));
    }
  }
  if (traceCell !== null && traceCell !== undefined) {
    overlay.appendChild(el('rect', { class: 'trace-cell', x: (traceCell % n) + 0.05, y: Math.floor(traceCell / n) + 0.05, width: 0.9, height: 0.9 }));
  }
}
