// eboard's pages: live updates by server-sent events, and the archive's replay.
// Each event is JSON {"parts": {elementId: html}}: the page swaps the fragments in.
// A fragment for an element the page does not have yet (a new board in the club room)
// is added to #room (a round's row in its board number's place).  Every update fires "eboard-update" on the document.
// Clocks (.clocks, render.clocks) are counted down here between updates: the running
// clock's figure is as of data-at, in the server's time; the page knows the server's
// time from its body's data-now and each event's "now", plus the time it measured itself
// since (performance.now()), never from the browser's own clock.  A simple delay's
// seconds still free at data-at (data-delay, ms) are spent before the figure moves.
"use strict";

let serverAt = {server: Number(document.body.dataset.now || 0) * 1000, local: performance.now()};

function serverNow() {
  return serverAt.server + (performance.now() - serverAt.local);
}

function clockText(ms) {  // as render.clock_text
  if (ms < 10000) {
    const tenths = Math.floor(Math.max(0, ms) / 100);
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const all = Math.floor(ms / 1000), h = Math.floor(all / 3600), m = Math.floor(all % 3600 / 60), s = all % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

function tick() {
  for (const box of document.querySelectorAll(".clocks")) {
    const running = box.dataset.running;
    if (!running) continue;
    const elapsed = Math.max(0, serverNow() - Number(box.dataset.at) * 1000 - Number(box.dataset.delay || 0));
    const clock = box.querySelector(`.clock[data-side="${running}"]`);
    if (!clock) continue;
    const ms = Math.max(0, Number(clock.dataset.ms) - elapsed);
    const text = clockText(ms), time = clock.querySelector(".time");
    if (time.textContent !== text) time.textContent = text;
    clock.classList.toggle("flagged", ms <= 0);
    clock.querySelector(".flag").hidden = ms > 0;
  }
}

function swap(parts) {
  for (const [id, html] of Object.entries(parts)) {
    let el = document.getElementById(id);
    if (!el) {
      const room = document.getElementById("room");
      if (!room) continue;
      const none = document.getElementById("none");
      if (none) none.remove();
      el = document.createElement("div");
      el.id = id;
      el.innerHTML = html;
      room.insertBefore(el, after(room, order(el)));
      continue;
    }
    el.innerHTML = html;
  }
}

function order(el) {  // a round's row: its board number (render.hall_row's data-order)
  const first = el.firstElementChild;
  return first && first.dataset.order !== undefined ? Number(first.dataset.order) : Infinity;
}

function after(room, n) {  // the first child that goes after a row numbered n (null: the end)
  for (const child of room.children) {
    if (order(child) > n) return child;
  }
  return null;
}

function live() {
  const url = document.body.dataset.stream;
  const dot = document.getElementById("live");
  if (!url) { if (dot) dot.hidden = true; return; }
  const source = new EventSource(url);
  source.onopen = () => dot && dot.classList.add("on");
  source.onerror = () => dot && dot.classList.remove("on");
  source.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.now) serverAt = {server: msg.now * 1000, local: performance.now()};
    swap(msg.parts || {});
    tick();
    document.dispatchEvent(new CustomEvent("eboard-update", {detail: msg}));
  };
}

function replay() {
  const box = document.getElementById("replay");
  if (!box) return;
  const game_id = box.dataset.game, plies = Number(box.dataset.plies);
  let ply = Number(document.getElementById("ply").dataset.ply || plies);
  const cache = new Map();
  async function show(n) {
    ply = Math.max(0, Math.min(plies, n));
    if (!cache.has(ply)) {
      const r = await fetch(`/archive/${game_id}/ply/${ply}`);
      cache.set(ply, await r.text());
    }
    document.getElementById("board").innerHTML = cache.get(ply);
    const label = document.getElementById("ply");
    label.dataset.ply = ply;
    label.textContent = "start";
    for (const b of document.querySelectorAll("button.ply")) {
      b.classList.toggle("last", Number(b.dataset.ply) === ply);
      if (Number(b.dataset.ply) === ply) label.textContent = b.dataset.label;
    }
    document.dispatchEvent(new CustomEvent("eboard-update", {detail: {ply}}));
  }
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(ply - 1);
  document.getElementById("next").onclick = () => show(ply + 1);
  document.getElementById("last").onclick = () => show(plies);
  document.getElementById("moves").addEventListener("click", (e) => {
    const b = e.target.closest("button.ply");
    if (b) show(Number(b.dataset.ply));
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea")) return;
    const to = {ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: plies}[e.key];
    if (to !== undefined) { e.preventDefault(); show(to); }
  });
}

live();
replay();
tick();
setInterval(tick, 100);
