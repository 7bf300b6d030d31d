/* The preferences a player changes on the board, saved without leaving it: the speaker button
 * (sound on or off) and the first-game tips' "Got it". Each is a plain form without this file
 * (POST, then back to the page); here it is sent in the background and <html>'s attribute,
 * which the stylesheet draws from, changes at once.
 */
(function () {
  "use strict";

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }
  function post(url, fields) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: new URLSearchParams(fields),
      headers: { "HX-Request": "true", "X-CSRF-Token": csrfToken() }
    });
  }

  /* --- sound on or off ---------------------------------------------------------------------- */
  function showSound(on) {
    document.documentElement.setAttribute("data-sound", on ? "on" : "off");
    document.querySelectorAll('[data-sound-form] [data-action="sound"]').forEach(function (button) {
      button.value = on ? "off" : "on";  // what the next press asks for
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("[data-sound-form]")) return;
    event.preventDefault();
    var button = form.querySelector('[data-action="sound"]');
    var on = button.value === "on";
    showSound(on);
    if (on && window.pyramidSound) window.pyramidSound.play("pair");  // this is what it sounds like
    post(form.getAttribute("action"), { sound: on ? "on" : "off" }).then(function (response) {
      if (!response.ok) showSound(!on);
    }, function () { showSound(!on); });
  });

  /* --- the first-game tips, dismissed ----------------------------------------------------- */
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-tips-dismiss]");
    if (!button) return;
    event.preventDefault();  // it sits in the board's form: never submit that
    var byKeyboard = event.detail === 0 && document.activeElement === button;
    document.documentElement.removeAttribute("data-tips");
    if (byKeyboard) {  // keep the keyboard on the board
      var card = document.querySelector('#board button[data-card][tabindex="0"]') ||
        document.querySelector("#board button[data-card]:not([disabled])");
      if (card) card.focus();
    }
    post(button.getAttribute("formaction"), {});
  });
})();
