// The page: a protocol client's face. Everything it knows about the game (legal moves, the
// position, the result) comes from the server's `state` messages, which come from the engine.
import { alg, moveAlg, parseFen, jumped, build, arrows } from "./board.js";

const $ = (id) => document.getElementById(id);
const boardEl = $("board");
const view = { flipped: false, coords: "numeric", path: [], drag: null, pv: [] };
let state = null;
let cells = {};
let socket = null;
let clockBase = null;

const show = (m) => (view.coords === "algebraic" ? moveAlg(m) : m);
const sqName = (n) => (view.coords === "algebraic" ? alg(n) : String(n));
const squares = (m) => m.split(/[-x]/).map(Number);

function message(text) {
  $("message").textContent = text || "";
}

function send(obj) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(obj));
}

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws`);
  window.buffgreen.socket = socket;
  socket.onmessage = (ev) => receive(JSON.parse(ev.data));
  socket.onclose = () => {
    $("status").textContent = "Disconnected from the server: reload the page.";
    $("status").dataset.result = "disconnected";
  };
}

function receive(msg) {
  window.buffgreen.received += 1;
  switch (msg.type) {
    case "hello":
      $("engine-name").textContent = msg.engine;
      break;
    case "state":
      state = msg;
      window.buffgreen.state = msg;
      view.path = [];
      if (!msg.analysing) view.pv = [];
      clockBase = { at: performance.now(), clocks: msg.clocks };
      render();
      break;
    case "analysis":
      renderAnalysis(msg);
      break;
    case "error":
      message(msg.message);
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
  for (const [n, kind] of Object.entries(shown)) {
    const p = document.createElement("div");
    p.className = "piece";
    p.dataset.piece = kind;
    if (captured.has(Number(n))) p.classList.add("captured");
    if (view.path.length > 1 && Number(n) === view.path[view.path.length - 1]) p.classList.add("ghost");
    cells[n].append(p);
  }
  const last = state.ply > 0 ? squares(state.moves[state.ply - 1]) : [];
  last.forEach((n) => cells[n].classList.add("last"));
  view.path.forEach((n, i) => cells[n].classList.add(i === 0 ? "selected" : "pending"));
  const next = new Set(candidates().map((m) => squares(m)[view.path.length]));
  next.forEach((n) => (cells[n].dataset.legal = "true"));
  arrows($("arrows"), view.pv.slice(0, 3), view.flipped);
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
  if (state.result !== "ongoing") {
    st.textContent = `Game over: ${state.result}` + (state.reason ? ` (${state.reason})` : "");
  } else {
    const who = state.turn === "black" ? "Black" : "White";
    st.textContent = `${who} to move` + (state.thinking ? ": the engine is thinking" : "") +
      (state.analysing ? " (analysing)" : "");
  }
}

function renderMoves() {
  const ol = $("moves");
  ol.replaceChildren();
  const startWhite = state.start.startsWith("W");
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
  const spent = performance.now() - clockBase.at;
  const val = (side) => c[side] - (c.running === side ? spent : 0);
  const [t, b] = view.flipped ? ["black", "white"] : ["white", "black"];
  top.textContent = `${t === "black" ? "Black" : "White"} ${fmtClock(val(t))}`;
  bottom.textContent = `${b === "black" ? "Black" : "White"} ${fmtClock(val(b))}`;
  top.dataset.clock = t; bottom.dataset.clock = b;
  top.classList.toggle("running", c.running === t);
  bottom.classList.toggle("running", c.running === b);
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
    view.pv = best.pv;
    arrows($("arrows"), view.pv.slice(0, 3), view.flipped);
  }
}

/** A square chosen by click or drop. */
function choose(n) {
  if (!state) return;
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
  const rules = $("rules").value;
  const sides = $("sides").value;
  const fen = $("new-fen").value.trim();
  send({
    type: "new",
    rules: {
      backwardCapture: rules === "bg" || rules === "short",
      longKings: rules === "bg" || rules === "forward",
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
window.buffgreen = { socket: null, state: null, received: 0, send };
connect();
