// @ts-check
/* Inputs made before the board's script starts. The board is a module, run once the page and
 * its imports have loaded; a key or a press before that would be lost (or, for a press,
 * posted as a plain form). This small classic script, loaded first, keeps them in order, and
 * the board's script (main.js) plays them as soon as it starts. Where modules don't run, it
 * does nothing, and the forms work as they do without JavaScript. */
(function () {
  "use strict";
  if (!("noModule" in HTMLScriptElement.prototype)) return;
  var early = window.pyramidEarly = { inputs: [], taken: false };
  var BOARD_FORM = "#board[data-play] [data-board-form]";

  /** The element `selector` finds from the event's target up (none for a target not an
   * element). @param {Event} event @param {string} selector @returns {Element|null} */
  function closest(event, selector) {
    return event.target instanceof Element ? event.target.closest(selector) : null;
  }
  /** The board's enabled button the event reached, if any.
   * @param {Event} event @returns {HTMLButtonElement|null} */
  function control(event) {
    var found = closest(event, BOARD_FORM + " button:not([disabled])");
    return found instanceof HTMLButtonElement ? found : null;
  }

  document.addEventListener("keydown", function (event) {
    if (early.taken || event.altKey || event.ctrlKey || event.metaKey) return;
    if (closest(event, "input, textarea, select, [contenteditable]")) return;
    if (event.key.length === 1 || event.key === "Escape") {
      early.inputs.push({ key: event.key, at: event.timeStamp });
    }
  });
  document.addEventListener("pointerdown", function (event) {
    if (early.taken || event.button !== 0) return;
    var pressed = control(event);
    if (pressed) early.inputs.push({ name: pressed.name, value: pressed.value,
      action: pressed.getAttribute("data-action"), at: event.timeStamp });
  });
  // A press was the input: its click must not post the form meanwhile. A keyboard's click
  // (Enter or Space on a focused card) is the input itself.
  document.addEventListener("click", function (event) {
    if (early.taken) return;
    var pressed = control(event);
    if (!pressed) return;
    event.preventDefault();
    if (event.detail === 0) {
      early.inputs.push({ name: pressed.name, value: pressed.value,
        action: pressed.getAttribute("data-action"), at: event.timeStamp });
    }
  }, true);
})();
