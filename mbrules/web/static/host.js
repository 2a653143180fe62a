// The host's page: choose the rules and the seats, see the rule changes, open the table, share the links.
import { el } from "./dom.js";
const $ = (id) => document.getElementById(id);
let catalog = null;

async function load() {
  catalog = await (await fetch("/api/catalog")).json();
  for (const ed of catalog.editions) $("edition").append(el("option", { value: ed.id, text: `${ed.name} (${ed.id})` }));
  const box = $("options");
  for (const [cat, words] of Object.entries(catalog.categories)) {
    const opts = catalog.options.filter((o) => o.category === cat);
    if (!opts.length) continue;
    box.append(el("h3", { text: words }));
    for (const o of opts) box.append(option(o));
  }
  const rest = catalog.options.filter((o) => !catalog.categories[o.category]);
  for (const o of rest) box.append(option(o));
  box.addEventListener("change", optionsChanged);
  if (catalog.editions.some((e) => e.id === "winning-moves")) $("edition").value = "winning-moves";
  $("edition").addEventListener("change", edition);
  $("players").addEventListener("change", seats);
  edition();
}

// An option: its name, and beside it the one line that says what it changes (read with it by a screen reader).
function option(o) {
  return el("label", { class: "option", "data-option-label": o.id },
    el("input", { type: "checkbox", value: o.id, "data-option": o.id }), el("span", { class: "name", text: o.name }),
    el("span", { class: "what", text: o.description }));
}

function edition() {
  const ed = catalog.editions.find((e) => e.id === $("edition").value);
  $("edition-text").textContent = ed.description;
  playerCounts(ed.players);
}

// The player counts the chosen rules allow (an option may add one: solo's single player), keeping the choice.
function playerCounts(counts) {
  const sel = $("players"), keep = sel.value;
  sel.replaceChildren(...counts.map((n) => el("option", { value: n, text: String(n) })));
  sel.value = counts.includes(Number(keep)) ? keep : (counts.includes(4) ? "4" : String(counts[0]));
  seats();
}

// An option ticked or cleared: ask the server which player counts the rules now allow.
async function optionsChanged() {
  if ($("upload").files[0]) return;
  const data = await post("/api/preview", await request());
  if (data) playerCounts(data.players);
}

function seats() {
  const n = Number($("players").value), box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const s = el("select", { "data-seat": String(i) }, el("option", { value: "person", text: "a person (gets a link)" }),
      ...Object.entries(catalog.bots).map(([b, d]) => el("option", { value: b, text: `the ${b} bot`, title: d })));
    s.value = old[i] || (i === 0 ? "person" : "heuristic");
    box.append(el("label", {}, `p${i + 1}: `, s));
  }
}

async function request() {
  const body = {
    options: [...document.querySelectorAll("#options input:checked")].map((i) => i.value),
    players: Number($("players").value),
    seats: [...document.querySelectorAll("#seats select")].map((s) => s.value),
    pace: Number($("pace").value),
  };
  const seed = $("seed").value.trim();
  if (seed) body.seed = Number(seed);
  const f = $("upload").files[0];
  if (f) body.upload = { name: f.name, text: await f.text() };
  else body.ruleset = $("edition").value;
  return body;
}

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  $("errors").textContent = r.ok ? "" : (data.errors || ["refused"]).join("\n");
  return r.ok ? data : null;
}

$("preview").addEventListener("click", async () => {
  const data = await post("/api/preview", await request());
  if (!data) return;
  if (String(data.players) !== [...$("players").options].map((o) => o.value).join(",")) playerCounts(data.players);
  $("preview-panel").hidden = false;
  $("preview-title").textContent = `${data.name}: ${data.changes.length} rule change${data.changes.length === 1 ? "" : "s"} from the edition`;
  $("preview-changes").replaceChildren(...(data.changes.length ? data.changes : ["none: the edition as printed"]).map((c) => el("li", { text: c })));
  $("preview-rules").textContent = data.rules;
  $("preview-warning").hidden = !data.warning;
  $("preview-warning").textContent = data.warning ? `Warning: ${data.warning}.` : "";
});

$("open").addEventListener("click", async () => {
  const data = await post("/api/tables", await request());
  if (!data) return;
  $("opened").hidden = false;
  $("host-link").href = data.host_url;
  const box = $("links"); box.replaceChildren();
  for (const s of data.seats) {
    if (!s.url) { box.append(el("p", { text: `${s.name} (side ${s.side}): the ${s.kind} bot` })); continue; }
    const input = el("input", { value: s.url, readOnly: true, "data-link": s.name });
    box.append(el("p", {}, el("label", {}, `${s.name} (side ${s.side}): `, input),
      el("button", { type: "button", text: "copy", onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(s.url); } }),
      " ", el("a", { href: s.url, target: "_blank", text: "open" })));
  }
  $("opened").scrollIntoView();
});

$("form").addEventListener("submit", (e) => e.preventDefault());  // no inline handler: the page's CSP runs none
load();
