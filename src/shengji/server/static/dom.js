// A tiny element builder, h("button", {class: "x", onclick: f}, "text", child, [more]), and
// morph(), which updates the page in place from a freshly built tree so that re-rendering on
// every server message keeps the elements (a click in progress, the focus, scroll positions).

const HANDLERS = ["onclick", "onchange", "oninput", "onsubmit", "ontoggle", "onkeydown"];

/** Create an element with properties, attributes, handlers and children. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  let value;
  for (const [key, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (key === "class") el.className = v;
    else if (key === "text") el.textContent = v;
    else if (key === "value") value = v;
    else if (key === "dataset") Object.assign(el.dataset, v);
    else if (key.startsWith("on") && typeof v === "function") el[key] = v;
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

/** Make `old` look and behave like `next`, reusing the nodes that keep their tag. */
export function morph(old, next) {
  if (old.nodeType !== next.nodeType || old.nodeName !== next.nodeName) {
    old.replaceWith(next);
    return;
  }
  if (old.nodeType === Node.TEXT_NODE) {
    if (old.data !== next.data) old.data = next.data;
    return;
  }
  if (old.nodeType !== Node.ELEMENT_NODE) {
    old.replaceWith(next);
    return;
  }
  for (const { name } of [...old.attributes]) {
    if (!next.hasAttribute(name)) old.removeAttribute(name);
  }
  for (const { name, value } of [...next.attributes]) {
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  for (const handler of HANDLERS) {
    if (old[handler] !== next[handler]) old[handler] = next[handler];
  }
  const before = [...old.childNodes];
  const after = [...next.childNodes];
  after.forEach((child, i) => {
    if (i < before.length) morph(before[i], child);
    else old.appendChild(child);
  });
  for (const extra of before.slice(after.length)) extra.remove();
  if (old instanceof HTMLInputElement || old instanceof HTMLSelectElement
      || old instanceof HTMLTextAreaElement) {
    // The field being edited keeps what the person is typing.
    if (old !== document.activeElement && old.value !== next.value) old.value = next.value;
    if (old instanceof HTMLInputElement && old.checked !== next.checked) old.checked = next.checked;
  }
  if (old instanceof HTMLButtonElement || old instanceof HTMLInputElement
      || old instanceof HTMLSelectElement) {
    old.disabled = next.disabled;
  }
}
