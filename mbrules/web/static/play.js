// A seat's page: everything shown comes from the server's view of this seat (its observation and
// what the whole table may see); a click or a key sends the words of an action, the server decides.
import { el } from "./dom.js";
import { renderSheet, renderSides, tickAway } from "./table-view.js";
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
// A move sent and not answered yet (the version it was sent at): shown as such; no second move meanwhile.
let inflight = null;
let digits = "", digitTimer = null;  // moves numbered 10 and up: two digits typed one after the other
let announced = "";
const YES = new Set(["coup-fourre", "extend", "fast-play"]);  // the answers that say yes to a window

const name = (id) => (cards[id] ? cards[id].name : id);
const kind = (id) => (cards[id] ? cards[id].kind : "");
const names = { name, kind };

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}/${secret}`);
  ws.onopen = () => { retry = 0; $("conn").textContent = "connected"; document.body.dataset.conn = "yes"; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "welcome") welcome(msg);
    else if (msg.type === "state") render(msg);
    else if (msg.type === "refused") refused(msg);
  };
  ws.onclose = (ev) => {
    document.body.dataset.conn = "no";
    landed();
    if (ev.code === 4000) { gone("This seat was opened in another page (or tab), which plays it now.", true); return; }
    if (ev.code === 4001) { gone("The host replaced this seat's link: this page is closed. Ask the host for your new link.", false); return; }
    if (ev.code === 1008 && ev.reason) { $("conn").textContent = `closed: ${ev.reason}`; }
    else $("conn").textContent = "reconnecting…";
    if (closedForGood) return;
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);  // rejoins where it was: the server sends the whole view again
  };
}

// The page was taken over (another tab) or its link replaced: nothing here acts any more; a page taken
// over may take the seat back (the other page is then told the same).
function gone(text, canTakeBack) {
  closedForGood = true;
  $("conn").textContent = canTakeBack ? "replaced by another page" : "this link was replaced by the host";
  document.body.dataset.replaced = "yes";
  $("gone-text").textContent = text;
  $("take-back").hidden = !canTakeBack;
  $("gone").hidden = false;
  $("game").inert = true;
  $("turn").textContent = "This page does not play the seat any more.";  // no "YOUR TURN" and no live move left
  $("turn").classList.remove("mine");
  $("moves").replaceChildren(); $("answers").replaceChildren(); $("prompt").classList.remove("open");
  $("announce").textContent = text;
  (canTakeBack ? $("take-back") : $("gone")).focus();
}
$("take-back").addEventListener("click", () => {
  closedForGood = false; $("gone").hidden = true; $("game").inert = false;
  document.body.dataset.replaced = "no"; $("conn").textContent = "connecting…"; connect();
});

function send(obj) {
  if (ws && ws.readyState === 1) { ws.send(JSON.stringify(obj)); return true; }
  say("Not connected: nothing was sent. The page reconnects by itself; try again once it says connected.", true);
  return false;
}
function act(action, keepQueue = false) {
  if (inflight !== null) { say(ON_ITS_WAY); return; }  // a second click (a double-click): one move only
  if (!keepQueue) queue = [];
  if (!send({ type: "act", action, version: view ? view.version : -1 })) { queue = []; return; }
  inflight = view ? view.version : -1;
  document.body.dataset.inflight = "yes";
  document.body.dataset.sent = action;
  for (const b of document.querySelectorAll("#moves button, #answers button")) b.disabled = true;
  say(SENDING);
}
const SENDING = "Sending your move…", ON_ITS_WAY = "Your move is on its way: wait for the table to answer.";
function landed() { inflight = null; document.body.dataset.inflight = "no"; }
function refused(msg) { landed(); queue = []; say(`Refused: ${msg.message}.`, true); }
function say(text, refusedNow = false) { const m = $("message"); m.textContent = text; m.className = refusedNow ? "refused" : ""; }

function welcome(msg) {
  cards = msg.cards; unit = msg.unit;
  queue = []; sentAt = -1; rejoined = true; landed();  // a new connection (a restarted server numbers its versions anew)
  $("title").textContent = msg.ruleset + (msg.options.length ? ` + ${msg.options.join(", ")}` : "");
  document.title = `${msg.ruleset}: ${msg.seat}`;
  $("rules").textContent = msg.rules;
  const ch = $("changes"); ch.replaceChildren();
  for (const c of msg.changes) ch.append(el("li", { text: c }));
  if (!msg.changes.length) ch.append(el("li", { text: "none: the edition as printed" }));
}

const drawChoice = (v) => v.moves.some((m) => m.op === "draw") && v.obs.decision.kind === "turn";
const inMulligan = (v) => v.moves.length > 0 && v.obs.decision.kind === "mulligan";
const playing = (v) => !drawChoice(v) && !inMulligan(v);  // a card's own moves (not a draw's or a mulligan's)
const liveCard = (v, c) => v.moves.some((m) => m.card === c && m.op !== "discard");

function render(v) {
  const myTurnNow = v.moves.length > 0 && (!view || !view.moves.length || view.obs.hand_no !== v.obs.hand_no);
  const fresh = rejoined || !view || view.version !== v.version;
  rejoined = false;
  const wasDraw = view && drawChoice(view);
  view = v;
  if (fresh) {
    if (inflight !== null) { landed(); if ([SENDING, ON_ITS_WAY].includes($("message").textContent)) say(""); }
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
  document.body.dataset.matchOver = v.match_over ? "yes" : "no";
  const o = v.obs;
  $("you").textContent = `You are ${o.player} (side ${o.side})`;
  $("trip").textContent = `Hand ${o.hand_no + 1} · trip ${o.target} ${unit} · ${o.draw_pile} cards to draw`;
  const dp = o.discard_pile;
  $("discard").replaceChildren("Discard pile: ", dp.length ? chipOf(dp[dp.length - 1]) : el("span", { class: "muted", text: "empty" }),
    dp.length > 1 ? ` and ${dp.length - 1} below` : "");
  renderSides(v, names, unit);
  renderTurn(v);
  renderBotSeat(v);
  renderHand(v, myTurnNow || (fresh && (wasDraw || !liveCard(v, o.hand[selected]))));
  renderPrompt(v);
  renderLog(v);
  renderSheet(v, tableId, secret);
}
const chipOf = (id) => el("span", { class: `chip k-${kind(id)}`, text: name(id) });

// Whose turn it is, in a banner, and said to a screen reader when it changes (with the reason of a refusal,
// #message is polite too).
function renderTurn(v) {
  const d = v.obs.decision, t = $("turn");
  const mine = v.moves.length > 0;
  const seat = v.seats.find((x) => x.name === d.player);
  const who = seat && seat.kind !== "person" ? `${d.player} (the ${seat.kind} bot)` : d.player;
  const text = v.match_over ? "The match is over." : v.hand_over ? "The hand is over." :
    mine ? (v.question ? "YOUR TURN: answer the question below." : "YOUR TURN: choose a card, then a move.") :
    `${who} plays now.`;
  t.textContent = text;
  t.classList.toggle("mine", mine);
  document.body.dataset.turn = mine ? "mine" : "theirs";
  const say = mine && v.question ? `Your turn. ${v.question}` : text;
  if (say !== announced) { announced = say; $("announce").textContent = say; }
}

function renderBotSeat(v) {
  const me = v.seats.find((x) => x.name === v.obs.player);
  const bot = me && me.kind !== "person";
  $("botseat").hidden = !bot;
  if (!bot) return;
  $("botseat-text").textContent = me.asking
    ? `The ${me.kind} bot plays your seat; you asked the host for it back.`
    : `The host gave your seat to the ${me.kind} bot: you are watching.`;
  $("ask-back").hidden = me.asking;
}
$("ask-back").addEventListener("click", () => send({ type: "ask-back" }));

function movesFor(card) { return view.moves.filter((m) => m.card === card); }

function renderHand(v, reset) {
  const hand = v.obs.hand, box = $("hand"), play = playing(v);
  const hadFocus = box.contains(document.activeElement);
  box.replaceChildren();
  if (reset || selected >= hand.length) {  // a new decision: the first card that can be played
    const live = hand.findIndex((c) => liveCard(v, c));
    selected = live >= 0 && play ? live : Math.min(selected, Math.max(0, hand.length - 1));
  }
  box.classList.toggle("choosing", choosing);
  box.classList.toggle("waiting", !v.moves.length);
  $("hand-panel").hidden = !hand.length && $("botseat").hidden;  // a hand played out: nothing to show there
  hand.forEach((c, i) => {
    const live = !play || liveCard(v, c);
    const isNew = v.obs.decision.drawn && v.obs.decision.player === v.obs.player && i === hand.length - 1;
    const out = choosing && thrown.has(i);
    const why = play && v.moves.length ? v.why_not[c] || "" : "";
    const b = el("button", { type: "button", class: `card k-${kind(c)}${live && v.moves.length ? "" : " dead"}${isNew ? " new" : ""}${out ? " thrown" : ""}`,
      "data-card": c, "data-index": String(i), title: why, tabIndex: i === selected ? 0 : -1,
      "data-moves": v.moves.map((m, n) => (m.card === c ? n + 1 : 0)).filter((n) => n).join(",") },
      el("span", { class: "kind", text: out ? "throw away" : kind(c) }), el("span", { class: "name", text: name(c) }),
      el("span", { class: "sr-only", text: (isNew ? ", new" : "") + (why ? `, cannot be played: ${why}` : "") }));
    if (choosing) b.setAttribute("aria-pressed", out ? "true" : "false");
    b.addEventListener("click", () => {
      selected = i;
      if (choosing) { toggleThrow(i); return; }
      showMoves(); markSelected();
      say(why ? `${name(c)}: ${why}.` : "");
    });
    box.append(b);
  });
  markSelected();
  showMoves();
  if (hadFocus || (reset && v.moves.length && play && document.activeElement === document.body)) focusSelected();
}
function markSelected() {
  document.querySelectorAll("#hand .card").forEach((b, i) => {
    b.classList.toggle("selected", i === selected);
    b.tabIndex = i === selected ? 0 : -1;
    if (i === selected) b.setAttribute("aria-current", "true"); else b.removeAttribute("aria-current");
  });
  const c = view && view.obs.hand[selected], why = c && playing(view) && view.moves.length ? view.why_not[c] : "";
  $("why").textContent = why ? `${name(c)} cannot be played: ${why}.` : "";
}
function focusSelected() { const b = document.querySelector(`#hand .card[data-index='${selected}']`); if (b) b.focus(); }

function showMoves() {
  const box = $("moves"); box.replaceChildren();
  if (!view || !view.moves.length || view.obs.decision.kind !== "turn" || drawChoice(view)) return;
  const c = view.obs.hand[selected], at = view.version;
  const list = view.moves.map((m, i) => [m, i]).filter(([m]) => m.card === c);
  const shown = list.length ? list : view.moves.map((m, i) => [m, i]);
  for (const [m, i] of shown) {
    box.append(el("button", { type: "button", class: "move", "data-action": m.action, "data-n": String(i + 1), disabled: inflight !== null,
      onclick: () => { if (view.version === at) act(m.action); } },  // a button of a table that moved on does nothing
      el("span", { class: "n", text: String(i + 1) }), m.words));
  }
}

// -- the prompts: a window (coup fourré, fast play), the extension, the draw, the mulligan ----------
function answer(label, key, attrs, onclick) {
  return el("button", { type: "button", ...attrs, "data-key": key, onclick }, el("span", { class: "n", text: key }), ` · ${label}`);
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
  const at = v.version, once = (f) => () => { if (view.version === at) f(); };
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
    if (pile) a.append(answer(pile.words, "p", { "data-action": pile.action }, once(() => act(pile.action))));
    if (top) a.append(answer(top.words, "t", { "data-action": top.action }, once(() => act(top.action))));
    if (v.moves.some((m) => m.op === "mulligan")) a.append(answer("mulligan…", "m", { id: "mulligan-start" }, startMulligan));
    return;
  }
  p.dataset.kind = v.obs.decision.kind;
  for (const m of v.moves) {
    const yes = YES.has(m.op);
    a.append(answer(m.words, yes ? "y" : "n", { class: yes ? "yes" : "", "data-action": m.action }, once(() => act(m.action))));
  }
}

function renderLog(v) {
  const log = $("log"); log.replaceChildren();
  for (const line of v.narration) log.append(el("li", { text: line }));
  log.scrollTop = log.scrollHeight;
}

function nextHand() { if (send({ type: "next-hand" })) say("Waiting for the next hand…"); }
$("next-hand").addEventListener("click", nextHand);
$("again").addEventListener("click", () => { if (send({ type: "again" })) $("again").disabled = true; });
setInterval(() => tickAway(), 1000);

// A move by its number: 1-9 at once; where there are 10 moves or more, a 1 waits a moment for a second digit.
function digit(k) {
  clearTimeout(digitTimer);
  digits += k;
  const n = Number(digits), total = view.moves.length;
  const go = () => { const m = view.moves[Number(digits) - 1]; digits = ""; if (m) act(m.action); else say(`No move ${n}.`, true); };
  if (n * 10 <= total && digits.length < 2) digitTimer = setTimeout(go, 900); else go();
}

document.addEventListener("keydown", (e) => {
  if (!view || e.ctrlKey || e.metaKey || e.altKey || $("game").inert) return;
  const hand = view.obs.hand;
  if (e.key === "Enter" && view.hand_over && !view.you_ready && document.activeElement.tagName !== "BUTTON") {
    nextHand(); e.preventDefault(); return;  // Enter deals on at a hand's end
  }
  if ($("prompt").classList.contains("open")) {  // a prompt's answers, by the key each shows
    const key = e.key === "Escape" ? "Esc" : e.key;
    const all = [...document.querySelectorAll("#answers button")].filter((x) => !x.disabled);
    const b = /^[1-9]$/.test(key) ? all[Number(key) - 1] : all.find((x) => x.dataset.key === key);  // 1: the first answer
    if (b) { b.click(); e.preventDefault(); return; }
    if (choosing && e.key === " " && hand.length) { toggleThrow(selected); e.preventDefault(); return; }
    if (!choosing && e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
  }
  if (/^[0-9]$/.test(e.key) && view.moves.length && !choosing) { digit(e.key); e.preventDefault(); return; }
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    if (!hand.length) return;
    selected = (selected + (e.key === "ArrowRight" ? 1 : hand.length - 1)) % hand.length;
    markSelected(); showMoves(); focusSelected();
    const c = hand[selected];
    if (!choosing && view.moves.length && playing(view) && view.why_not[c]) say(`${name(c)}: ${view.why_not[c]}.`); else say("");
    e.preventDefault(); return;
  }
  if (choosing) return;
  const c = hand[selected];
  const onCard = document.activeElement.closest && document.activeElement.closest("#hand");
  if (e.key === "Enter" && c && (onCard || document.activeElement.tagName !== "BUTTON")) {
    e.preventDefault();
    const m = movesFor(c).find((x) => x.op !== "discard");
    if (m) act(m.action); else if (view.why_not[c]) say(`${name(c)}: ${view.why_not[c]}.`, true);
  } else if (e.key === "d" && c && view.moves.length) {
    const m = movesFor(c).find((x) => x.op === "discard");
    if (m) act(m.action); else act(`discard ${c}`);  // the server says why not
  }
});

connect();
