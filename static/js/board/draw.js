/* Drawing the board from the game on this device, in the markup templates/_board.html draws
 * (tests/e2e/test_offline.py holds the two to each other): the pyramid, the stock, the waste,
 * the removed cards, the counters and the controls' states. Card faces are cloned from the
 * page's <template id="card-faces">, so a face is written once, in templates/_cards.html.
 *
 * A drawing is built off the page and morphed in (idiomorph): only what changed is touched,
 * and the focused card keeps its focus. */

import { COVERED_BY, Card, Move, PYRAMID_SIZE, rowCol } from "../engine/index.js";
import { cardName, withSymbols } from "./words.js";

/** What the board shows beyond the position: the selection, hinted and refused cards. */
export class Marks {
  constructor() {
    this.hinted = new Set();
    this.hintedAction = null;
    this.refused = new Set();
  }
  clear() { this.hinted.clear(); this.hintedAction = null; this.refused.clear(); }
}

function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

let facesTemplate = null;
function face(card) {
  facesTemplate ??= document.getElementById("card-faces");
  const found = facesTemplate.content.querySelector(`[data-face="${card.name}"]`);
  return Array.from(found.childNodes, (node) => node.cloneNode(true));
}

function classes(...names) { return names.filter(Boolean).join(" "); }

function marksOf(card, marks) {
  return classes(marks.hinted.has(card.name) && "hinted", marks.refused.has(card.name) && "refused");
}

/** A free card as the page's button (templates/_cards.html, card_button). */
function cardButton(card, { selected, enabled, place = "", extra = "" }) {
  return element("button", {
    type: "submit", name: "card", value: card.name, id: `card-${card.name}`,
    class: classes("card", card.isRed ? "red" : "black", "free", selected && "selected",
      card.isKing && "king", place, extra),
    "data-card": card.name, "aria-label": card.longName, "data-king": card.isKing,
    "aria-pressed": selected ? "true" : (enabled ? "false" : null),
    disabled: !enabled,
  }, face(card));
}

function coveredCard(card, place, over, extra) {
  return element("span", {
    class: classes("card", card.isRed ? "red" : "black", "covered", place, extra),
    id: `card-${card.name}`, "data-card": card.name, role: "img",
    "aria-label": `${card.longName}, covered by ${over.map(cardName).join(" and ")}`,
  }, face(card));
}

function emptyPile(extra = "") {
  return element("span", { class: classes("empty-pile", extra), "aria-hidden": "true" });
}

function plural(count, word) { return `${count} ${word}${count === 1 ? "" : "s"}`; }

/** The pyramid's 28 places, as templates/_board.html draws them. */
function pyramidNodes(local, marks, canMove) {
  const { game } = local;
  const nodes = [];
  for (let index = 0; index < PYRAMID_SIZE; index++) {
    const [row, col] = rowCol(index);
    const spot = `r${row} c${col}`;
    const card = game.pyramid[index];
    if (!card) {
      nodes.push(element("span", { class: `slot-gone ${spot}`, "aria-hidden": "true" }));
      continue;
    }
    const over = COVERED_BY[index].map((i) => game.pyramid[i]).filter(Boolean);
    const extra = marksOf(card, marks);
    nodes.push(over.length ? coveredCard(card, `in-pyramid ${spot}`, over, extra)
      : cardButton(card, { selected: local.selected === card.name, enabled: canMove,
        place: `in-pyramid ${spot}`, extra }));
  }
  return nodes;
}

function stockPile(local, marks, canMove) {
  const { game } = local;
  const faceDown = game.stock.length ? game.stock.length - 1 : 0;
  const canDraw = canMove && game.isLegal(Move.draw());
  const canRecycle = canMove && game.isLegal(Move.recycle());
  const drawMark = marks.hintedAction === "draw" && "hinted";
  let back;
  if (canDraw) {
    back = element("button", {
      type: "submit", name: "action", value: "draw",
      class: classes("card-back", faceDown === 0 && "empty", drawMark), "data-stock-back": true,
      "data-depth": faceDown ? Math.min(faceDown - 1, 2) : 0, tabindex: "-1",
      "aria-label": `Draw a card (${faceDown} face down)`,
    }, [element("span", { class: "back-count", "data-count": "face-down" }, [String(faceDown)])]);
  } else if (faceDown > 0) {
    back = element("span", { class: classes("card-back", drawMark),
      "data-depth": Math.min(faceDown - 1, 2), "aria-hidden": "true" },
    [element("span", { class: "back-count", "data-count": "face-down" }, [String(faceDown)])]);
  } else {
    back = element("span", { class: "card-back empty", "aria-hidden": "true" });
  }
  let top;
  const recycleMark = marks.hintedAction === "recycle" && "hinted";
  if (game.stockTop) {
    top = cardButton(game.stockTop, { selected: local.selected === game.stockTop.name,
      enabled: canMove, extra: marksOf(game.stockTop, marks) });
  } else if (!canRecycle) {
    top = emptyPile(recycleMark);
  } else {
    top = element("button", {
      type: "submit", name: "action", value: "recycle", id: "action-recycle",
      class: classes("empty-pile recycle", recycleMark), "data-action": "recycle",
      "aria-keyshortcuts": "D",
      "aria-label": `Recycle: turn the waste over for pass ${game.passNumber + 1} of ${game.passes}`,
    }, [element("span", { class: "recycle-mark", "aria-hidden": "true" }, ["\u21bb"]),
      element("span", { class: "recycle-text", "aria-hidden": "true" },
        ["Recycle ", element("kbd", { class: "key-badge" }, ["D"])])]);
  }
  const parts = [
    element("div", { class: "stock-row" }, [back,
      element("div", { class: "pile-cards", "data-top": "stock" }, [top])]),
    element("p", { class: "pile-label" },
      [element("span", { class: "count", "data-count": "stock" }, [String(game.stock.length)]),
        " in stock"]),
  ];
  if (game.stock.length) {
    parts.push(element("button", {
      type: "submit", name: "action", value: "draw", id: "action-draw",
      class: classes("btn pile-action", drawMark), "data-action": "draw", disabled: !canDraw,
      "aria-keyshortcuts": "D",
    }, ["Draw ", element("kbd", { class: "key-badge" }, ["D"])]));
  } else if (!canRecycle) {
    parts.push(element("p", { class: "pile-action pile-note",
      "data-no-draw": canMove ? withSymbols(game.whyIllegal(Move.draw()) || "") : "" },
    [game.passesLeft === 0 ? "No passes left" : "Stock empty"]));
  }
  return element("div", { class: "pile stock", "data-pile": "stock", role: "group",
    "aria-label": `Stock, ${plural(game.stock.length, "card")}` }, parts);
}

function wastePile(local, marks, canMove) {
  const { game } = local;
  const top = game.wasteTop
    ? cardButton(game.wasteTop, { selected: local.selected === game.wasteTop.name,
      enabled: canMove, extra: marksOf(game.wasteTop, marks) })
    : emptyPile();
  return element("div", { class: "pile waste", "data-pile": "waste", role: "group",
    "aria-label": `Waste, ${plural(game.waste.length, "card")}` }, [
    element("div", { class: "pile-cards", "data-top": "waste",
      "data-depth": game.waste.length ? Math.min(game.waste.length - 1, 3) : 0 }, [top]),
    element("p", { class: "pile-label" },
      [element("span", { class: "count", "data-count": "waste" }, [String(game.waste.length)]),
        " in waste"]),
  ]);
}

/** The card on top of the removed ones: the last card the last removal took. */
export function discardTop(game) {
  for (let i = game.moves.length - 1; i >= 0; i--) {
    const { cards } = game.moves[i];
    if (cards.length) return cards[cards.length - 1];
  }
  return null;
}

function discardPile(local) {
  const { game } = local;
  const removed = game.cardsRemoved;
  const top = discardTop(game);
  return element("div", { class: "pile discard", "data-pile": "discard", role: "group",
    "aria-label": `Removed, ${plural(removed, "card")}` }, [
    element("div", { class: "pile-cards", "data-top": "discard",
      "data-depth": removed ? Math.min(removed - 1, 3) : 0 }, [
      top ? element("span", { class: classes("card", top.isRed ? "red" : "black", "discarded"),
        "data-card": top.name, role: "img", "aria-label": top.longName }, face(top))
        : emptyPile()]),
    element("p", { class: "pile-label" },
      [element("span", { class: "count", "data-count": "discard" }, [String(removed)]), " removed"]),
  ]);
}

function morph(here, fresh) {
  if (window.Idiomorph) window.Idiomorph.morph(here, fresh, { morphStyle: "outerHTML" });
  else here.replaceWith(fresh);
}

/** Draw `local` on the board: the pyramid, the piles, the counters, the controls. */
export function drawBoard(board, local, marks, { canPlay }) {
  const { game } = local;
  const canMove = canPlay && local.playing;
  board.dataset.status = local.status.value;
  board.dataset.moves = String(game.moves.length);
  board.dataset.passesLeft = String(game.passesLeft);

  const pyramid = board.querySelector(".pyramid");
  const keep = Array.from(pyramid.children).filter((node) => !node.matches(".card, .slot-gone"));
  const freshPyramid = element("div", { class: "pyramid", role: "group", "aria-label": "Pyramid" },
    [...pyramidNodes(local, marks, canMove), ...keep.map((node) => node.cloneNode(true))]);
  morph(pyramid, freshPyramid);

  const piles = board.querySelector(".piles");
  const tip = piles.querySelector("[data-tip]");
  const freshPiles = element("div", { class: "piles" }, [
    stockPile(local, marks, canMove), wastePile(local, marks, canMove), discardPile(local),
    ...(tip ? [tip.cloneNode(true)] : [])]);
  morph(piles, freshPiles);

  const undo = board.querySelector('[data-action="undo"]');
  if (undo) undo.disabled = !(canMove && game.moves.length > 0);
  const hint = board.querySelector('[data-action="hint"]');
  if (hint) hint.disabled = !canMove;
  const pause = board.querySelector('[data-action="pause"]');
  if (pause) pause.hidden = !(canMove && game.moves.length > 0);
  for (const control of board.querySelectorAll("[data-action=restart], [data-action=new]")) {
    control.closest(".controls")?.toggleAttribute("hidden", !canMove);
  }
}

/** The counters above the board. */
export function drawCounters(local, seconds, formatTime) {
  const { game } = local;
  const set = (name, text) => {
    const node = document.querySelector(`[data-counter="${name}"]`);
    if (node && node.textContent !== text) node.textContent = text;
  };
  set("pass", `${game.passNumber} of ${game.passes}`);
  set("passes-left", String(game.passesLeft));
  set("moves", String(game.moves.length));
  set("cleared", `${game.cardsCleared}/${game.goal.cardsToClear}`);
  set("score", String(local.score(local.playing ? null : seconds).total));
}

export { Card };
