// House rules in words (the create-table panel) and the "How to play" panel. Every word comes from the
// server (`GET /api/variants`, `GET /api/tables/{id}/help`): labels, sentences, defaults, choices.

import { el, modal } from "./ui.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
let counter = 0;

/** One labelled control for a house rule: {row, read(), set(value), option}. read() throws on a bad entry. */
function ruleControl(option, seats) {
  const id = `rule-${++counter}`;
  const build = CONTROLS[option.type];
  const { input, read, set } = build(option, id, seats);
  const mark = el("span", { class: "changed-mark", "aria-hidden": "true" });
  const head = el("div", { class: "rule-head" },
    option.type === "bool" ? null : el("label", { for: id }, option.label, mark),
    input);
  if (option.type === "bool") head.prepend(el("label", { for: id, class: "rule-label" }, option.label, mark));
  const row = el("div", { class: `option rule rule-${option.type}`, dataset: { key: option.key } },
    head,
    el("p", { class: "rule-text" }, option.description, " ",
      el("span", { class: "rule-default" }, `Usually: ${option.default_words}.`)));
  const refresh = () => {
    let changed;
    try {
      changed = !same(read(), option.default);
    } catch {
      changed = true;
    }
    row.classList.toggle("changed", changed);
    mark.textContent = changed ? " •" : "";
  };
  row.addEventListener("input", refresh);
  row.addEventListener("change", refresh);
  set(option.default);
  refresh();
  return { row, read, set: (value) => { set(value); refresh(); }, option };
}

function numberInput(id, option, value, label) {
  return el("input", { type: "number", id, step: "1", inputmode: "numeric", min: option.min, max: option.max,
    value: value ?? "", placeholder: option.nullable ? option.null_words : null, "aria-label": label });
}

function readNumber(input, option, label) {
  const text = input.value.trim();
  if (text === "") {
    if (option.nullable) return null;
    throw new Error(`${label}: enter a number`);
  }
  const n = Number(text);
  if (!Number.isInteger(n)) throw new Error(`${label}: a whole number, please`);
  if (option.min !== undefined && n < option.min) throw new Error(`${label}: at least ${option.min}`);
  if (option.max !== undefined && n > option.max) throw new Error(`${label}: at most ${option.max}`);
  return n;
}

const CONTROLS = {
  bool(option, id) {
    const input = el("input", { type: "checkbox", role: "switch", id });
    return { input, read: () => input.checked, set: (v) => { input.checked = !!v; } };
  },
  int(option, id) {
    const input = numberInput(id, option, null, option.label);
    return {
      input,
      read: () => readNumber(input, option, option.label),
      set: (v) => { input.value = v ?? ""; },
    };
  },
  choice(option, id) {
    const input = el("select", { id }, option.choices.map((c, i) => el("option", { value: String(i) }, c.label)));
    return {
      input,
      read: () => option.choices[Number(input.value)].value,
      set: (v) => { input.value = String(Math.max(0, option.choices.findIndex((c) => same(c.value, v)))); },
    };
  },
  set(option, id) {
    const boxes = option.choices.map((c, i) => el("input", { type: "checkbox", id: i ? `${id}-${i}` : id, value: String(i) }));
    const input = el("div", { class: "rule-set" }, option.choices.map((c, i) =>
      el("label", { class: "inline", for: boxes[i].id }, boxes[i], " ", c.label)));
    return {
      input,
      read: () => option.choices.filter((c, i) => boxes[i].checked).map((c) => c.value),
      set: (v) => boxes.forEach((box, i) => { box.checked = (v || []).some((x) => same(x, option.choices[i].value)); }),
    };
  },
  per_players(option, id) {
    const counts = Object.keys(option.default || {});
    const inputs = counts.map((n, i) => numberInput(i ? `${id}-${i}` : id, option, null, `${option.label}, ${n} players`));
    const input = el("div", { class: "rule-grid" }, counts.map((n, i) =>
      el("label", { class: "inline", for: inputs[i].id }, `${n} players `, inputs[i])));
    return {
      input,
      read: () => Object.fromEntries(counts.map((n, i) => [n, readNumber(inputs[i], option, `${option.label} (${n} players)`)])),
      set: (v) => counts.forEach((n, i) => { inputs[i].value = v?.[n] ?? ""; }),
    };
  },
  payments(option, id, seats) {
    const places = Array.from({ length: seats }, (_, i) => i + 1);
    const inputs = places.map((p, i) => el("input", { type: "number", step: "1", inputmode: "numeric", id: i ? `${id}-${i}` : id,
      "aria-label": `${option.label}, place ${p}`, placeholder: "—" }));
    const input = el("div", { class: "rule-grid" }, places.map((p, i) =>
      el("label", { class: "inline", for: inputs[i].id }, `place ${p} `, inputs[i])));
    return {
      input,
      read: () => {
        const texts = inputs.map((i) => i.value.trim());
        if (texts.every((t) => t === "")) return {};
        if (texts.some((t) => t === "" || !Number.isInteger(Number(t)))) {
          throw new Error(`${option.label}: fill in every place with a whole number, or none`);
        }
        return { [String(seats)]: texts.map(Number) };
      },
      set: (v) => {
        const row = v?.[String(seats)] || [];
        inputs.forEach((input, i) => { input.value = row[i] ?? ""; });
      },
    };
  },
  schedule(option, id) {
    const hands = (option.default || []).length;
    const cells = Array.from({ length: hands }, (_, h) => [0, 1].map((k) => el("input", {
      type: "number", min: "0", step: "1", inputmode: "numeric", id: h || k ? `${id}-${h}-${k}` : id,
      "aria-label": `Hand ${h + 1}: ${k ? "blind cards per buy" : "buys"}`,
    })));
    const input = el("table", { class: "rule-schedule" },
      el("thead", {}, el("tr", {}, el("th", {}, "Hand"), el("th", {}, "Buys"), el("th", {}, "Blind cards"))),
      el("tbody", {}, cells.map((pair, h) => el("tr", {}, el("th", { scope: "row" }, h + 1),
        pair.map((cell) => el("td", {}, cell))))));
    const positive = { ...option, min: 0, nullable: false };
    return {
      input,
      read: () => cells.map((pair, h) => pair.map((cell, k) => readNumber(cell, positive, `Hand ${h + 1} ${k ? "blind cards" : "buys"}`))),
      set: (v) => cells.forEach((pair, h) => pair.forEach((cell, k) => { cell.value = v?.[h]?.[k] ?? 0; })),
    };
  },
};

/**
 * The house-rules panel of one variant: groups of labelled controls, each with its sentence and default,
 * and "Reset to the standard rules". Returns {node, changes(): the options that differ from the defaults,
 * setSeats(n)}; changes() throws an Error naming a bad entry.
 */
export function houseRulesPanel(variant, seats) {
  const node = el("div", { class: "rules-panel" });
  let controls = [];
  const render = (count) => {
    const kept = Object.fromEntries(controls.map((c) => {
      try {
        return [c.option.key, c.read()];
      } catch {
        return [c.option.key, undefined];
      }
    }));
    controls = variant.options.map((option) => ruleControl(option, count));
    for (const control of controls) {
      const value = kept[control.option.key];
      if (value !== undefined && control.option.type !== "payments") control.set(value);
    }
    const groups = variant.groups.map((group) => {
      const rows = controls.filter((c) => c.option.group === group.id).map((c) => c.row);
      if (!rows.length) return null;
      return el("details", { class: "rule-group", dataset: { group: group.id } },
        el("summary", {}, group.title, el("span", { class: "muted count" }, ` · ${rows.length}`)), rows);
    });
    node.replaceChildren(
      el("p", { class: "muted rules-intro" }, "Every rule starts as the game's own. Change any you play differently."),
      el("button", { type: "button", class: "small", id: "reset-rules", onclick: () => reset() }, "Reset to the standard rules"),
      ...groups.filter(Boolean));
  };
  const reset = () => {
    for (const control of controls) control.set(control.option.default);
  };
  render(seats);
  return {
    node,
    reset,
    setSeats: (n) => render(n),
    changes() {
      const options = {};
      for (const control of controls) {
        const value = control.read();
        if (!same(value, control.option.default)) options[control.option.key] = value;
      }
      return options;
    },
  };
}

/** The "How to play" panel: the help's sections (from the server) in a dialog. */
export function showHelp(help, title = `How to play: ${help.name}`) {
  const sections = (help.sections || []).map((section) => el("section", { class: "help-section" },
    el("h3", {}, section.title),
    section.lines.length > 1 ? el("ul", {}, section.lines.map((line) => el("li", {}, line)))
      : el("p", {}, section.lines[0])));
  return modal(title, sections, { id: "help-panel", wide: true });
}
