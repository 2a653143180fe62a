// The host's page of one table: the links, who is here, an absent seat given to a bot, the record.
import { el } from "./dom.js";
const $ = (id) => document.getElementById(id);
const api = `/api/host/${location.pathname.split("/")[2]}/${location.pathname.split("/")[3]}`;
let bots = [];

function show(t) {
  $("title").textContent = `${t.ruleset}${t.options.length ? " + " + t.options.join(", ") : ""}`;
  $("where").textContent = `table ${t.table} · ${t.players} players · seed ${t.seed ?? "shown once the match is over"}`;
  $("state").textContent = t.match_over ? "The match is over." : `Hand ${t.hand}${t.hand_over ? ": over, waiting for the next deal" : " in play"}.`;
  $("next").hidden = !t.hand_over || t.match_over;
  $("export").href = t.export_url;
  $("changes").replaceChildren(...(t.changes.length ? t.changes : ["none"]).map((c) => el("li", { text: c })));
  const box = $("seats"); box.replaceChildren();
  for (const [i, s] of t.seats.entries()) {
    if (!s.url) { box.append(el("p", { text: `${s.name} (side ${s.side}): the ${s.kind} bot` })); continue; }
    const pick = el("select", {}, ...bots.map((b) => el("option", { value: b, text: b })));
    pick.value = bots.includes("heuristic") ? "heuristic" : bots[0];
    const give = el("button", { type: "button", text: "give this seat to", disabled: s.here,
      onclick: () => post(`${api}/bot`, { seat: i, bot: pick.value }) });
    const relink = el("button", { type: "button", text: "new link", title: "the old link opens nothing any more",
      onclick: () => post(`${api}/new-link`, { seat: i }) });
    box.append(el("p", {}, `${s.name} (side ${s.side}) · ${s.here ? "here" : "away"} `,
      el("input", { value: s.url, readOnly: true, size: 40 }), " ", relink, " ", give, " ", pick));
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
  setTimeout(poll, 2000);
}

$("next").addEventListener("click", () => post(`${api}/next-hand`, {}));
fetch("/api/catalog").then((r) => r.json()).then((c) => { bots = Object.keys(c.bots); poll(); });
