// @ts-check
/* What a player does on the board, turned into inputs for the board (main.js): a press on a
 * card or a control (acted on at the press, not the click: a redraw between press and release
 * must not lose it), a drag of one card onto its partner, and the keys.
 *
 * Keys: Tab enters the board once and the arrows move between the free cards; Enter or Space
 * presses the focused card; D draws (or recycles), U undoes, R redoes, H asks a hint, S and W take the
 * stock's and the waste's card, P pauses, Esc drops the selection. */

import { closestTo } from "./dom.js";

const DRAG_THRESHOLD = 6;  // px a press must travel to become a drag

function playableBoard() {
  const board = document.getElementById("board");
  return board && board.hasAttribute("data-play") ? board : null;
}

function freeCards(board) {
  return board ? Array.from(board.querySelectorAll("button[data-card]:not([disabled])")) : [];
}

/** The input a control stands for (its name, value and data-action): a card, a draw or
 * recycle, undo, hint, or none. */
function inputOf({ name, value, action }) {
  if (name === "card") return { kind: "card", card: value };
  if (name === "action") return { kind: value };
  return ["undo", "redo", "hint", "finish", "play-hint"].includes(action) ? { kind: action } : null;
}

function inputFor(control) {
  return inputOf({ name: control.name, value: control.value,
    action: control.getAttribute("data-action") });
}

/** The input a key stands for (arrows move the focus instead: none). */
function inputForKey(key) {
  const lower = key.length === 1 ? key.toLowerCase() : key;
  if (lower === "p") return { kind: "pause" };
  if (lower === "Escape") return { kind: "deselect" };
  if (lower === "s" || lower === "w") return { kind: "pile", pile: lower === "s" ? "stock" : "waste" };
  const simple = { d: "stock", u: "undo", r: "redo", h: "hint", f: "finish", n: "play-hint" }[lower];
  return simple ? { kind: simple } : null;
}

/** Play the inputs made before this script started (early.js kept them). */
export function replayEarly(board) {
  const early = window.pyramidEarly;
  if (!early) return;
  early.taken = true;
  for (const made of early.inputs.splice(0)) {
    const input = made.key !== undefined ? inputForKey(made.key) : inputOf(made);
    if (input) board.take({ ...input, at: made.at });
  }
}

/** Wire the page's events to `board.take(input)`. */
export function listen(board) {
  let drag = null;

  document.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || !playableBoard()) return;
    const control = closestTo(event, "#board[data-play] [data-board-form] button:not([disabled]), #board[data-play] button[data-card]:not([disabled]), #board[data-play] button[data-action=finish], #board[data-play] button[data-action=play-hint], #board[data-play] button[data-action=redo]:not([disabled])");
    if (!control) return;
    const input = inputFor(control);
    if (!input) return;
    input.at = event.timeStamp;
    const wasSelected = board.selected();
    board.take(input);
    if (input.kind === "card" && board.selected() === input.card && wasSelected !== input.card) {
      drag = { card: control, name: input.card, x: event.clientX, y: event.clientY, ghost: null,
        id: event.pointerId };
    }
  });
  // A pointer's click follows its press, which was the input; a keyboard's click is the input.
  document.addEventListener("click", (event) => {
    const form = closestTo(event, "#board[data-play] [data-board-form]");
    if (form && event.detail > 0) event.preventDefault();
    const helper = closestTo(event, "#board[data-play] button[data-action=finish], #board[data-play] button[data-action=play-hint], #board[data-play] button[data-action=redo]");
    if (helper && event.detail === 0) board.take(inputFor(helper));
    // The end card drawn here (no network, or before the server's): the same deal again.
    if (closestTo(event, "#board[data-play] [data-banner] button[data-action=again]")
        && board.canRestart()) board.restart();
  }, true);
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (form.matches("#board[data-play] form") && form.querySelector('[data-action="restart"]')
        && board.canRestart()) {
      event.preventDefault();  // the same deal again, here and now
      board.restart();
      return;
    }
    if (!form.matches("#board[data-play] [data-board-form]")) return;
    event.preventDefault();
    const submitter = event.submitter || form.querySelector("button");
    const input = submitter && inputFor(submitter);
    if (input) board.take(input);
  });

  document.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.ghost) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      // A copy of the card follows the pointer: decorative, no button, the card's name on it.
      const rect = drag.card.getBoundingClientRect();
      const ghost = document.createElement("span");
      ghost.className = `${drag.card.className} drag-ghost`;
      ghost.setAttribute("aria-hidden", "true");
      ghost.setAttribute("data-card", drag.name);
      ghost.append(...Array.from(drag.card.childNodes, (node) => node.cloneNode(true)));
      Object.assign(ghost.style, { left: `${rect.left}px`, top: `${rect.top}px`,
        width: `${rect.width}px`, height: `${rect.height}px` });
      drag.ghost = ghost;
      document.body.appendChild(drag.ghost);
      drag.card.classList.add("dragging");
    }
    drag.ghost.style.transform = `translate(${dx}px,${dy}px)`;
    const target = partnerUnder(event);
    for (const node of document.querySelectorAll("#board .drop-target")) {
      if (node !== target) node.classList.remove("drop-target");
    }
    if (target) target.classList.add("drop-target");
    event.preventDefault();
  });

  function partnerUnder(event) {
    if (!drag?.ghost) return null;
    drag.ghost.hidden = true;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    drag.ghost.hidden = false;
    const target = under?.closest?.("#board button[data-card]:not([disabled])");
    if (!target || target.getAttribute("data-card") === drag.name) return null;
    return board.pairs(drag.name, target.getAttribute("data-card")) ? target : null;
  }

  function endDrag(event, drop) {
    if (!drag || event.pointerId !== drag.id) return;
    const target = drop ? partnerUnder(event) : null;
    const current = drag;
    drag = null;
    if (!current.ghost) return;  // a plain press: it has done its part
    current.ghost.remove();
    current.card.classList.remove("dragging");
    for (const node of document.querySelectorAll("#board .drop-target")) node.classList.remove("drop-target");
    if (target) board.take({ kind: "card", card: target.getAttribute("data-card"), at: event.timeStamp });
    else if (board.selected() === current.name) board.take({ kind: "deselect", quietly: true });
  }
  document.addEventListener("pointerup", (event) => endDrag(event, true));
  document.addEventListener("pointercancel", (event) => endDrag(event, false));

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (closestTo(event, "input, textarea, select, [contenteditable]")) return;
    const root = playableBoard();
    if (!root) return;
    const key = event.key;
    const input = inputForKey(key);
    if (input) {
      if (input.kind !== "deselect") event.preventDefault();
      if (input.kind === "pause" || !board.paused()) board.take({ ...input, at: event.timeStamp });
    } else if (key.startsWith("Arrow") && !board.paused()) {
      const active = document.activeElement;
      const onCard = active?.matches?.("#board button[data-card]");
      if (!onCard && active !== document.body && !root.contains(active)) return;
      const next = nearest(root, onCard ? active : null, key);
      if (next) { event.preventDefault(); focusCard(root, next); }
    }
  });
}

/** The free card nearest `from` in the arrow's direction. */
function nearest(root, from, direction) {
  const cards = freeCards(root);
  if (!cards.length) return null;
  if (!from || !cards.includes(from)) return cards[0];
  const a = from.getBoundingClientRect();
  const ax = a.left + a.width / 2, ay = a.top + a.height / 2;
  let best = null, bestScore = Infinity;
  for (const card of cards) {
    if (card === from) continue;
    const b = card.getBoundingClientRect();
    const dx = b.left + b.width / 2 - ax, dy = b.top + b.height / 2 - ay;
    const [along, across] = {
      ArrowLeft: [-dx, dy], ArrowRight: [dx, dy], ArrowUp: [-dy, dx], ArrowDown: [dy, dx],
    }[direction] || [dy, dx];
    if (along <= 1) continue;
    const score = along + 2 * Math.abs(across);
    if (score < bestScore) { bestScore = score; best = card; }
  }
  return best;
}

export function focusCard(root, card) {
  if (!card) return;
  for (const other of root.querySelectorAll("button[data-card]")) other.setAttribute("tabindex", "-1");
  card.setAttribute("tabindex", "0");
  card.focus();
}

/** One free card in the tab order (Tab enters the board once; the arrows do the rest). */
export function roving(root) {
  const cards = freeCards(root);
  if (!cards.length) return;
  const current = cards.find((c) => c === document.activeElement)
    || cards.find((c) => c.getAttribute("tabindex") === "0") || cards[0];
  for (const card of root.querySelectorAll("button[data-card]")) {
    const index = card === current ? "0" : "-1";
    // Set only where it changes: a write, even of the same value, makes the browser look at
    // the card's style again, and a move's drawing (static/js/board/drawer.js) comes here
    // with every free card.
    if (card.getAttribute("tabindex") !== index) card.setAttribute("tabindex", index);
  }
}

/** Where the focus was on the board, to put it back on the nearest free card after a redraw
 * that took the focused card away. */
export function focusOnBoard(root) {
  const active = document.activeElement;
  if (!active || !root || !root.contains(active)) return null;
  return { rect: active.getBoundingClientRect() };
}

export function keepFocus(root, was) {
  if (!was || !root || root.contains(document.activeElement)) return;
  let best = null, bestDistance = Infinity;
  for (const card of freeCards(root)) {
    const b = card.getBoundingClientRect();
    const distance = Math.hypot(b.left - was.rect.left, b.top - was.rect.top);
    if (distance < bestDistance) { bestDistance = distance; best = card; }
  }
  best = best || root.querySelector("[data-action]:not([disabled])");
  best?.focus({ preventScroll: true });
}

/** Ask the player a yes-or-no question on the page (the board's [data-ask-leave] box), as the
 * server's pages ask before a game is left. @returns {Promise<boolean>} */
export function ask(text) {
  const box = /** @type {HTMLElement|null} */ (document.querySelector("[data-ask-leave]"));
  if (!box) return Promise.resolve(true);
  box.querySelector("[data-ask-text]").textContent = text;
  box.hidden = false;
  /** @type {HTMLElement} */ (box.querySelector('[data-answer="yes"]')).focus();
  return new Promise((resolve) => {
    /** @param {Event} event */
    const answered = (event) => {
      const answer = closestTo(event, "[data-answer]")?.getAttribute("data-answer");
      if (!answer) return;
      box.hidden = true;
      box.removeEventListener("click", answered);
      resolve(answer === "yes");
    };
    box.addEventListener("click", answered);
  });
}
