// @ts-check
/* The preferences a player changes on the board, saved without leaving it: the speaker button
 * (sound on or off) and the first-game tips' "Got it". Each is a plain form without this file
 * (POST, then back to the page); here it is sent in the background and <html>'s attribute,
 * which the stylesheet draws from, changes at once. A module (base.html loads it), for the
 * CSRF reader it shares with the board's script.
 */

import { closestTo, csrfToken } from "./board/dom.js";

(function () {
  function post(url, fields) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: new URLSearchParams(fields),
      headers: { "HX-Request": "true", "X-CSRF-Token": csrfToken(),
        "X-Pyramid-Language": document.documentElement.lang }
    });
  }

  /* --- sound on or off: two buttons, the stylesheet shows the one <html> calls for ------------ */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches("[data-sound-form]")) return;
    event.preventDefault();
    var submitter = /** @type {HTMLButtonElement|null} */ (event.submitter);
    var on = (submitter && submitter.value) === "on";
    var was = document.documentElement.getAttribute("data-sound");
    var focused = form.contains(document.activeElement);
    document.documentElement.setAttribute("data-sound", on ? "on" : "off");
    if (focused) {  // the pressed button is hidden now: the keyboard goes to its twin
      var twin = /** @type {HTMLElement|null} */ (
        form.querySelector('[data-sound-toggle="' + (on ? "off" : "on") + '"]'));
      if (twin) twin.focus();
    }
    if (on && window.pyramidSound) window.pyramidSound.play("pair");  // what it sounds like
    var undo = function () { document.documentElement.setAttribute("data-sound", was); };
    post(form.getAttribute("action"), { sound: on ? "on" : "off" }).then(function (response) {
      if (!response.ok) undo();
    }, undo);
  });

  /* --- the first-game tips, dismissed ----------------------------------------------------- */
  document.addEventListener("click", function (event) {
    var button = closestTo(event, "[data-tips-dismiss]");
    if (!button) return;
    event.preventDefault();  // it sits in the board's form: never submit that
    var byKeyboard = event.detail === 0 && document.activeElement === button;
    document.documentElement.removeAttribute("data-tips");
    if (byKeyboard) {  // keep the keyboard on the board
      var card = /** @type {HTMLElement|null} */ (
        document.querySelector('#board button[data-card][tabindex="0"]') ||
        document.querySelector("#board button[data-card]:not([disabled])"));
      if (card) card.focus();
    }
    post(button.getAttribute("formaction"), {});
  });
})();
