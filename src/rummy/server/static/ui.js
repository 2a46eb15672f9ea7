// Small DOM helpers: element builder, toast messages, a modal chooser.

const drawn = new WeakMap();

/** Redraw `container` only when `key` changed, so a button is never replaced under a finger. */
export function keyed(container, key, draw) {
  const text = JSON.stringify(key);
  if (drawn.get(container) === text) return;
  drawn.set(container, text);
  draw();
}

/** el("button", {class: "x", onclick: f}, "text", child) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

let toastTimer = null;

/** A short message at the bottom of the screen (kind: "info" | "error" | "hint"). */
export function toast(message, kind = "info", ms = 4000) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = message;
  box.className = "toast show " + kind;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.className = "toast";
  }, ms);
}

/** Take down the message now if it is of ``kind`` (a hint once its decision is made). */
export function dropToast(kind) {
  const box = document.getElementById("toast");
  if (box && box.classList.contains(kind)) box.className = "toast";
}

/**
 * A modal with a title and one button per option; resolves to the chosen option's value or null.
 * options: [{label, value, node?}]
 */
export function choose(title, options, note = "") {
  return new Promise((resolve) => {
    const previous = document.activeElement;
    const close = (value) => {
      backdrop.remove();
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
      resolve(value);
    };
    const onKey = (event) => {
      if (event.key === "Escape") close(null);
    };
    const buttons = options.map((opt) =>
      el("button", { class: "choice", type: "button", onclick: () => close(opt.value) }, opt.node || "", opt.label));
    const dialog = el("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": title },
      el("h2", {}, title),
      note ? el("p", { class: "note" }, note) : null,
      el("div", { class: "choices" }, buttons),
      el("button", { class: "ghost", type: "button", onclick: () => close(null) }, "Cancel"));
    const backdrop = el("div", { class: "backdrop", onclick: (e) => e.target === backdrop && close(null) }, dialog);
    document.body.append(backdrop);
    document.addEventListener("keydown", onKey);
    buttons[0]?.focus();
  });
}

/** A modal asking for one line of text; resolves to the text or null. */
export function ask(title, label, value = "") {
  return new Promise((resolve) => {
    const input = el("input", { type: "text", value, "aria-label": label });
    const close = (result) => {
      backdrop.remove();
      resolve(result);
    };
    const form = el("form", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": title,
      onsubmit: (e) => { e.preventDefault(); close(input.value.trim() || null); } },
    el("h2", {}, title), el("label", {}, label, input),
    el("div", { class: "row" }, el("button", { type: "submit", class: "primary" }, "OK"),
      el("button", { type: "button", class: "ghost", onclick: () => close(null) }, "Cancel")));
    const backdrop = el("div", { class: "backdrop" }, form);
    document.body.append(backdrop);
    input.focus();
  });
}

export function plural(count, word, many = word + "s") {
  return `${count} ${count === 1 ? word : many}`;
}

/** Replace a node's children, skipping null / undefined / false (replaceChildren would print "null"). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

/** A dialog with a title, some content and a Close button (Escape and the backdrop close it too). */
export function modal(title, children, opts = {}) {
  const previous = document.activeElement;
  const close = () => {
    backdrop.remove();
    document.removeEventListener("keydown", onKey);
    previous?.focus?.({ preventScroll: true });
  };
  const onKey = (event) => {
    if (event.key === "Escape") close();
  };
  const closeButton = el("button", { type: "button", class: "primary", id: opts.id ? `${opts.id}-close` : null,
    onclick: close }, "Close");
  const dialog = el("div", { class: "dialog" + (opts.wide ? " wide" : ""), role: "dialog", "aria-modal": "true",
    "aria-label": title, id: opts.id },
  el("div", { class: "dialog-head" }, el("h2", {}, title),
    el("button", { type: "button", class: "icon", "aria-label": "Close", onclick: close }, "×")),
  children, el("div", { class: "row" }, closeButton));
  const backdrop = el("div", { class: "backdrop", onclick: (e) => e.target === backdrop && close() }, dialog);
  document.body.append(backdrop);
  document.addEventListener("keydown", onKey);
  closeButton.focus({ preventScroll: true });
  return { close, dialog };
}

/**
 * A short label that explains itself: a tooltip on hover and focus, and a tap or Enter shows the
 * explanation as a message (touch screens have no hover). `text` comes from the server's glossary.
 */
export function tip(label, text, cls = "") {
  if (!text) return el("span", { class: cls }, label);
  const show = (event) => {
    event.stopPropagation();
    toast(`${label}: ${text}`, "info", 6000);
  };
  return el("span", { class: `${cls} tip`, title: text, tabindex: "0", role: "button", "aria-label": `${label}: ${text}`,
    onclick: show, onkeydown: (e) => (e.key === "Enter" || e.key === " ") && show(e) }, label);
}
