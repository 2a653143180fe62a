// A seat's page: everything shown comes from the server's view of this seat (its observation and
// what the whole table may see); a click or a key sends the words of an action, the server decides.
import { el } from "./dom.js";
const parts = location.pathname.split("/");
const tableId = parts[2], secret = parts[3];
const $ = (id) => document.getElementById(id);
let cards = {}, unit = "miles", view = null, ws = null, selected = 0, retry = 0, closedForGood = false;
// A mulligan is chosen on the page (the cards to throw, then "draw back") and sent as the engine takes
// it: one "mulligan CARD" at a time, then "draw", each once the table has taken the one before.
let choosing = false, thrown = new Set(), queue = [], sentAt = -1;
// A new connection's first view is taken as a new decision even at the version this page saw last: a
// socket dropped inside a mulligan whose next step was never taken shows the mulligan's prompt again.
let rejoined = false;
const YES = new Set(["coup-fourre", "extend", "fast-play"]);  // the answers that say yes to a window

const name = (id) => (cards[id] ? cards[id].name : id);
const kind = (id) => (cards[id] ? cards[id].kind : "");
const chip = (id, cf = false) => el("span", { class: `chip k-${kind(id)}${cf ? " cf" : ""}`, text: name(id) });

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}/${secret}`);
  ws.onopen = () => { retry = 0; $("conn").textContent = "connected"; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "welcome") welcome(msg);
    else if (msg.type === "state") render(msg);
    else if (msg.type === "refused") { queue = []; say(`Refused: ${msg.message}.`, true); }
  };
  ws.onclose = (ev) => {
    if (ev.code === 4000) { closedForGood = true; $("conn").textContent = "opened in another page"; return; }
    if (ev.code === 4001) { closedForGood = true; $("conn").textContent = "this link was replaced by the host"; return; }
    if (ev.code === 1008 && ev.reason) { $("conn").textContent = `closed: ${ev.reason}`; }
    else $("conn").textContent = "reconnecting…";
    if (closedForGood) return;
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);  // rejoins where it was: the server sends the whole view again
  };
}

function send(obj) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); }
function act(action, keepQueue = false) {
  if (!keepQueue) queue = [];
  say(""); send({ type: "act", action, version: view ? view.version : -1 });
}
function say(text, refused = false) { const m = $("message"); m.textContent = text; m.className = refused ? "refused" : ""; }

function welcome(msg) {
  cards = msg.cards; unit = msg.unit;
  queue = []; sentAt = -1; rejoined = true;  // a new connection (a restarted server numbers its versions anew)
  $("title").textContent = msg.ruleset + (msg.options.length ? ` + ${msg.options.join(", ")}` : "");
  document.title = `${msg.ruleset}: ${msg.seat}`;
  $("rules").textContent = msg.rules;
  const ch = $("changes"); ch.replaceChildren();
  for (const c of msg.changes) ch.append(el("li", { text: c }));
  if (!msg.changes.length) ch.append(el("li", { text: "none: the edition as printed" }));
}

const drawChoice = (v) => v.moves.some((m) => m.op === "draw") && v.obs.decision.kind === "turn";
const inMulligan = (v) => v.moves.length > 0 && v.obs.decision.kind === "mulligan";

function render(v) {
  const myTurnNow = v.moves.length > 0 && (!view || !view.moves.length || view.obs.hand_no !== v.obs.hand_no);
  const fresh = rejoined || !view || view.version !== v.version;
  rejoined = false;
  view = v;
  if (fresh) {
    if (!queue.length && v.version !== sentAt) sentAt = -1;  // the last queued step was taken
    if (!drawChoice(v) && !inMulligan(v)) { choosing = false; thrown.clear(); }
    if (inMulligan(v) && !queue.length) choosing = true;  // a mulligan under way (a page opened mid-way)
  }
  if (queue.length && v.moves.length && v.version !== sentAt) {  // the next throw of a chosen mulligan
    const next = queue.shift();
    if (v.moves.some((m) => m.action === next)) { sentAt = v.version; act(next, true); }
    else { queue = []; say("The mulligan stopped: the table changed.", true); }
  }
  document.body.dataset.version = v.version;
  document.body.dataset.decide = v.moves.length ? "yes" : "no";  // for people using assistive tools, and tests
  document.body.dataset.handOver = v.hand_over || v.match_over ? "yes" : "no";
  const o = v.obs;
  $("you").textContent = `You are ${o.player} (side ${o.side})`;
  $("trip").textContent = `Hand ${o.hand_no + 1} · trip ${o.target} ${unit} · ${o.draw_pile} cards to draw`;
  const dp = o.discard_pile;
  $("discard").replaceChildren("Discard pile: ", dp.length ? chip(dp[dp.length - 1]) : el("span", { class: "muted", text: "empty" }),
    dp.length > 1 ? ` and ${dp.length - 1} below` : "");
  renderSides(v);
  const d = o.decision;
  $("turn").textContent = v.match_over ? "The match is over." : v.hand_over ? "The hand is over." :
    d.player === o.player ? "Your move." : `${d.player} plays now.`;
  renderHand(v, myTurnNow);
  renderPrompt(v);
  renderLog(v);
  renderSheet(v);
}

function renderSides(v) {
  const box = $("sides"); box.replaceChildren();
  for (const [s, side] of Object.entries(v.obs.sides)) {
    const seats = v.seats.filter((x) => x.side === s).map((x) => {
      const n = v.obs.hand_sizes[x.name];
      const who = x.kind === "person" ? "" : ` · ${x.kind} bot`;
      return el("div", { class: `seat${x.here ? "" : " away"}`, title: x.here ? "here" : "away",
        text: `${x.name}${x.name === v.obs.player ? " (you)" : ""}${who} · ${n} cards${x.here ? "" : " · away"}` });
    });
    const top = (pile) => (pile.length ? chip(pile[pile.length - 1]) : el("span", { class: "muted", text: "empty" }));
    const safeties = el("span");
    for (const c of side.safeties) safeties.append(chip(c));
    for (const c of side.coup_fourres) safeties.append(chip(c, true));
    if (!safeties.childNodes.length) safeties.append(el("span", { class: "muted", text: "none" }));
    const dist = el("span");
    for (const [c, n] of Object.entries(side.distance)) dist.append(el("span", { class: "chip k-distance", text: `${name(c)} ×${n}` }));
    const pct = Math.min(100, Math.round((100 * side.miles) / Math.max(1, v.obs.target)));
    box.append(el("div", { class: `side${s === v.obs.side ? " mine" : ""}`, "data-side": s },
      el("div", { class: "who" }, `Side ${s}`, ...seats),
      el("div", { text: `${side.miles} / ${v.obs.target} ${unit}${side.limit != null ? ` · limit ${side.limit}` : ""}${side.moving ? " · rolling" : ""}` }),
      el("div", { class: "meter" }, el("div", { style: `width:${pct}%` })),
      el("div", { class: "piles" }, el("span", {}, "Battle: ", top(side.battle)), el("span", {}, "Speed: ", top(side.speed))),
      el("div", { class: "piles" }, el("span", {}, "Safeties: ", safeties)),
      el("div", { class: "piles" }, el("span", {}, "Distance: ", dist.childNodes.length ? dist : el("span", { class: "muted", text: "none" })))));
  }
}

function movesFor(card) { return view.moves.filter((m) => m.card === card); }

function renderHand(v, reset) {
  const hand = v.obs.hand, box = $("hand"); box.replaceChildren();
  const playing = !drawChoice(v) && !inMulligan(v);  // a card's own moves (not a draw's or a mulligan's)
  if (reset || selected >= hand.length) {  // a new decision: the first card that can be played
    const live = hand.findIndex((c) => movesFor(c).some((m) => m.op !== "discard"));
    selected = live >= 0 && playing ? live : 0;
  }
  box.classList.toggle("choosing", choosing);
  hand.forEach((c, i) => {
    const live = !playing || movesFor(c).some((m) => m.op !== "discard");
    const isNew = v.obs.decision.drawn && v.obs.decision.player === v.obs.player && i === hand.length - 1;
    const out = choosing && thrown.has(i);
    const b = el("button", { class: `card k-${kind(c)}${live ? "" : " dead"}${i === selected ? " selected" : ""}${isNew ? " new" : ""}${out ? " thrown" : ""}`,
      "data-card": c, "data-index": String(i), title: playing ? v.why_not[c] || "" : "",
      "data-moves": v.moves.map((m, n) => (m.card === c ? n + 1 : 0)).filter((n) => n).join(",") },
      el("span", { class: "kind", text: out ? "throw away" : kind(c) }), el("span", { class: "name", text: name(c) }));
    if (choosing) b.setAttribute("aria-pressed", out ? "true" : "false");
    b.addEventListener("click", () => {
      selected = i;
      if (choosing) { toggleThrow(i); return; }
      showMoves(); markSelected();
      if (playing && v.why_not[c]) say(`${name(c)}: ${v.why_not[c]}.`); else say("");
    });
    box.append(b);
  });
  showMoves();
}
function markSelected() { document.querySelectorAll("#hand .card").forEach((b, i) => b.classList.toggle("selected", i === selected)); }

function showMoves() {
  const box = $("moves"); box.replaceChildren();
  if (!view || !view.moves.length || view.obs.decision.kind !== "turn" || drawChoice(view)) return;
  const c = view.obs.hand[selected];
  const list = view.moves.map((m, i) => [m, i]).filter(([m]) => m.card === c);
  const shown = list.length ? list : view.moves.map((m, i) => [m, i]);
  for (const [m, i] of shown) {
    box.append(el("button", { class: "move", "data-action": m.action, "data-n": String(i + 1), onclick: () => act(m.action) },
      el("span", { class: "n", text: String(i + 1) }), m.words));
  }
}

// -- the prompts: a window (coup fourré, fast play), the extension, the draw, the mulligan ----------
function answer(label, key, attrs, onclick) {
  return el("button", { ...attrs, "data-key": key, onclick }, el("span", { class: "n", text: key }), ` · ${label}`);
}

function toggleThrow(i) {
  if (thrown.has(i)) thrown.delete(i); else thrown.add(i);
  renderHand(view, false); renderPrompt(view);
}

function startMulligan() { choosing = true; thrown.clear(); say(""); renderHand(view, false); renderPrompt(view); }
function stopMulligan() { choosing = false; thrown.clear(); renderHand(view, false); renderPrompt(view); }

function throwChosen() {
  const hand = view.obs.hand;
  const plan = [...thrown].sort((x, y) => x - y).map((i) => `mulligan ${hand[i]}`);
  if (!plan.length && !inMulligan(view)) { say("Choose at least one card to throw away.", true); return; }
  queue = [...plan, "draw"];
  sentAt = view.version;
  choosing = false; thrown.clear();
  act(queue.shift(), true);
}

function renderPrompt(v) {
  const p = $("prompt"), a = $("answers");
  a.replaceChildren();
  p.dataset.kind = "";
  if (!v.question || queue.length || sentAt === v.version) { p.classList.remove("open"); return; }  // a mulligan on its way
  p.classList.add("open");
  if (choosing) {  // the mulligan's cards are chosen in the hand below
    const n = thrown.size, size = v.obs.hand.length - n;
    p.dataset.kind = "mulligan";
    $("question").textContent = inMulligan(v)
      ? `MULLIGAN: choose more cards to throw away (click them, or ←/→ and Space), or none; then draw back.`
      : `MULLIGAN: choose the cards to throw away (click them, or ←/→ and Space), then draw back.`;
    const label = n ? `throw ${n} card${n > 1 ? "s" : ""} away and draw back (you keep ${size})` : "draw back now";
    const go = answer(label, "Enter", { class: "yes", id: "mulligan-go" }, throwChosen);
    if (!n && !inMulligan(v)) go.disabled = true;
    a.append(go);
    if (!inMulligan(v)) a.append(answer("back to the draw", "Esc", { id: "mulligan-back" }, stopMulligan));
    return;
  }
  $("question").textContent = v.question;
  if (drawChoice(v)) {
    p.dataset.kind = "draw";
    const pile = v.moves.find((m) => m.op === "draw" && m.action === "draw");
    const top = v.moves.find((m) => m.op === "draw" && m.action !== "draw");
    if (pile) a.append(answer(pile.words, "p", { "data-action": pile.action }, () => act(pile.action)));
    if (top) a.append(answer(top.words, "t", { "data-action": top.action }, () => act(top.action)));
    if (v.moves.some((m) => m.op === "mulligan")) a.append(answer("mulligan…", "m", { id: "mulligan-start" }, startMulligan));
    return;
  }
  p.dataset.kind = v.obs.decision.kind;
  for (const m of v.moves) {
    const yes = YES.has(m.op);
    a.append(answer(m.words, yes ? "y" : "n", { class: yes ? "yes" : "", "data-action": m.action }, () => act(m.action)));
  }
}

function renderLog(v) {
  const log = $("log"); log.replaceChildren();
  for (const line of v.narration) log.append(el("li", { text: line }));
  log.scrollTop = log.scrollHeight;
}

function renderSheet(v) {
  const sh = v.sheets, box = $("sheet");
  box.replaceChildren();
  const sides = Object.keys(sh.totals);
  if (sh.hands.length) {
    const t = el("table", { class: "sheet" });
    const last = sh.hands[sh.hands.length - 1];
    t.append(el("tr", {}, el("th", { text: `Hand ${sh.hands.length}` }), ...sides.map((s) => el("th", { text: `Side ${s}` }))));
    for (const [line, label] of Object.entries(sh.labels)) {
      if (line !== "total" && sides.every((s) => !last[s][line])) continue;
      t.append(el("tr", {}, el("td", { text: label }), ...sides.map((s) => el("td", { text: String(last[s][line]) }))));
    }
    t.append(el("tr", {}, el("th", { text: "Match" }), ...sides.map((s) => el("th", { text: String(sh.totals[s]) }))));
    box.append(t);
    if (sh.hands.length > 1) {
      const all = el("table", { class: "sheet" });
      all.append(el("tr", {}, el("th", { text: "Hands" }), ...sides.map((s) => el("th", { text: `Side ${s}` }))));
      sh.hands.forEach((h, i) => all.append(el("tr", {}, el("td", { text: `Hand ${i + 1}` }), ...sides.map((s) => el("td", { text: String(h[s].total) })))));
      box.append(el("details", {}, el("summary", { text: "Every hand" }), all));
    }
  } else box.append(el("p", { class: "muted", text: "No hand finished yet." }));
  $("status").textContent = v.status || "";
  $("sheet-panel").classList.toggle("over", v.hand_over || v.match_over);
  const nb = $("next-hand");
  nb.hidden = !v.hand_over || v.you_ready;
  const waiting = v.seats.filter((x) => x.kind === "person" && !x.ready).map((x) => x.name);
  $("ready").textContent = v.hand_over && v.you_ready ? `Waiting for ${waiting.join(", ")} to press Next hand.` : "";
  const ex = $("export");
  ex.hidden = !v.match_over;
  ex.href = `/export/${tableId}/${secret}`;
}

$("next-hand").addEventListener("click", () => send({ type: "next-hand" }));

document.addEventListener("keydown", (e) => {
  if (!view || e.ctrlKey || e.metaKey || e.altKey) return;
  const hand = view.obs.hand;
  if ($("prompt").classList.contains("open")) {  // a prompt's answers, by the key each shows
    const key = e.key === "Escape" ? "Esc" : e.key;
    const all = [...document.querySelectorAll("#answers button")].filter((x) => !x.disabled);
    const b = /^[1-9]$/.test(key) ? all[Number(key) - 1] : all.find((x) => x.dataset.key === key);  // 1: the first answer
    if (b) { b.click(); e.preventDefault(); return; }
    if (choosing && e.key === " " && hand.length) { toggleThrow(selected); e.preventDefault(); return; }
    if (!choosing && e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
  }
  if (/^[1-9]$/.test(e.key)) { const m = view.moves[Number(e.key) - 1]; if (m) act(m.action); return; }
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    if (!hand.length) return;
    selected = (selected + (e.key === "ArrowRight" ? 1 : hand.length - 1)) % hand.length;
    markSelected(); showMoves(); e.preventDefault(); return;
  }
  if (choosing) return;
  const c = hand[selected];
  if (e.key === "Enter" && c && document.activeElement.tagName !== "BUTTON") {
    const m = movesFor(c).find((x) => x.op !== "discard");
    if (m) act(m.action); else if (view.why_not[c]) say(`${name(c)}: ${view.why_not[c]}.`, true);
  } else if (e.key === "d" && c) {
    const m = movesFor(c).find((x) => x.op === "discard");
    if (m) act(m.action); else act(`discard ${c}`);  // the server says why not
  } else if (e.key === "Enter" && view.hand_over && !view.you_ready) send({ type: "next-hand" });
});

connect();
