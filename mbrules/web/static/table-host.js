// The host's page of one table: the links, who is here, a seat given to a bot and handed back, a link
// replaced (after a confirmation), the record, and at the end of a match the same table again.
import { el } from "./dom.js";
const $ = (id) => document.getElementById(id);
const api = `/api/host/${location.pathname.split("/")[2]}/${location.pathname.split("/")[3]}`;
let bots = [], shown = "", confirming = -1;
const REFRESH_MS = 2000;  // the page asks the server for the table again every 2 s (who is here, asks, links)
const picked = {};  // seat -> the bot the host picked: kept while the page refreshes

function seatRow(t, i, s) {
  const asking = t.asking.includes(i);
  if (!s.url) {
    const back = el("button", { type: "button", text: asking ? "hand it back now" : "give this seat to a person (its link plays it)",
      "data-give-back": String(i), onclick: () => post(`${api}/person`, { seat: i }) });
    return el("div", { class: "seat-row", "data-seat": String(i) },
      el("p", { text: `${s.name} (side ${s.side}): the ${s.kind} bot${asking ? ". Its person asks for the seat back." : ""}`,
        class: asking ? "confirm" : "" }), back);
  }
  const pick = el("select", { "aria-label": `the bot to give ${s.name}'s seat to`, "data-pick": String(i),
    onchange: () => { picked[i] = pick.value; } }, ...bots.map((b) => el("option", { value: b, text: `the ${b} bot` })));
  pick.value = picked[i] || (bots.includes("heuristic") ? "heuristic" : bots[0]);
  const give = el("button", { type: "button", text: "give this seat to", disabled: s.here, "data-give": String(i),
    onclick: () => post(`${api}/bot`, { seat: i, bot: pick.value }) });
  const relink = confirming === i
    ? el("span", { class: "confirm" }, `Replace ${s.name}'s link? The old one stops working and its open page closes. `,
      el("button", { type: "button", text: "yes, replace it", "data-relink-yes": String(i),
        onclick: () => { confirming = -1; post(`${api}/new-link`, { seat: i }); } }), " ",
      el("button", { type: "button", text: "no", onclick: () => { confirming = -1; show(JSON.parse(shown), true); } }))
    : el("button", { type: "button", text: "new link", "data-relink": String(i), title: "the old link then opens nothing",
      onclick: () => { confirming = i; show(JSON.parse(shown), true); } });
  return el("div", { class: "seat-row", "data-seat": String(i) },
    el("p", {}, el("label", {}, `${s.name} (side ${s.side}) · ${s.here ? "here" : "away"} `,
      el("input", { value: s.url, readOnly: true, size: 40 }))),
    el("div", { class: "row" }, relink, give, pick));
}

function show(t, force = false) {
  const text = JSON.stringify(t);
  if (text === shown && !force) return;  // nothing changed: the page (and what the host is choosing) stays as it is
  shown = text;
  $("title").textContent = `${t.ruleset}${t.options.length ? " + " + t.options.join(", ") : ""}`;
  $("where").textContent = `table ${t.table} · ${t.players} players · seed ${t.seed ?? "shown once the match is over"}`;
  $("state").textContent = t.match_over ? "The match is over." : `Hand ${t.hand}${t.hand_over ? ": over, waiting for the next deal" : " in play"}.`;
  $("next").hidden = !t.hand_over || t.match_over;
  $("export").href = t.export_url;
  $("again").hidden = !t.match_over || Boolean(t.again);
  $("again-link").hidden = !t.again;
  if (t.again) $("again-link").href = t.again;
  $("changes").replaceChildren(...(t.changes.length ? t.changes : ["none"]).map((c) => el("li", { text: c })));
  const focused = document.activeElement && document.activeElement.dataset ? { ...document.activeElement.dataset } : {};
  $("seats").replaceChildren(...t.seats.map((s, i) => seatRow(t, i, s)));
  for (const [k, v] of Object.entries(focused)) {  // the focus stays on the control it was on
    const e = document.querySelector(`#seats [data-${k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())}="${v}"]`);
    if (e) { e.focus(); break; }
  }
}

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  $("errors").textContent = r.ok ? "" : (data.errors || []).join("\n");
  if (r.ok) show(data);
}

async function poll() {
  try {
    const r = await fetch(api);
    if (r.ok) show(await r.json());
    else if (r.status === 410) {  // the table expired: say why, and stop asking
      const data = await r.json();
      $("state").textContent = `${data.expired[0].toUpperCase()}${data.expired.slice(1)}.`;
      document.body.dataset.expired = "yes";
      $("next").hidden = true;
      $("export").hidden = true;
      for (const e of document.querySelectorAll("section.links, details")) e.hidden = true;  // nothing left to show
      return;
    }
  } catch (e) { /* the server restarts: try again */ }
  setTimeout(poll, REFRESH_MS);
}

$("next").addEventListener("click", () => post(`${api}/next-hand`, {}));
$("again").addEventListener("click", () => post(`${api}/again`, {}));
fetch("/api/catalog").then((r) => r.json()).then((c) => { bots = Object.keys(c.bots); poll(); });
