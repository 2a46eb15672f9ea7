// The meld builder (choose cards into melds, then lay down the contract or meld them) and the
// rearrangement editor (rebuild table melds together with cards from the hand).

import { cardElement, cardText } from "./cards.js";
import { describeMeld, meldSpec, specCards, specElement } from "./melds.js";
import { el, fill, toast } from "./ui.js";

export class MeldBuilder {
  /** opts: {hand: HandView, send(bodyText), arrange(meldText): the server's order of picked cards (melds.js meldSpec)} */
  constructor(container, opts) {
    this.container = container;
    this.opts = opts;
    this.staged = []; // [{spec, keys}]
    this.message = "";
    this.view = null;
    this.verb = "down";
  }

  /** Show the builder for this view (verb "down" for contracts, "meld" for basic), or hide it. */
  update(view, verb, visible) {
    this.view = view;
    this.verb = verb;
    const held = new Set(this.opts.hand.items.map((i) => i.key));
    this.staged = this.staged.filter((m) => m.keys.every((k) => held.has(k)));
    if (!visible) this.staged = [];
    this.container.hidden = !visible;
    this.syncHand();
    if (visible) this.render();
  }

  syncHand() {
    this.opts.hand.setStaged(this.staged.flatMap((m) => m.keys));
  }

  kinds() {
    const contract = this.view?.contract || [];
    const kinds = ["set", "run"];
    if (contract.some((slot) => slot.includes("pair"))) kinds.push("pair");
    return kinds;
  }

  async addMeld(kind) {
    const items = this.opts.hand.selected();
    try {
      const spec = await meldSpec(kind, items.map((i) => i.card), this.opts.arrange);
      // keep the hand cards in the order the spec lists them
      const keys = [];
      const pool = [...items];
      for (const card of specCards(spec)) {
        const i = pool.findIndex((it) => it.card === card);
        keys.push(pool.splice(i, 1)[0].key);
      }
      this.staged.push({ spec, keys });
      this.message = "";
      this.syncHand();
      this.opts.hand.clearSelection();
      this.render();
    } catch (err) {
      this.message = err.message;
      this.render();
    }
  }

  /** Stage melds given in notation (the hint), matching their cards to cards in the hand. */
  stageSpecs(specs) {
    this.staged = [];
    const pool = [...this.opts.hand.items];
    for (const spec of specs) {
      const keys = [];
      for (const card of specCards(spec)) {
        const i = pool.findIndex((it) => it.card === card);
        if (i < 0) return;
        keys.push(pool.splice(i, 1)[0].key);
      }
      this.staged.push({ spec, keys });
    }
    this.message = "";
    this.syncHand();
    this.render();
  }

  remove(index) {
    this.staged.splice(index, 1);
    this.syncHand();
    this.render();
  }

  clear() {
    this.staged = [];
    this.message = "";
    this.syncHand();
    this.render();
  }

  submit() {
    if (!this.staged.length) {
      this.message = "Choose cards and add them as melds first.";
      this.render();
      return;
    }
    this.opts.send(`${this.verb} ${this.staged.map((m) => m.spec).join(" ")}`);
  }

  /** The server refused the lay-down: show why, keep the melds for fixing. */
  refused(message) {
    this.message = message;
    this.render();
  }

  render() {
    const view = this.view;
    if (!view) return;
    const contract = view.contract || [];
    const title = this.verb === "down"
      ? el("h3", {}, "Lay down: ", el("span", { class: "contract" }, contract.join(" + ")))
      : el("h3", {}, "Make melds");
    const kindButtons = this.kinds().map((kind) => el("button", {
      type: "button", class: "kind", id: `builder-${kind}`, onclick: () => this.addMeld(kind),
    }, `+ ${kind[0].toUpperCase()}${kind.slice(1)}`));
    const staged = el("ol", { class: "staged" }, this.staged.map((m, i) => el("li", {},
      specElement(m.spec),
      el("button", { type: "button", class: "icon", "aria-label": "Take this meld apart", title: "Take apart",
        onclick: () => this.remove(i) }, "×"))));
    const count = this.staged.length;
    const submitLabel = this.verb === "down" ? `Lay down${count ? ` (${count})` : ""}` : `Meld${count ? ` (${count})` : ""}`;
    fill(this.container,
      el("div", { class: "builder-head" }, title,
        el("div", { class: "row" }, kindButtons,
          el("button", { type: "button", class: "primary", id: "builder-submit", disabled: !count,
            onclick: () => this.submit() }, submitLabel),
          count ? el("button", { type: "button", class: "ghost", onclick: () => this.clear() }, "Clear") : null)),
      count ? staged : el("p", { class: "help" }, "Select cards in your hand, then add them as a set or a run."),
      this.message ? el("p", { class: "error", role: "alert" }, this.message) : null);
  }
}

/**
 * Modal editor for `rearrange M,M => MELD MELD`: pick table melds and hand cards into a pool, then
 * group the pool into new melds (in the order `arrange` has the server give them). Suggestions from
 * legal_actions can be sent directly.
 */
export function openRearrangeEditor({ view, handItems, preselectedKeys, send, arrange }) {
  const melds = view.table || [];
  const chosenMelds = new Set();
  const chosenHand = new Set(preselectedKeys);
  let groups = []; // [{spec, tokens}]
  let picked = new Set(); // pool token ids
  let message = "";
  const suggestions = view.legal_actions.filter((a) => a.split(" ")[1] === "rearrange").slice(0, 6);

  const backdrop = el("div", { class: "backdrop" });
  const dialog = el("div", { class: "dialog wide", role: "dialog", "aria-modal": "true", "aria-label": "Rearrange melds" });
  backdrop.append(dialog);
  const close = () => backdrop.remove();

  const pool = () => {
    const tokens = [];
    for (const meld of melds) {
      if (!chosenMelds.has(meld.id)) continue;
      meld.cards.forEach((card, i) => tokens.push({ id: `m${meld.id}-${i}`, card }));
    }
    for (const item of handItems) if (chosenHand.has(item.key)) tokens.push({ id: `h${item.key}`, card: item.card });
    const used = new Set(groups.flatMap((g) => g.tokens));
    return tokens.filter((t) => !used.has(t.id));
  };

  const addGroup = async (kind) => {
    const tokens = pool().filter((t) => picked.has(t.id));
    try {
      const spec = await meldSpec(kind, tokens.map((t) => t.card), arrange);
      groups.push({ spec, tokens: tokens.map((t) => t.id) });
      picked = new Set();
      message = "";
    } catch (err) {
      message = err.message;
    }
    render();
  };

  const submit = () => {
    if (!chosenMelds.size || !groups.length) {
      message = "Pick the table melds to rebuild and group all their cards into new melds.";
      render();
      return;
    }
    if (pool().length) {
      message = `Every card must go into a new meld (${pool().map((t) => cardText(t.card)).join(" ")} left).`;
      render();
      return;
    }
    send(`rearrange ${[...chosenMelds].sort((a, b) => a - b).join(",")} => ${groups.map((g) => g.spec).join(" ")}`);
    close();
  };

  const toggleChip = (set, key) => {
    if (set.has(key)) set.delete(key);
    else set.add(key);
    groups = [];
    render();
  };

  function render() {
    const meldChips = melds.map((m) => el("button", {
      type: "button", class: "chip" + (chosenMelds.has(m.id) ? " on" : ""), "aria-pressed": String(chosenMelds.has(m.id)),
      onclick: () => toggleChip(chosenMelds, m.id),
    }, `#${m.id} ${describeMeld(m)}`));
    const handChips = handItems.map((item) => {
      const node = cardElement(item.card, { small: true, tag: "button" });
      node.type = "button";
      node.classList.toggle("selected", chosenHand.has(item.key));
      node.setAttribute("aria-pressed", String(chosenHand.has(item.key)));
      node.addEventListener("click", () => toggleChip(chosenHand, item.key));
      return node;
    });
    const poolNodes = pool().map((t) => {
      const node = cardElement(t.card, { small: true, tag: "button" });
      node.type = "button";
      node.classList.toggle("selected", picked.has(t.id));
      node.setAttribute("aria-pressed", String(picked.has(t.id)));
      node.addEventListener("click", () => {
        if (picked.has(t.id)) picked.delete(t.id);
        else picked.add(t.id);
        render();
      });
      return node;
    });
    fill(dialog,
      el("h2", {}, "Rearrange melds"),
      suggestions.length ? el("div", { class: "suggestions" }, el("h3", {}, "Suggestions"),
        suggestions.map((a) => el("button", { type: "button", class: "suggestion", onclick: () => {
          send(a.split(" ").slice(1).join(" "));
          close();
        } }, a.split(" ").slice(2).join(" ")))) : null,
      el("h3", {}, "1. Table melds to rebuild"), el("div", { class: "chips" }, meldChips),
      el("h3", {}, "2. Cards from your hand"), el("div", { class: "chips cards" }, handChips),
      el("h3", {}, "3. Group the cards into new melds"),
      el("div", { class: "chips cards pool" }, poolNodes.length ? poolNodes : el("span", { class: "muted" }, "—")),
      el("div", { class: "row" },
        el("button", { type: "button", onclick: () => addGroup("set") }, "+ Set"),
        el("button", { type: "button", onclick: () => addGroup("run") }, "+ Run")),
      el("ol", { class: "staged" }, groups.map((g, i) => el("li", {}, specElement(g.spec),
        el("button", { type: "button", class: "icon", "aria-label": "Take apart", onclick: () => {
          groups.splice(i, 1);
          render();
        } }, "×")))),
      message ? el("p", { class: "error", role: "alert" }, message) : null,
      el("div", { class: "row" },
        el("button", { type: "button", class: "primary", onclick: submit }, "Rearrange"),
        el("button", { type: "button", class: "ghost", onclick: close }, "Cancel")));
  }

  render();
  document.body.append(backdrop);
  backdrop.addEventListener("keydown", (e) => e.key === "Escape" && close());
  dialog.querySelector("button")?.focus();
  toast("Choose melds and cards to rebuild");
}
