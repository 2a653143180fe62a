// The one DOM helper every page shares: el("button", {class, text, "data-x": v, "aria-x": v, onclick}, ...children).
export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k.startsWith("data-") || k.startsWith("aria-")) e.setAttribute(k, v);
    else if (k === "text") e.textContent = v; else e[k] = v;
  }
  for (const k of kids) e.append(k);
  return e;
}
