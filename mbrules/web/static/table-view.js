// What a seat's page shows of the table around the hand: the sides (who is away and for how long),
// the score sheet, and at the end of a match its summary (every hand's sheet, who won, the record,
// play again).
import { el } from "./dom.js";
const $ = (id) => document.getElementById(id);
let awayAt = 0;  // when the view holding the away times came (the page counts on from there)

export const clock = (s) => (s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
  : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`);

export function tickAway() {
  const extra = Math.floor((Date.now() - awayAt) / 1000);
  for (const e of document.querySelectorAll("[data-away]")) e.textContent = `away ${clock(Number(e.dataset.away) + extra)}`;
}

function seatLine(v, x, d) {
  const n = v.obs.hand_sizes[x.name];
  const who = x.kind === "person" ? "" : ` · ${x.kind} bot`;
  const line = el("div", { class: `seat${x.here ? "" : " away"}${x.name === d.player && !v.hand_over && !v.match_over ? " to-move" : ""}` },
    `${x.name}${x.name === v.obs.player ? " (you)" : ""}${who} · ${n} cards`);
  if (!x.here) {
    line.append(" · ", x.away == null ? el("span", { text: "not here yet" }) : el("span", { "data-away": String(x.away), text: `away ${clock(x.away)}` }));
  }
  if (x.name === d.player && !v.hand_over && !v.match_over) line.append(el("span", { class: "tag", text: "to move" }));
  return line;
}

export function renderSides(v, { name, kind }, unit) {
  awayAt = Date.now();
  const box = $("sides"); box.replaceChildren();
  box.classList.toggle("many", Object.keys(v.obs.sides).length >= 7); // 7 to 9 sides (playaural): smaller cards, 3 a row
  const chip = (id, cf = false) => el("span", { class: `chip k-${kind(id)}${cf ? " cf" : ""}`, text: name(id) });
  const d = v.obs.decision;
  for (const [s, side] of Object.entries(v.obs.sides)) {
    const seats = v.seats.filter((x) => x.side === s).map((x) => seatLine(v, x, d));
    const top = (pile) => (pile.length ? chip(pile[pile.length - 1]) : el("span", { class: "muted", text: "empty" }));
    const safeties = el("span");
    for (const c of side.safeties) safeties.append(chip(c));
    for (const c of side.coup_fourres) safeties.append(chip(c, true));
    if (!safeties.childNodes.length) safeties.append(el("span", { class: "muted", text: "none" }));
    const dist = el("span");
    for (const [c, n] of Object.entries(side.distance)) dist.append(el("span", { class: "chip k-distance", text: `${name(c)} ×${n}` }));
    // ruleset 'karma' (option karma): the side's karma and the karma cards it played; absent where the ruleset has none
    const karma = side.karma === undefined ? [] : [el("span", { class: `karma${side.karma ? "" : " lost"}` },
      side.karma ? "Karma: yes" : "Karma: lost (shunned)", ...side.karma_cards.map((c) => chip(c)))];
    const pct = Math.min(100, Math.round((100 * side.miles) / Math.max(1, v.obs.target)));
    const moving = v.seats.some((x) => x.side === s && x.name === d.player) && !v.hand_over && !v.match_over;
    box.append(el("div", { class: `side${s === v.obs.side ? " mine" : ""}${moving ? " moving" : ""}`, "data-side": s },
      el("div", { class: "who" }, `Side ${s}`, ...seats),
      el("div", { class: "miles", text: `${side.miles} / ${v.obs.target} ${unit}${side.limit != null ? ` · limit ${side.limit}` : ""}${side.moving ? " · rolling" : ""}` }),
      el("div", { class: "meter", "aria-hidden": "true" }, el("div", { style: `width:${pct}%` })),
      el("div", { class: "piles" }, el("span", {}, "Battle: ", top(side.battle)), el("span", {}, "Speed: ", top(side.speed)),
        el("span", {}, "Safeties: ", safeties), ...karma),
      el("div", { class: "piles dist" }, el("span", {}, "Distance: ", dist.childNodes.length ? dist : el("span", { class: "muted", text: "none" })))));
  }
}

// A score sheet's column head: "Side A", the word "Side" only for screen readers at phone width (9 sides' columns fit)
const sideHead = (s) => el("th", { scope: "col" }, el("span", { class: "side-word", text: "Side " }), s);

function handTable(sh, i, sides, all) {
  const h = sh.hands[i];
  const t = el("table", { class: "sheet" });
  t.append(el("caption", { class: "sr-only", text: `Hand ${i + 1}` }));
  t.append(el("tr", {}, el("th", { scope: "col", text: `Hand ${i + 1}` }), ...sides.map((s) => sideHead(s))));
  for (const [line, label] of Object.entries(sh.labels)) {
    if (line !== "total" && sides.every((s) => !h[s][line])) continue;
    t.append(el("tr", {}, el("td", { text: label }), ...sides.map((s) => el("td", { text: String(h[s][line]) }))));
  }
  if (all) t.append(el("tr", {}, el("th", { scope: "row", text: "Match" }), ...sides.map((s) => el("th", { text: String(sh.totals[s]) }))));
  return t;
}

export function renderSheet(v, tableId, secret) {
  const sh = v.sheets, box = $("sheet");
  box.replaceChildren();
  const sides = Object.keys(sh.totals);
  if (v.match_over && sh.hands.length) {  // the summary: every hand's sheet, then the match
    $("sheet-title").textContent = "The match is over";
    sh.hands.forEach((_, i) => box.append(handTable(sh, i, sides, false)));
    const m = el("table", { class: "sheet total" });
    m.append(el("tr", {}, el("th", { scope: "col", text: "Match" }), ...sides.map((s) => sideHead(s))));
    sh.hands.forEach((h, i) => m.append(el("tr", {}, el("td", { text: `Hand ${i + 1}` }), ...sides.map((s) => el("td", { text: String(h[s].total) })))));
    m.append(el("tr", {}, el("th", { scope: "row", text: "Total" }), ...sides.map((s) => el("th", { text: String(sh.totals[s]) }))));
    box.append(m);
  } else if (sh.hands.length) {
    $("sheet-title").textContent = "Score sheet";
    box.append(handTable(sh, sh.hands.length - 1, sides, true));
    if (sh.hands.length > 1) {
      const all = el("table", { class: "sheet" });
      all.append(el("tr", {}, el("th", { scope: "col", text: "Hands" }), ...sides.map((s) => sideHead(s))));
      sh.hands.forEach((h, i) => all.append(el("tr", {}, el("td", { text: `Hand ${i + 1}` }), ...sides.map((s) => el("td", { text: String(h[s].total) })))));
      box.append(el("details", {}, el("summary", { text: "Every hand" }), all));
    }
  } else box.append(el("p", { class: "muted", text: "No hand finished yet." }));
  $("status").textContent = v.status || "";
  $("status").className = v.match_over ? "winner" : "";
  $("sheet-panel").classList.toggle("over", v.hand_over || v.match_over);
  const nb = $("next-hand");
  nb.hidden = !v.hand_over || v.you_ready;
  const waiting = v.seats.filter((x) => x.kind === "person" && !x.ready).map((x) => x.name);
  $("ready").textContent = v.hand_over && v.you_ready ? `Waiting for ${waiting.join(", ")} to press Next hand.` : "";
  $("over-actions").hidden = !v.match_over;
  $("export").href = `/export/${tableId}/${secret}`;
  $("export").setAttribute("download", "");
  $("again").hidden = Boolean(v.again);
  $("again-link").hidden = !v.again;
  if (v.again) $("again-link").href = v.again;
}
