/* Pyramid: what every page needs beyond HTML forms and htmx (the board's own script is
 * board.js): the copy-link button, the replay's keys, and Back/Forward showing the server's
 * state rather than a page kept by the browser. Without this file everything still works.
 */
(function () {
  "use strict";

  function say(text) {
    var region = document.getElementById("message");
    if (region) region.textContent = text;
  }

  /* --- copy the deal link or the challenge link: the buttons only exist for people with
   * JavaScript ---------------------------------------------------------------------------- */
  var COPIES = [["[data-copy-link]", "[data-deal-link]", "Deal link copied."],
                ["[data-copy-challenge]", "[data-challenge]", "Challenge link copied: send it to a friend."]];
  document.addEventListener("click", function (event) {
    var button = null, link = null, copied = "";
    COPIES.forEach(function (copy) {
      var found = event.target.closest && event.target.closest(copy[0]);
      if (found) { button = found; link = document.querySelector(copy[1]); copied = copy[2]; }
    });
    if (!button || !link) return;
    var done = function () { button.textContent = "Copied!"; say(copied); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link.href).then(done, function () {
        window.getSelection().selectAllChildren(link);
        say("Select the link and copy it.");
      });
    } else {
      window.getSelection().selectAllChildren(link);
      say("The link is selected: copy it with Ctrl+C.");
    }
  });

  /* --- replays: htmx links step and play (the server's load-delay trigger); keys here ---- */
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !document.getElementById("replay")) return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    var kind = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    var link = null;
    if (kind) link = document.querySelector('#replay-stage a[data-replay-nav="' + kind + '"]');
    else if (event.key === " " || event.key === "k" || event.key === "K") {
      link = document.querySelector("#replay-stage [data-replay-play]");
    }
    if (kind || link) event.preventDefault();
    if (!link) return;
    // htmx wires up a swapped-in link as the swap settles; a key pressed before that would
    // follow the bare link (a page load that adds a history entry): wire it up first.
    if (window.htmx) window.htmx.process(link);
    link.click();
  });

  /* --- Back and Forward show the server's state, never a page kept by the browser -------- */
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.querySelector("[data-continue], .new-game")) {
      window.location.reload();
    }
  });

  function revealCopyButtons() {
    document.querySelectorAll("[data-copy-link][hidden], [data-copy-challenge][hidden]")
      .forEach(function (button) { button.hidden = false; });
  }
  document.addEventListener("DOMContentLoaded", revealCopyButtons);
  document.addEventListener("htmx:afterSettle", revealCopyButtons);
})();
