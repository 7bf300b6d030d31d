// @ts-check
/* Pyramid: what every page needs beyond HTML forms and htmx (the board's own script is
 * static/js/board/): the share buttons, the replay's keys, and Back/Forward showing the
 * server's state rather than a page kept by the browser. Without this file everything still works.
 * A module (base.html loads it), for the page helpers it shares with the board's script. */

import { closestTo, foundOrMade } from "./board/dom.js";

(function () {

  function say(key) {
    var region = document.getElementById("message");
    if (region) region.textContent = words()[key] || key;
  }

  /* The page's sentences (app/web/core/words.py), in its language. */
  var sentences = null;
  function words() {
    if (sentences === null) {
      var element = document.getElementById("words");
      try { sentences = JSON.parse(element.textContent).words || {}; } catch (e) { sentences = {}; }
    }
    return sentences;
  }

  /* --- share the deal link or a challenge: the phone's share sheet where there is one, else
   * the link copied; the sender stays on their own page (a challenge is for the friend) --- */
  function share(link, copied) {
    var url = link.href;
    if (navigator.share) {
      navigator.share({ title: document.title, url: url }).catch(function () { /* closed */ });
      return;
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(function () { say(copied); }, function () {
        window.getSelection().selectAllChildren(link);
        say("select_link");
      });
    } else {
      link.hidden = false;
      window.getSelection().selectAllChildren(link);
      say("link_selected");
    }
  }
  document.addEventListener("click", function (event) {
    var button = closestTo(event, "[data-copy-link]");
    if (button) {
      var link = document.querySelector("[data-deal-link]");
      if (link) share(link, "copied_deal");
      return;
    }
    var challenge = closestTo(event, "a[data-challenge]");
    if (challenge) {
      event.preventDefault();
      share(challenge, "copied_challenge");
    }
  });

  /* --- replays: htmx links step and play (the server's load-delay trigger); keys here ---- */
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !document.getElementById("replay")) return;
    if (closestTo(event, "input, textarea, select, [contenteditable]")) return;
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
    /** @type {HTMLElement} */ (link).click();
  });

  /* --- Back and Forward show the server's state, never a page kept by the browser -------- */
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.querySelector("[data-continue], .new-game")) {
      window.location.reload();
    }
  });

  function revealCopyButtons() {
    document.querySelectorAll("[data-copy-link][hidden]").forEach(function (button) {
      /** @type {HTMLElement} */ (button).hidden = false;
      var link = /** @type {HTMLElement|null} */ (document.querySelector("[data-deal-link]"));
      if (link) link.hidden = true;  // the button shares it
    });
  }
  document.addEventListener("DOMContentLoaded", revealCopyButtons);
  document.addEventListener("htmx:afterSettle", revealCopyButtons);

  /* --- a refusal to an htmx request (a 429: over the player's budget, app/web/core/budget.py) --
   * htmx swaps no 4xx (base.html's responseHandling), so the page would show nothing: the
   * answer's sentence (the fragment <p data-refusal>, in the page's language) goes where the
   * page shows its notices, the board's message line, and the page stays as it was: the
   * element that asked is left in place, to be asked again. */
  function refusalText(xhr) {
    var text = "";
    try {
      var found = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      var node = found.querySelector("[data-refusal]") || found.querySelector("main p");
      text = node ? node.textContent.trim() : "";
    } catch (e) { text = ""; }
    return text || (words().failed || "").replace("{status}", String(xhr.status));
  }

  function showRefusal(text, target) {
    var region = document.getElementById("message");
    if (region) {
      var span = document.createElement("span");
      span.className = "tone-error";
      span.setAttribute("data-tone", "error");
      span.setAttribute("data-refused", "");
      span.textContent = text;
      region.replaceChildren(span);
      return;
    }
    var box = foundOrMade("p[data-refusal-notice]", "p",
      { class: "notice", role: "alert", "data-refusal-notice": true }, function (made) {
        var main = document.querySelector("main");
        if (target && target.parentNode && main && main.contains(target)) {
          target.parentNode.insertBefore(made, target);
        } else if (main) {
          main.prepend(made);
        } else {
          return false;
        }
      });
    if (box) box.textContent = text;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = /** @type {CustomEvent} */ (event).detail;
    if (!detail.xhr || detail.xhr.status !== 429) return;
    detail.shouldSwap = false;
    detail.isError = false;
    showRefusal(refusalText(detail.xhr), detail.target);
  });
})();
