// A tiny element builder: h("button", {class: "x", onclick: f}, "text", child, [more]).

/** Create an element with properties, attributes, listeners and children. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  let value;
  for (const [key, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (key === "class") el.className = v;
    else if (key === "text") el.textContent = v;
    else if (key === "value") value = v;
    else if (key === "dataset") Object.assign(el.dataset, v);
    else if (key.startsWith("on") && typeof v === "function") el.addEventListener(key.slice(2), v);
    else if (key === "checked" || key === "disabled" || key === "selected") el[key] = Boolean(v);
    else el.setAttribute(key, v === true ? "" : String(v));
  }
  append(el, children);
  if (value !== undefined) el.value = value;
  return el;
}

/** Append children (strings, nodes, nested arrays; null and false are skipped). */
export function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}
