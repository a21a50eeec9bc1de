// The page: a protocol client's face. Everything it knows about the game (legal moves, the
// position, the result) comes from the server's `state` messages, which come from the engine.
import { alg, moveAlg, parseFen, jumped, build, arrows } from "./board.js";

const $ = (id) => document.getElementById(id);
const boardEl = $("board");
const view = { flipped: false, coords: "numeric", path: [], drag: null, best: [], sidesKey: "" };
let state = null;
let cells = {};
let socket = null;
let clockBase = null;

// A capture's separator in algebraic squares: the rule set's own (lidraughts' `:` for Russian
// and Brazilian), `x` for those written in numbers.
const capSep = () => (state && state.rules.notation === "algebraic" ? ":" : "x");
const show = (m) => (view.coords === "algebraic" ? moveAlg(m, capSep()) : m);
const sqName = (n) => (view.coords === "algebraic" ? alg(n) : String(n));
const squares = (m) => m.split(/[-x]/).map(Number);

function message(text) {
  $("message").textContent = text || "";
}

function send(obj) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(obj));
}

// The game is kept in the browser after every state, so that a reload resumes it.
const SAVE_KEY = "buffgreen.game";
let resumed = false;

function save() {
  if (!state || state.starting) return;
  const { rules, start, moves, ply, sides, level } = state;
  try {
    localStorage.setItem(SAVE_KEY, JSON.stringify({ rules, start, moves, ply, engine: sides, level }));
  } catch (e) { /* storage full or off: the game is only not kept */ }
}

/** Once the engine is ready, asks the server to go on with the saved game, if any. */
function resume() {
  resumed = true;
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(SAVE_KEY)); } catch (e) { saved = null; }
  if (saved && Array.isArray(saved.moves) && saved.moves.length > 0) {
    send({ type: "resume", ...saved });
    return true;
  }
  return false;
}

/** True while a game is going on that a closed tab would lose. */
function unfinished() {
  return !!state && state.result === "ongoing" && state.moves.length > 0;
}

window.addEventListener("beforeunload", (ev) => {
  if (unfinished()) {
    save();
    ev.preventDefault();
    ev.returnValue = "";
  }
});

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws`);
  window.buffgreen.socket = socket;
  socket.onmessage = (ev) => receive(JSON.parse(ev.data));
  socket.onclose = () => {
    $("status").textContent = "Disconnected from the server (stopped, or too many pages open): reload the page.";
    $("status").dataset.result = "disconnected";
  };
}

function receive(msg) {
  window.buffgreen.received += 1;
  switch (msg.type) {
    case "hello":
      $("engine-name").textContent = msg.engine;
      break;
    case "state": {
      const before = state;
      state = msg;
      window.buffgreen.state = msg;
      view.path = [];
      if (!msg.analysing) {
        view.best = [];
        $("lines").replaceChildren();
        gauge(null);
      }
      autoFlip();
      // A new rule set shows its own notation (the button still switches it).
      if (!before || before.rules.variant !== msg.rules.variant) view.coords = msg.rules.notation;
      clockBase = { at: performance.now(), clocks: msg.clocks };
      // The first state of a ready engine: go on with the game saved before a reload; the
      // saved game is written over only once that answer has come.
      if (!msg.starting && !msg.dead && !resumed) view.resuming = resume();
      else view.resuming = false;
      render();
      if (!view.resuming) save();
      // One move on (played, or redone): it slides and clicks.
      if (before && msg.start === before.start && msg.ply === before.ply + 1) moved(msg.moves[msg.ply - 1]);
      premoveNow();
      break;
    }
    case "analysis":
      renderAnalysis(msg);
      break;
    case "diagnostics":
      renderDiagnostics(msg);
      break;
    case "error":
      // The server's words for a message it refused, said for a person.
      message(msg.message.replace(/^bad message: /, "Not accepted: "));
      view.resuming = false;
      // A refused move leaves nothing selected.
      if (view.path.length) { view.path = []; render(); }
      break;
    case "engine_dead":
      message(msg.message);
      break;
    case "pdn":
      $("pdn").value = msg.text;
      const a = $("pdn-download");
      a.href = URL.createObjectURL(new Blob([msg.text], { type: "application/x-pdn" }));
      a.hidden = false;
      break;
  }
}

// Sounds and sliding pieces, each can be turned off; kept in the browser.
const SETTINGS_KEY = "buffgreen.settings";
const settings = { sound: true, slide: true };
try { Object.assign(settings, JSON.parse(localStorage.getItem(SETTINGS_KEY)) || {}); } catch (e) { /* defaults */ }
let audio = null;

/** A move was played on the board: it slides from its first square, and clicks. */
function moved(m) {
  const sq = squares(m);
  const from = cells[sq[0]], to = cells[sq[sq.length - 1]];
  const piece = to && to.querySelector(".piece");
  if (settings.slide && from && piece && piece.animate) {
    const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
    piece.animate([{ transform: `translate(${a.left - b.left}px, ${a.top - b.top}px)` }, { transform: "none" }],
      { duration: 160, easing: "ease-out" });
    window.buffgreen.slides += 1;
  }
  if (settings.sound && window.AudioContext) {
    try {
      audio = audio || new AudioContext();
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = m.includes("x") ? 330 : 520;
      g.gain.setValueAtTime(0.15, audio.currentTime);
      g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.08);
      o.connect(g).connect(audio.destination);
      o.start();
      o.stop(audio.currentTime + 0.08);
      window.buffgreen.sounds += 1;
    } catch (e) { /* no audio here: silence */ }
  }
}

/** A premove entered during the engine's turn, played once it is the human's turn. */
function premoveNow() {
  if (!view.premove || !humanToMove()) return;
  const [from, to] = view.premove;
  view.premove = null;
  const fits = state.legal.filter((m) => { const sq = squares(m); return sq[0] === from && sq[sq.length - 1] === to; });
  if (fits.length === 1) {
    send({ type: "move", move: fits[0] });
  } else {
    message(`Premove ${sqName(from)}-${sqName(to)} dropped: not a legal move now`);
    render();
  }
}

/** During the engine's move: the human's piece and a square, kept as a premove. */
function choosePremove(n) {
  const human = state.sides.black ? "white" : "black";
  const piece = parseFen(state.fen)[n];
  if (!view.premove || view.premove.length === 2) {
    view.premove = piece && piece.endsWith(human) ? [n] : null;
  } else if (n === view.premove[0]) {
    view.premove = null;
  } else {
    view.premove = [view.premove[0], n];
  }
  render();
}

/** The human's side at the bottom: when the engine plays only White, Black is the human's. */
function autoFlip() {
  const key = `${state.sides.black} ${state.sides.white}`;
  if (key === view.sidesKey) return;
  view.sidesKey = key;
  view.flipped = state.sides.white && !state.sides.black;
}

function humanToMove() {
  return state && state.result === "ongoing" && !state.thinking && !state.sides[state.turn];
}

/** Legal moves that begin with the squares entered so far. */
function candidates() {
  if (!humanToMove()) return [];
  return state.legal.filter((m) => {
    const sq = squares(m);
    return view.path.every((s, i) => sq[i] === s) && sq.length > view.path.length;
  });
}

function render() {
  if (!state) return;
  // The cells stay (automation may hold them) unless the orientation or the labels change.
  const layout = `${view.flipped} ${view.coords}`;
  if (view.layout !== layout) {
    cells = build(boardEl, view.flipped, view.coords);
    view.layout = layout;
  }
  for (const cell of Object.values(cells)) {
    cell.querySelectorAll(".piece").forEach((p) => p.remove());
    cell.classList.remove("last", "selected", "pending");
    delete cell.dataset.legal;
  }
  boardEl.dataset.turn = state.turn;
  // White's share grows from White's edge.
  $("gauge").classList.toggle("flipped", view.flipped);
  const pieces = parseFen(state.fen);
  // A capture being entered: the piece on its last landing square, the jumped ones faded.
  const shown = { ...pieces };
  const captured = new Set();
  if (view.path.length > 1) {
    for (let i = 1; i < view.path.length; i++) {
      jumped(view.path[i - 1], view.path[i], pieces).forEach((n) => captured.add(n));
    }
    shown[view.path[view.path.length - 1]] = pieces[view.path[0]];
    delete shown[view.path[0]];
  }
  // Screen readers hear each square's number, name and piece.
  for (const [n, cell] of Object.entries(cells)) {
    const kind = shown[n];
    cell.setAttribute("aria-label", `${n} ${alg(Number(n))}` + (kind ? `, ${kind.replace("-", " ")}` : ", empty"));
  }
  for (const [n, kind] of Object.entries(shown)) {
    const p = document.createElement("div");
    p.className = "piece";
    p.dataset.piece = kind;
    if (captured.has(Number(n))) p.classList.add("captured");
    if (view.path.length > 1 && Number(n) === view.path[view.path.length - 1]) p.classList.add("ghost");
    cells[n].append(p);
  }
  const last = state.ply > 0 ? squares(state.moves[state.ply - 1]) : [];
  last.forEach((n, i) => cells[n].classList.add("last", i === 0 ? "from" : "to"));
  view.path.forEach((n, i) => cells[n].classList.add(i === 0 ? "selected" : "pending"));
  for (const cell of Object.values(cells)) delete cell.dataset.premove;
  if (view.premove && !humanToMove()) view.premove.forEach((n) => (cells[n].dataset.premove = "true"));
  const next = new Set(candidates().map((m) => squares(m)[view.path.length]));
  next.forEach((n) => (cells[n].dataset.legal = "true"));
  // The full capture's destination too, where it names one capture (lidraughts' entry).
  if (view.path.length) finals().forEach((n) => (cells[n].dataset.legal = "true"));
  arrows($("arrows"), view.best, view.flipped);
  renderStatus();
  renderMoves();
  renderClocks();
  $("fen").value = state.fen;
  $("btn-undo").disabled = state.ply === 0;
  $("btn-first").disabled = state.ply === 0;
  $("btn-redo").disabled = state.ply >= state.moves.length;
  $("btn-last").disabled = state.ply >= state.moves.length;
  $("btn-stop").disabled = !state.analysing && !state.thinking;
  $("dead").hidden = !state.dead;
  $("dead-text").textContent = state.dead ? `The engine stopped: ${state.dead}` : "";
  $("btn-coords").textContent = view.coords === "algebraic" ? "a1-h8" : "1-32";
  window.buffgreen.renderedAt = performance.now();
}

function renderStatus() {
  const st = $("status");
  st.dataset.result = state.result;
  const who = state.turn === "black" ? "Black" : "White";
  if (state.starting) {
    st.textContent = "Starting the engine...";
  } else if (state.result !== "ongoing") {
    st.textContent = `Game over: ${state.result}` + (state.reason ? `: ${state.reason}` : "");
  } else if (state.dead) {
    st.textContent = `${who} to move; the engine is not running`;
  } else {
    st.textContent = `${who} to move` + (state.thinking ? ": the engine is thinking" : "") +
      (state.analysing ? " (analysing)" : "") + (state.waiting ? `: ${state.waiting}` : "");
  }
  st.dataset.waiting = state.waiting ? "true" : "false";
}

function renderMoves() {
  const ol = $("moves");
  ol.replaceChildren();
  // A move pair starts with the side the rule set moves first (White in Russian and
  // Brazilian); a start with the other side to move leaves the pair's first place empty.
  const startWhite = state.start.startsWith("W") !== Boolean(state.rules.whiteFirst);
  let li = null;
  state.moves.forEach((m, i) => {
    const k = i + (startWhite ? 1 : 0);
    if (!li || k % 2 === 0) {
      li = document.createElement("li");
      ol.append(li);
      if (k % 2 === 1) li.append(document.createElement("span"));
    }
    const s = document.createElement("span");
    s.textContent = show(m);
    s.dataset.ply = String(i + 1);
    if (i + 1 === state.ply) s.classList.add("current");
    if (i + 1 > state.ply) s.classList.add("future");
    s.onclick = () => send({ type: "jump", ply: i + 1 });
    li.append(s);
  });
  const cur = ol.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  // The other lines, each from the ply where it leaves this one; a click makes it the game's.
  const box = $("variations");
  box.replaceChildren(...(state.variations || []).map((v) => {
    const d = document.createElement("button");
    d.type = "button";
    d.className = "variation";
    d.dataset.variation = String(v.index);
    const k = v.ply + (startWhite ? 1 : 0);
    const num = `${Math.floor(k / 2) + 1}.${k % 2 ? ".." : ""}`;
    d.textContent = `${num} ${v.moves.slice(0, 8).map(show).join(" ")}${v.moves.length > 8 ? " ..." : ""}`;
    d.title = "play on in this line (the game's line is kept as a variation)";
    d.onclick = () => send({ type: "variation", index: v.index });
    return d;
  }));
}

function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` + (ms < 10000 ? `.${Math.floor((ms % 1000) / 100)}` : "");
}

function renderClocks() {
  const top = $("clock-top"), bottom = $("clock-bottom");
  const c = clockBase && clockBase.clocks;
  if (!c) { top.textContent = ""; bottom.textContent = ""; return; }
  // A stopped clock (the game over) stays as the server sent it.
  const spent = c.running ? performance.now() - clockBase.at : 0;
  const val = (side) => c[side] - (c.running === side ? spent : 0);
  const [t, b] = view.flipped ? ["black", "white"] : ["white", "black"];
  top.textContent = `${t === "black" ? "Black" : "White"} ${fmtClock(val(t))}`;
  bottom.textContent = `${b === "black" ? "Black" : "White"} ${fmtClock(val(b))}`;
  top.dataset.clock = t; bottom.dataset.clock = b;
  top.classList.toggle("running", c.running === t);
  bottom.classList.toggle("running", c.running === b);
}

/** The evaluation gauge: White's share from the best line's score (`null` clears it). */
function gauge(line, turn) {
  const g = $("gauge");
  if (!line) {
    g.dataset.eval = "";
    g.querySelector(".fill").style.height = "50%";
    g.title = "no evaluation";
    $("eval-text").textContent = "";
    return;
  }
  // From the side to move's view to White's: a mate or a table result fills the gauge.
  let cp = line.mate != null ? Math.sign(line.mate) * 10000 : (line.cp || 0);
  if (turn === "black") cp = -cp;
  const white = 50 + 50 * Math.tanh(cp / 400);
  g.dataset.eval = (cp >= 0 ? "+" : "") + (Math.abs(cp) >= 10000 ? (cp > 0 ? "W" : "B") : (cp / 100).toFixed(2));
  g.querySelector(".fill").style.height = `${white}%`;
  g.title = `White's view: ${g.dataset.eval} (${line.score} for ${turn})`;
  // The side ahead, named: the gauge alone does not say which colour is which.
  const ahead = cp > 0 ? "White" : cp < 0 ? "Black" : "Neither side";
  $("eval-text").textContent = `${ahead} ahead: ${line.score} for ${turn === "black" ? "Black" : "White"} to move`;
}

function renderAnalysis(msg) {
  const ol = $("lines");
  ol.replaceChildren();
  for (const l of msg.lines) {
    const li = document.createElement("li");
    li.dataset.multipv = String(l.multipv);
    const tb = l.tbhits != null ? ` tbhits ${l.tbhits}` : "";
    li.innerHTML = `<b></b> <span class="pv"></span> <small></small>`;
    li.querySelector("b").textContent = l.score;
    li.querySelector(".pv").textContent = l.pv.map(show).join(" ");
    li.querySelector("small").textContent = `depth ${l.depth} nodes ${l.nodes}${tb}`;
    ol.append(li);
  }
  const best = msg.lines[0];
  if (best && best.wdl) {
    const [w, d, l] = best.wdl;
    const bar = $("wdl");
    bar.querySelector(".w").style.width = `${w / 10}%`;
    bar.querySelector(".d").style.width = `${d / 10}%`;
    bar.querySelector(".l").style.width = `${l / 10}%`;
    bar.title = `${msg.turn} to move: win ${w / 10}%, draw ${d / 10}%, loss ${l / 10}%`;
  }
  if (best && state && state.analysing) {
    gauge(best, msg.turn);
    // Each line's best move, the best line's first.
    view.best = msg.lines.filter((l) => l.pv.length).map((l) => l.pv[0]);
    arrows($("arrows"), view.best, view.flipped);
  }
}

function renderDiagnostics(d) {
  const time = (t) => new Date(t).toISOString().slice(11, 23);
  const text = [
    `engine: ${d.engine} (id name: ${d.id || "-"}), ${d.state}${d.dead ? ": " + d.dead : ""}`,
    `command: ${d.command.join(" ")}`,
    `options set: ${d.options.join(" ") || "none"}`,
    "announced:", ...d.announced.map((l) => "  " + l),
    `errors (${d.errors.length}):`, ...d.errors.map((e) => `  ${time(e.t)} ${e.text}`),
    `protocol lines (last ${d.lines.length}; > to the engine, < from it):`,
    ...d.lines.map((l) => `  ${time(l.t)} ${l.dir === "out" ? ">" : "<"} ${l.text}`),
  ].join("\n");
  $("diag-text").value = text;
  window.buffgreen.diagnostics = d;
}

/** The full capture's last square when it is the only capture from here ending there. */
function finals() {
  const ends = {};
  for (const m of candidates()) {
    const sq = squares(m);
    if (sq.length > view.path.length + 1) {
      const end = sq[sq.length - 1];
      ends[end] = (ends[end] || 0) + 1;
    }
  }
  return Object.keys(ends).filter((n) => ends[n] === 1).map(Number);
}

/** A square chosen by click or drop. */
function choose(n) {
  if (!state) return;
  // One human against the engine, the engine thinking: a premove.
  if (state.thinking && state.result === "ongoing" && state.sides.black !== state.sides.white) {
    choosePremove(n);
    return;
  }
  if (!humanToMove()) {
    message(state.result !== "ongoing" ? "The game is over." : "It is not your move.");
    return;
  }
  const cands = candidates();
  if (view.path.length === 0) {
    if (cands.some((m) => squares(m)[0] === n)) {
      view.path = [n];
      message("");
    } else if (parseFen(state.fen)[n]) {
      message(`No legal move from ${sqName(n)}; legal moves: ${state.legal.map(show).join(" ")}`);
    }
    render();
    return;
  }
  const next = cands.filter((m) => squares(m)[view.path.length] === n);
  if (next.length === 0 && finals().includes(n)) {
    const full = cands.find((m) => { const sq = squares(m); return sq[sq.length - 1] === n; });
    message("");
    window.buffgreen.movedAt = performance.now();
    send({ type: "move", move: full });
    return;
  }
  if (next.length === 0) {
    if (view.path.length === 1 && state.legal.some((m) => squares(m)[0] === n)) {
      view.path = [n];
      message("");
    } else if (view.path.length === 1 && n === view.path[0]) {
      view.path = [];
    } else {
      const tried = [...view.path, n].map(sqName).join(view.path.length > 1 ? "x" : "-");
      message(`Illegal move ${tried}; legal moves: ${state.legal.map(show).join(" ")}`);
      view.path = [];
    }
    render();
    return;
  }
  view.path.push(n);
  const done = next.find((m) => squares(m).length === view.path.length);
  if (done && next.length === 1) {
    message("");
    window.buffgreen.movedAt = performance.now();
    send({ type: "move", move: done });
    return;
  }
  render();
}

function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const sq = el && el.closest(".sq");
  return sq && sq.dataset.num ? Number(sq.dataset.num) : 0;
}

boardEl.addEventListener("pointerdown", (ev) => {
  const n = squareAt(ev.clientX, ev.clientY);
  if (!n || !state) return;
  const piece = cells[n] && cells[n].querySelector(".piece");
  const mine = piece && humanToMove() && state.legal.some((m) => squares(m)[0] === n);
  if (mine && view.path.length <= 1) {
    // Start a drag; a release on the same square is a click.
    view.path = [];
    choose(n);
    const ghost = document.createElement("div");
    ghost.className = "piece drag";
    ghost.dataset.piece = piece.dataset.piece;
    ghost.style.left = ev.clientX + "px";
    ghost.style.top = ev.clientY + "px";
    document.body.append(ghost);
    view.drag = { from: n, ghost };
  } else {
    choose(n);
  }
});
// Keyboard play: Tab to a square, Enter or Space chooses it as a click would.
boardEl.addEventListener("keydown", (ev) => {
  const sq = ev.target.closest && ev.target.closest(".sq[data-num]");
  if (!sq || (ev.key !== "Enter" && ev.key !== " ")) return;
  ev.preventDefault();
  ev.stopPropagation();
  const n = Number(sq.dataset.num);
  choose(n);
  // The cells stay, so the focus does; put it back if a redraw took it.
  if (cells[n] && document.activeElement !== cells[n]) cells[n].focus();
});
window.addEventListener("pointermove", (ev) => {
  if (!view.drag) return;
  view.drag.ghost.style.left = ev.clientX + "px";
  view.drag.ghost.style.top = ev.clientY + "px";
});
window.addEventListener("pointerup", (ev) => {
  if (!view.drag) return;
  const { from, ghost } = view.drag;
  view.drag = null;
  ghost.remove();
  const n = squareAt(ev.clientX, ev.clientY);
  if (n && n !== from) choose(n);
});

function newGame() {
  // The rule set by its key (the server writes the options from the rule sets' table and
  // plays the game under the rule set the key names).
  const sides = $("sides").value;
  const fen = $("new-fen").value.trim();
  send({
    type: "new",
    rules: {
      variant: $("rules").value,
      drawHalfMoves: Number($("draw").value),
      losing: $("losing").checked,
    },
    engine: { black: sides === "black" || sides === "both", white: sides === "white" || sides === "both" },
    level: { kind: $("level-kind").value, value: Number($("level-value").value) },
    clock: $("use-clock").checked
      ? { baseMs: Math.round(Number($("clock-min").value) * 60000), incMs: Math.round(Number($("clock-inc").value) * 1000) }
      : null,
    fen: fen || null,
  });
  message("");
}

$("level-kind").onchange = () => {
  $("level-value").value = { elo: 1500, movetime: 1000, nodes: 20000 }[$("level-kind").value];
};
$("btn-new").onclick = () => $("new-dialog").showModal();
$("new-form").addEventListener("submit", (ev) => {
  if (ev.submitter && ev.submitter.value === "start") newGame();
});
$("btn-flip").onclick = () => { view.flipped = !view.flipped; render(); };
$("btn-coords").onclick = () => {
  view.coords = view.coords === "numeric" ? "algebraic" : "numeric";
  render();
};
/** Shows the game after `ply` moves (the keys and the wheel). */
function step(ply) {
  if (state && ply >= 0 && ply <= state.moves.length && ply !== state.ply) send({ type: "jump", ply });
}

document.addEventListener("keydown", (ev) => {
  if (!state || ev.target.closest("input, textarea, select, dialog") || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const to = { ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.moves.length }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  step(to);
});
for (const el of [boardEl, $("moves")]) {
  el.addEventListener("wheel", (ev) => {
    if (!state || ev.deltaY === 0) return;
    ev.preventDefault();
    step(state.ply + Math.sign(ev.deltaY));
  }, { passive: false });
}

$("diag-box").addEventListener("toggle", () => { if ($("diag-box").open) send({ type: "diagnostics" }); });
$("btn-diag").onclick = () => send({ type: "diagnostics" });
$("btn-diag-copy").onclick = async () => {
  const t = $("diag-text");
  try { await navigator.clipboard.writeText(t.value); message("Diagnostics copied."); }
  catch (e) { t.select(); document.execCommand("copy"); }
};
setInterval(() => { if ($("diag-box").open) send({ type: "diagnostics" }); }, 1000);

for (const key of ["sound", "slide"]) {
  const box = $(`opt-${key}`);
  box.checked = settings[key];
  box.onchange = () => {
    settings[key] = box.checked;
    try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings)); } catch (e) { /* not kept */ }
  };
}

$("btn-undo").onclick = () => send({ type: "undo" });
$("btn-redo").onclick = () => send({ type: "redo" });
$("btn-first").onclick = () => send({ type: "jump", ply: 0 });
$("btn-last").onclick = () => state && send({ type: "jump", ply: state.moves.length });
$("btn-go").onclick = () => send({ type: "go" });
$("btn-analyse").onclick = () => send({ type: "analyse", multipv: Number($("multipv").value) });
$("btn-stop").onclick = () => send({ type: "stop" });
$("btn-restart").onclick = () => send({ type: "restart" });
$("btn-fen").onclick = () => send({ type: "fen", fen: $("fen").value });
$("btn-export").onclick = () => send({ type: "pdn_export" });
$("btn-import").onclick = () => send({ type: "pdn_import", text: $("pdn").value });
$("pdn-file").onchange = async () => {
  const f = $("pdn-file").files[0];
  if (f) send({ type: "pdn_import", text: await f.text() });
};
setInterval(renderClocks, 200);

// For tests and users' own automation: the socket, the last state, a message count.
window.buffgreen = { socket: null, state: null, received: 0, send, slides: 0, sounds: 0 };
connect();
