// The player's own hand: local order (sort by suit / rank or arrange by hand), selection, drag with
// pointer events (mouse and touch), and keyboard operation (arrows, Shift+arrows, Enter/Space).
// A tap selects on the browser's click, which follows the pointerup: the page re-renders only after
// the whole gesture, so nothing moves under the finger between pointerup and click.

import { cardElement, isJoker, isWild, rankKey, suitKey } from "./cards.js";

const DRAG_THRESHOLD = 8;

export class HandView {
  /**
   * handlers: onSelect(items) when the selection changes; onDrop(items, dropElement) when cards are
   * dropped on an element marked data-drop; onReorder() after a manual rearrangement.
   */
  constructor(container, handlers = {}) {
    this.container = container;
    this.handlers = handlers;
    this.items = []; // [{key, card, fresh}]
    this.selectedKeys = new Set();
    this.stagedKeys = new Set();
    this.focusKey = null;
    this.mode = "suit";
    this.counter = 0;
    this.facts = null;
    this.drag = null;
    this.dragEnded = false; // a drag just ended: the click that follows its pointerup is not a tap
    this.tapTimer = null; // a tap's pointerup came, its click has not yet
    this.seeded = false;
    container.classList.add("hand");
    container.setAttribute("role", "listbox");
    container.setAttribute("aria-multiselectable", "true");
    container.setAttribute("aria-label", "Your hand. Arrow keys move, Enter or Space selects, Shift with arrows moves a card.");
    container.addEventListener("keydown", (e) => this.onKey(e));
  }

  /** Take the server's hand (a multiset) and keep the local order of cards still held; `facts` are the
   * view's resolved facts (which cards are wild). */
  setCards(cards, facts) {
    const signature = [...cards].sort().join(" ") + "|" + (facts?.wild_cards || []).join(",");
    if (signature === this.signature) return;
    this.signature = signature;
    this.facts = facts;
    const remaining = [...cards];
    const kept = [];
    for (const item of this.items) {
      const i = remaining.indexOf(item.card);
      if (i >= 0) {
        remaining.splice(i, 1);
        kept.push({ ...item, fresh: false });
      }
    }
    const added = remaining.map((card) => ({ key: `${card}#${++this.counter}`, card, fresh: this.seeded }));
    this.items = kept.concat(added);
    this.seeded = true;
    const keys = new Set(this.items.map((i) => i.key));
    for (const k of [...this.selectedKeys]) if (!keys.has(k)) this.selectedKeys.delete(k);
    for (const k of [...this.stagedKeys]) if (!keys.has(k)) this.stagedKeys.delete(k);
    if (this.mode !== "manual") this.applySort(this.mode);
    this.render();
  }

  /** Forget fresh-card highlights and order (a new round). */
  reset() {
    this.items = [];
    this.signature = null;
    this.seeded = false;
    this.selectedKeys.clear();
    this.stagedKeys.clear();
  }

  applySort(mode) {
    const key = mode === "rank" ? rankKey : suitKey;
    this.items.sort((a, b) => key(a.card) - key(b.card));
  }

  sortBy(mode) {
    this.mode = mode;
    if (mode !== "manual") this.applySort(mode);
    this.render();
  }

  selected() {
    return this.items.filter((i) => this.selectedKeys.has(i.key) && !this.stagedKeys.has(i.key));
  }

  available() {
    return this.items.filter((i) => !this.stagedKeys.has(i.key));
  }

  clearSelection() {
    this.selectedKeys.clear();
    this.render();
    this.handlers.onSelect?.([]);
  }

  select(keys) {
    this.selectedKeys = new Set(keys);
    this.render();
    this.handlers.onSelect?.(this.selected());
  }

  setStaged(keys) {
    const next = new Set(keys);
    if (next.size === this.stagedKeys.size && [...next].every((k) => this.stagedKeys.has(k))) return;
    this.stagedKeys = next;
    for (const k of this.stagedKeys) this.selectedKeys.delete(k);
    this.render();
  }

  toggle(key) {
    if (this.stagedKeys.has(key)) return;
    if (this.selectedKeys.has(key)) this.selectedKeys.delete(key);
    else this.selectedKeys.add(key);
    this.focusKey = key;
    this.render();
    this.handlers.onSelect?.(this.selected());
  }

  render() {
    if (this.drag || this.tapTimer) {
      this.pendingRender = true; // never pull the dragged card from under the pointer
      return;
    }
    this.pendingRender = false;
    const focused = this.container.contains(document.activeElement);
    this.container.replaceChildren();
    if (!this.items.some((i) => i.key === this.focusKey)) this.focusKey = this.items[0]?.key ?? null;
    for (const item of this.items) {
      const node = cardElement(item.card);
      node.dataset.key = item.key;
      node.setAttribute("role", "option");
      const selected = this.selectedKeys.has(item.key);
      node.setAttribute("aria-selected", selected ? "true" : "false");
      node.tabIndex = item.key === this.focusKey ? 0 : -1;
      if (selected) node.classList.add("selected");
      if (this.stagedKeys.has(item.key)) {
        node.classList.add("staged");
        node.setAttribute("aria-disabled", "true");
      }
      if (item.fresh) node.classList.add("fresh");
      if (!isJoker(item.card) && isWild(item.card, this.facts)) {
        node.classList.add("is-wild");
        node.setAttribute("aria-label", node.getAttribute("aria-label") + ", wild");
      }
      node.addEventListener("pointerdown", (e) => this.onPointerDown(e, item, node));
      node.addEventListener("click", () => this.onTap(item));
      node.addEventListener("focus", () => { this.focusKey = item.key; });
      this.container.append(node);
    }
    this.container.classList.toggle("many", this.items.length > 12);
    if (focused) this.focusCurrent();
  }

  focusCurrent() {
    const node = this.container.querySelector(`[data-key="${CSS.escape(this.focusKey || "")}"]`);
    node?.focus();
  }

  // -- keyboard ---------------------------------------------------------------------------

  onKey(event) {
    const index = this.items.findIndex((i) => i.key === this.focusKey);
    if (index < 0) return;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
    if (step) {
      event.preventDefault();
      const target = Math.max(0, Math.min(this.items.length - 1, index + step));
      if (event.shiftKey || event.altKey) {
        const [moved] = this.items.splice(index, 1);
        this.items.splice(target, 0, moved);
        this.mode = "manual";
        this.handlers.onReorder?.();
      }
      this.focusKey = this.items[target].key;
      this.render();
      this.focusCurrent();
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      this.focusKey = this.items[event.key === "Home" ? 0 : this.items.length - 1].key;
      this.render();
      this.focusCurrent();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.toggle(this.focusKey);
      this.focusCurrent();
    } else if (event.key === "Escape") {
      this.clearSelection();
      this.focusCurrent();
    }
  }

  // -- pointer drag -----------------------------------------------------------------------

  /** A tap or click on a card (the click after a drag is not one). */
  onTap(item) {
    clearTimeout(this.tapTimer);
    this.tapTimer = null;
    if (this.dragEnded) {
      this.dragEnded = false;
      if (this.pendingRender) this.render();
      return;
    }
    this.toggle(item.key);
  }

  onPointerDown(event, item, node) {
    if (event.button !== undefined && event.button !== 0) return;
    this.dragEnded = false;
    if (this.stagedKeys.has(item.key)) return;
    event.preventDefault();
    node.focus({ preventScroll: true });
    this.drag = { item, node, x: event.clientX, y: event.clientY, started: false, pointerId: event.pointerId };
    node.setPointerCapture?.(event.pointerId);
    const move = (e) => this.onPointerMove(e);
    const up = (e) => {
      node.removeEventListener("pointermove", move);
      node.removeEventListener("pointerup", up);
      node.removeEventListener("pointercancel", cancel);
      this.onPointerUp(e);
    };
    const cancel = () => {
      node.removeEventListener("pointermove", move);
      node.removeEventListener("pointerup", up);
      node.removeEventListener("pointercancel", cancel);
      this.endDrag();
    };
    node.addEventListener("pointermove", move);
    node.addEventListener("pointerup", up);
    node.addEventListener("pointercancel", cancel);
  }

  onPointerMove(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.started) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_THRESHOLD) return;
      this.startDrag();
    }
    drag.ghost.style.transform = `translate(${event.clientX - drag.offsetX}px, ${event.clientY - drag.offsetY}px)`;
    this.updateTarget(event.clientX, event.clientY);
  }

  startDrag() {
    const drag = this.drag;
    drag.started = true;
    const selected = this.selected();
    drag.items = selected.some((i) => i.key === drag.item.key) ? selected : [drag.item];
    const rect = drag.node.getBoundingClientRect();
    drag.offsetX = drag.x - rect.left;
    drag.offsetY = drag.y - rect.top;
    const ghost = document.createElement("div");
    ghost.className = "drag-ghost";
    for (const item of drag.items) ghost.append(cardElement(item.card));
    document.body.append(ghost);
    drag.ghost = ghost;
    for (const item of drag.items) {
      this.container.querySelector(`[data-key="${CSS.escape(item.key)}"]`)?.classList.add("dragging");
    }
    document.body.classList.add("is-dragging");
  }

  updateTarget(x, y) {
    const drag = this.drag;
    const under = document.elementFromPoint(x, y);
    const drop = under?.closest("[data-drop]");
    const handCard = under?.closest(".hand .card");
    if (drag.target && drag.target !== drop) drag.target.classList.remove("drop-hover");
    drag.target = drop && !this.container.contains(drop) ? drop : null;
    drag.target?.classList.add("drop-hover");
    for (const n of this.container.querySelectorAll(".insert-before, .insert-after")) {
      n.classList.remove("insert-before", "insert-after");
    }
    drag.insert = null;
    if (!drag.target && (handCard || (under && this.container.contains(under)))) {
      if (handCard && this.container.contains(handCard)) {
        const r = handCard.getBoundingClientRect();
        const after = x > r.left + r.width / 2;
        handCard.classList.add(after ? "insert-after" : "insert-before");
        drag.insert = { key: handCard.dataset.key, after };
      } else {
        drag.insert = { key: null, after: true };
      }
    }
  }

  onPointerUp(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.started) {
      // A tap: the click that follows selects (onTap). Until it comes (or briefly, if none does) the
      // hand is not redrawn, so the card stays under the finger.
      this.drag = null;
      this.tapTimer = setTimeout(() => {
        this.tapTimer = null;
        if (this.pendingRender) this.render();
      }, 500);
      return;
    }
    this.dragEnded = true;
    this.updateTarget(event.clientX, event.clientY);
    const { target, insert, items } = drag;
    this.endDrag();
    if (target) {
      this.handlers.onDrop?.(items, target);
    } else if (insert) {
      this.moveItems(items, insert);
    }
  }

  moveItems(items, insert) {
    const moving = new Set(items.map((i) => i.key));
    if (insert.key && moving.has(insert.key)) return;
    const rest = this.items.filter((i) => !moving.has(i.key));
    let at = rest.length;
    if (insert.key) {
      at = rest.findIndex((i) => i.key === insert.key) + (insert.after ? 1 : 0);
    }
    const moved = this.items.filter((i) => moving.has(i.key));
    rest.splice(at, 0, ...moved);
    this.items = rest;
    this.mode = "manual";
    this.render();
    this.handlers.onReorder?.();
  }

  endDrag() {
    const drag = this.drag;
    this.drag = null;
    if (!drag) return;
    drag.ghost?.remove();
    drag.target?.classList.remove("drop-hover");
    document.body.classList.remove("is-dragging");
    for (const n of this.container.querySelectorAll(".dragging, .insert-before, .insert-after")) {
      n.classList.remove("dragging", "insert-before", "insert-after");
    }
    if (this.pendingRender) this.render();
  }
}
