// @ts-check
/* Drawing the board from the game on this device, in the markup templates/_board.html draws
 * (tests/e2e/test_offline.py holds the two to each other): the pyramid, the stock, the waste,
 * the removed cards, the counters and the controls' states. Card faces are cloned from the
 * page's <template id="card-faces">, so a face is written once, in templates/_cards.html.
 *
 * A drawing is built off the page and morphed in (idiomorph): only what changed is touched,
 * and the focused card keeps its focus. */

import { COVERED_BY, Card, Move, PYRAMID_SIZE, rowCol } from "../engine/index.js";
import { cardName, formatNumber, say, sayCount, sayInto, sayRefusal } from "./words.js";
import { element, patchTree, setAttributes } from "./dom.js";

/** What the board shows beyond the position: the selection, hinted and refused cards. */
export class Marks {
  constructor() {
    this.hinted = new Set();
    this.hintedAction = null;
    this.refused = new Set();
  }
  clear() { this.hinted.clear(); this.hintedAction = null; this.refused.clear(); }
  get empty() { return !this.hinted.size && !this.hintedAction && !this.refused.size; }
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

/** A free card as the page's button (templates/_cards.html, card_button): its attributes. */
function buttonAttributes(card, { selected, enabled, place = "", extra = "", label = null }) {
  return {
    type: "submit", name: "card", value: card.name, id: `card-${card.name}`,
    class: classes("card", card.isRed ? "red" : "black", "free", selected && "selected",
      card.isKing && "king", place, extra),
    "data-card": card.name, "aria-label": label || cardName(card), "data-king": card.isKing,
    "aria-pressed": selected ? "true" : (enabled ? "false" : null),
    disabled: !enabled,
  };
}

function cardButton(card, options) {
  return element("button", buttonAttributes(card, options), face(card));
}

/** A pyramid card under others (templates/_cards.html, covered_card): its attributes. */
function coveredAttributes(card, place, over, extra) {
  return {
    class: classes("card", card.isRed ? "red" : "black", "covered", place, extra),
    id: `card-${card.name}`, "data-card": card.name, role: "img",
    "aria-label": over.length === 1 ? say("covered_one", { card: cardName(card), a: cardName(over[0]) })
      : say("covered_two", { card: cardName(card), a: cardName(over[0]), b: cardName(over[1]) }),
  };
}

/** Give `node` exactly `attributes` (leaving alone the page's own: a flight's style, the
 * roving tabindex). */
function emptyPile(extra = "") {
  return element("span", { class: classes("empty-pile", extra), "aria-hidden": "true" });
}


/** The pyramid's 28 places, as templates/_board.html draws them: each a tag, a card (or
 * none) and its attributes. */
function pyramidPlaces(local, marks, canMove) {
  const { game } = local;
  const places = [];
  for (let index = 0; index < PYRAMID_SIZE; index++) {
    const [row, col] = rowCol(index);
    const spot = `r${row} c${col}`;
    const card = game.pyramid[index];
    if (!card) {
      places.push({ tag: "SPAN", card: null, attributes: { class: `slot-gone ${spot}`, "aria-hidden": "true" } });
      continue;
    }
    const over = COVERED_BY[index].map((i) => game.pyramid[i]).filter(Boolean);
    const extra = marksOf(card, marks);
    places.push(over.length
      ? { tag: "SPAN", card, attributes: coveredAttributes(card, `in-pyramid ${spot}`, over, extra) }
      : { tag: "BUTTON", card, attributes: buttonAttributes(card, {
        selected: local.selected === card.name, enabled: canMove, place: `in-pyramid ${spot}`, extra,
        label: say("free_card", { card: cardName(card) }) }) });
  }
  return places;
}

/** Bring the pyramid's places to `places`, row by row (a row is a group for screen readers):
 * a card that stays the same kind of element keeps its element (its attributes changed in
 * place, so the focus and transitions stay); any other place gets a new one. Cheaper than
 * drawing the pyramid afresh: a press changes a few. */
function patchPyramid(pyramid, places) {
  let rows = pyramid.querySelectorAll(".pyramid-row");
  if (rows.length !== 7) {
    for (const row of rows) row.remove();
    const first = pyramid.firstChild;
    for (let r = 0; r < 7; r++) {
      pyramid.insertBefore(element("div", { class: "pyramid-row", role: "group",
        "aria-label": say("row", { row: r + 1 }) }), first);
    }
    rows = pyramid.querySelectorAll(".pyramid-row");
  }
  let start = 0;
  rows.forEach((row, r) => {
    patchRow(row, places.slice(start, start + r + 1));
    start += r + 1;
  });
}

function patchRow(row, places) {
  const current = Array.from(row.children);
  for (const extra of current.slice(places.length)) extra.remove();
  places.forEach((place, index) => {
    const here = current[index];
    const same = here && here.tagName === place.tag
      && (here.getAttribute("data-card") || null) === (place.card ? place.card.name : null);
    if (same) {
      setAttributes(here, place.attributes);
      return;
    }
    const node = element(place.tag.toLowerCase(), place.attributes, place.card ? face(place.card) : []);
    if (here) here.replaceWith(node); else row.append(node);
  });
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
      "aria-label": sayCount("face_down", faceDown),
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
      "aria-label": say("recycle_label", { pass: game.passNumber + 1, passes: game.passes }),
    }, [element("span", { class: "recycle-mark", "aria-hidden": "true" }, ["\u21bb"]),
      element("span", { class: "recycle-text", "aria-hidden": "true" },
        [`${say("recycle")} `, element("kbd", { class: "key-badge" }, ["D"])])]);
  }
  const parts = [
    element("div", { class: "stock-row" }, [back,
      element("div", { class: "pile-cards", "data-top": "stock" }, [top])]),
    element("p", { class: "pile-label" }, sayInto("in_stock", { count: game.stock.length },
      { count: element("span", { class: "count", "data-count": "stock" }, [String(game.stock.length)]) })),
  ];
  if (game.stock.length) {
    parts.push(element("button", {
      type: "submit", name: "action", value: "draw", id: "action-draw",
      class: classes("btn pile-action", drawMark), "data-action": "draw", disabled: !canDraw,
      "aria-keyshortcuts": "D",
    }, [`${say("draw")} `, element("kbd", { class: "key-badge" }, ["D"])]));
  } else if (!canRecycle) {
    parts.push(element("p", { class: "pile-action pile-note",
      "data-no-draw": canMove && !game.isLegal(Move.draw()) ? sayRefusal(game.whyIllegal(Move.draw())) : "" },
    [say(game.passesLeft === 0 ? "no_passes_left" : "stock_empty")]));
  }
  return element("div", { class: "pile stock", "data-pile": "stock", role: "group",
    "aria-label": sayCount("stock_group", game.stock.length) }, parts);
}

function wastePile(local, marks, canMove) {
  const { game } = local;
  const top = game.wasteTop
    ? cardButton(game.wasteTop, { selected: local.selected === game.wasteTop.name,
      enabled: canMove, extra: marksOf(game.wasteTop, marks) })
    : emptyPile();
  return element("div", { class: "pile waste", "data-pile": "waste", role: "group",
    "aria-label": sayCount("waste_group", game.waste.length) }, [
    element("div", { class: "pile-cards", "data-top": "waste",
      "data-depth": game.waste.length ? Math.min(game.waste.length - 1, 3) : 0 }, [top]),
    element("p", { class: "pile-label" }, sayInto("in_waste", { count: game.waste.length },
      { count: element("span", { class: "count", "data-count": "waste" }, [String(game.waste.length)]) })),
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
    "aria-label": sayCount("removed_group", removed) }, [
    element("div", { class: "pile-cards", "data-top": "discard",
      "data-depth": removed ? Math.min(removed - 1, 3) : 0 }, [
      top ? element("span", { class: classes("card", top.isRed ? "red" : "black", "discarded"),
        "data-card": top.name, role: "img", "aria-label": cardName(top) }, face(top))
        : emptyPile()]),
    element("p", { class: "pile-label" },
      sayInto("removed_pile", { count: removed },
        { count: element("span", { class: "count", "data-count": "discard" }, [formatNumber(removed)]) })),
  ]);
}

/** Draw `local` on the board: the pyramid, the piles, the counters, the controls. */
export function drawBoard(board, local, marks, { canPlay }) {
  const { game } = local;
  const canMove = canPlay && local.playing;
  board.dataset.status = local.status.value;
  board.dataset.moves = String(game.moves.length);
  board.dataset.passesLeft = String(game.passesLeft);

  patchPyramid(board.querySelector(".pyramid"), pyramidPlaces(local, marks, canMove));

  const piles = board.querySelector(".piles");
  const fresh = [stockPile(local, marks, canMove), wastePile(local, marks, canMove),
    discardPile(local)];
  const drawn = Array.from(piles.children).filter((node) => node.matches(".pile"));
  fresh.forEach((pile, index) => {
    if (drawn[index]) patchTree(drawn[index], pile);
    else piles.insertBefore(pile, piles.querySelector("[data-tip]"));
  });

  const undo = board.querySelector('[data-action="undo"]');
  if (undo) undo.disabled = !(canMove && game.moves.length > 0);
  const redo = board.querySelector('[data-action="redo"]');
  if (redo) {  // the script's own: without it there is nothing to redo
    redo.hidden = false;
    redo.disabled = !(canMove && local.redoMove);
  }
  const hint = board.querySelector('[data-action="hint"]');
  if (hint) hint.disabled = !canMove;
  const pause = board.querySelector('[data-action="pause"]');
  if (pause) pause.hidden = !(canMove && game.moves.length > 0);
  for (const control of board.querySelectorAll("[data-action=restart], [data-action=new]")) {
    control.closest(".controls")?.toggleAttribute("hidden", !canMove);
  }
}

/** The selection alone drawn: `name` (or none) selected, every other card not, as drawBoard
 * draws them (buttonAttributes: "selected" after "free" in the class, aria-pressed), and
 * nothing else touched. A press that selects or drops a card changes only that, and a slow
 * phone feels the whole board drawn again (a frame over 50 ms at 4x). False when `name` is not
 * drawn as a free card's button: the whole board must be drawn.
 * @param {HTMLElement} board @param {string|null} name */
export function drawSelection(board, name) {
  const button = name === null ? null : board.querySelector(`button.free[data-card="${name}"]`);
  if (name !== null && !button) return false;
  for (const other of board.querySelectorAll("button.selected[data-card]")) {
    if (other !== button) markSelected(other, false);
  }
  if (button) markSelected(button, true);
  return true;
}

function markSelected(button, selected) {
  const names = button.className.split(/\s+/).filter((n) => n && n !== "selected");
  if (selected) names.splice(names.indexOf("free") + 1, 0, "selected");
  const text = names.join(" ");
  if (button.getAttribute("class") !== text) button.setAttribute("class", text);
  const pressed = selected ? "true" : (button.disabled ? null : "false");
  if (pressed === null) button.removeAttribute("aria-pressed");
  else if (button.getAttribute("aria-pressed") !== pressed) button.setAttribute("aria-pressed", pressed);
}

/** The counters above the board. */
export function drawCounters(local, seconds, formatTime) {
  const { game } = local;
  const set = (name, text) => {
    const node = document.querySelector(`[data-counter="${name}"]`);
    if (node && node.textContent !== text) node.textContent = text;
  };
  set("pass", say("pass_of", { number: formatNumber(game.passNumber), passes: formatNumber(game.passes) }));
  set("moves", formatNumber(game.moves.length));
  set("cleared", `${game.cardsCleared}/${game.goal.cardsToClear}`);
  set("score", formatNumber(local.score(local.playing ? null : seconds).total));
}

export { Card };
