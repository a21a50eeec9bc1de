// The board: 64 cells, the 32 dark ones numbered 1-32 as in protocol.md (1 is b8, 32 is g1).

/** Row 0-7 (rank 8 first) and column 0-7 (file a first) of square n. */
export function rc(n) {
  const row = Math.floor((n - 1) / 4);
  const col = ((n - 1) % 4) * 2 + (row % 2 === 0 ? 1 : 0);
  return [row, col];
}

/** The square number at row, col, or 0 for a light square. */
export function num(row, col) {
  return (row + col) % 2 === 1 ? row * 4 + Math.floor(col / 2) + 1 : 0;
}

/** Algebraic name of square n. */
export function alg(n) {
  const [row, col] = rc(n);
  return "abcdefgh"[col] + (8 - row);
}

/** A long numeric move written with algebraic squares, `capture` between a capture's squares. */
export function moveAlg(m, capture = "x") {
  const sep = m.includes("x") ? capture : "-";
  return m.split(/[-x]/).map((s) => alg(Number(s))).join(sep);
}

/** Pieces of a canonical FEN: {square: "man-black" | "king-white" ...}. */
export function parseFen(fen) {
  const pieces = {};
  for (const section of fen.split(":").slice(1)) {
    const color = section[0] === "W" ? "white" : "black";
    for (const item of section.slice(1).split(",")) {
      if (!item) continue;
      const king = item.startsWith("K");
      const n = Number(king ? item.slice(1) : item);
      if (n >= 1 && n <= 32) pieces[n] = (king ? "king-" : "man-") + color;
    }
  }
  return pieces;
}

/** The squares a capture jumps between landings a and b (the pieces on that diagonal). */
export function jumped(a, b, pieces) {
  const [r0, c0] = rc(a);
  const [r1, c1] = rc(b);
  const dr = Math.sign(r1 - r0), dc = Math.sign(c1 - c0);
  const out = [];
  for (let r = r0 + dr, c = c0 + dc; r !== r1; r += dr, c += dc) {
    const n = num(r, c);
    if (n && pieces[n]) out.push(n);
  }
  return out;
}

/** Builds the 64 cells in `el`; returns {cells: {n: div}} for the dark ones. */
export function build(el, flipped, coords) {
  el.replaceChildren();
  el.dataset.flipped = String(flipped);
  const cells = {};
  for (let i = 0; i < 64; i++) {
    const row = flipped ? 7 - Math.floor(i / 8) : Math.floor(i / 8);
    const col = flipped ? 7 - (i % 8) : i % 8;
    const n = num(row, col);
    const d = document.createElement("div");
    d.className = "sq " + (n ? "dark" : "light");
    const name = "abcdefgh"[col] + (8 - row);
    d.dataset.square = name;
    if (n) {
      d.dataset.num = String(n);
      d.setAttribute("aria-label", `${n} ${name}`);
      d.tabIndex = 0;
      d.setAttribute("role", "gridcell");
      // Square numbers inside in numeric notation; algebraic names are the edges' own.
      if (coords !== "algebraic") {
        const label = document.createElement("span");
        label.className = "label";
        label.textContent = String(n);
        d.append(label);
      }
      cells[n] = d;
    }
    el.append(d);
  }
  // Files and ranks outside the board, every one, as the board is turned.
  const files = [..."abcdefgh"], ranks = [..."87654321"];
  if (flipped) { files.reverse(); ranks.reverse(); }
  const edge = (id, names) => {
    const box = document.getElementById(id);
    if (box) box.replaceChildren(...names.map((t) => Object.assign(document.createElement("span"), { textContent: t })));
  };
  edge("files", files);
  edge("ranks", ranks);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.id = "arrows";
  svg.setAttribute("viewBox", "0 0 8 8");
  el.append(svg);
  return cells;
}

/** Centre of square n in board units (0-8), as drawn. */
export function centre(n, flipped) {
  let [row, col] = rc(n);
  if (flipped) { row = 7 - row; col = 7 - col; }
  return [col + 0.5, row + 0.5];
}

/** Draws an arrow for each move (long numeric: each analysis line's best move), faded by rank. */
export function arrows(svg, moves, flipped) {
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  svg.insertAdjacentHTML("beforeend",
    '<defs><marker id="head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="#f59e0b"/></marker></defs>');
  moves.forEach((m, i) => {
    const sq = m.split(/[-x]/).map(Number);
    const pts = sq.map((n) => centre(n, flipped).join(",")).join(" ");
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", pts);
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", i === 0 ? "#f59e0b" : "#60a5fa");
    line.setAttribute("stroke-width", "0.14");
    line.setAttribute("stroke-linecap", "round");
    line.setAttribute("opacity", String(0.9 - i * 0.2));
    line.setAttribute("marker-end", "url(#head)");
    line.dataset.pv = String(i + 1);
    svg.append(line);
  });
}
