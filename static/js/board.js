/* The board: a move shows in the next frame, the server stays the only judge, and the page
 * never gives up.
 *
 *  - The server sends, with each board, what the page needs to show a move at once: on each
 *    card a move may use, the cards it makes 13 with (data-pairs), whether it is a King, and
 *    whether removing it counts towards the goal. A press on such a card is drawn at once (the
 *    pair leaves; a draw moves the stock's face-up card to the waste and shows the new one as
 *    not yet known), then sent. The page knows no rules: a move the server has not listed is
 *    sent as it is, and drawn when the answer comes.
 *  - Moves made while an answer is on its way go together in the next request (a batch, played
 *    in order up to the first the engine refuses, on one version): a burst costs two round
 *    trips whatever its length. Each batch has an id (this tab's id and a count) and the
 *    version it was made on, so a batch sent again after a lost answer is played once, and a
 *    change this tab caused is never taken for another tab's.
 *  - Every answer is morphed into the board (idiomorph): only what changed is redrawn, and the
 *    moves made since are drawn again on top. A refusal redraws the server's board and says
 *    why, and how many inputs were played.
 *  - When the server can't be reached (or answers 5xx) a banner says so, the clock stops, and
 *    the batch is sent again with growing pauses until it lands; inputs made meanwhile wait.
 *  - A reload during an input waits for it to land; a tab that comes back into view, or back
 *    online, asks whether the game moved elsewhere and redraws if it did.
 *
 * Hooks others test by: #board[data-status], its data-moves (moves shown, pending ones
 * included); <html data-inputs="N"> (inputs the server has not answered: 0 when the board is
 * its latest answer); a card shown as gone is no longer a button[data-card] in the board;
 * [data-offline] is visible while the server can't be reached.
 * Without this file every control still works as a plain form.
 */
(function () {
  "use strict";

  var RETRY_FIRST = 500, RETRY_MOST = 8000;   // ms between tries while the server is away
  var SAVING_CLEARLY_AFTER = 1000;           // ms before "saving" is said in words
  var LANDING_WAIT = 4000;                   // ms a reloaded page waits for its last input

  function board() { return document.getElementById("board"); }
  function playable() { var b = board(); return b && b.hasAttribute("data-play") ? b : null; }
  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }
  function say(text, refused) {
    var region = document.getElementById("message");
    if (!region) return;
    region.textContent = "";
    if (!text) return;
    var span = document.createElement("span");
    span.className = refused ? "tone-error" : "tone-info";
    span.setAttribute("data-tone", refused ? "error" : "info");
    if (refused) span.setAttribute("data-refused", "");
    span.textContent = text;
    region.appendChild(span);
  }
  function cue(what) {  // a sound for a move, a refusal or a win (sound.js decides if it plays)
    if (window.pyramidSound) window.pyramidSound.play(what);
  }
  function cardButton(name) {
    var root = board();
    return root && root.querySelector('button[data-card="' + name + '"]:not([disabled])');
  }
  function listed(button) { return button && button.hasAttribute("data-pairs"); }
  function pairsOf(button) {
    var text = button && button.getAttribute("data-pairs");
    return text ? text.split(" ") : [];
  }
  function symbol(name) {
    var rank = name.charAt(0) === "T" ? "10" : name.charAt(0);
    return rank + { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" }[name.charAt(1)];
  }

  /* --- this tab, and what the server has not answered yet --------------------------------- */
  var tab = (function () {
    try {
      var known = window.sessionStorage.getItem("pyramid-tab");
      if (known) return known;
      var fresh = Array.prototype.map.call(window.crypto.getRandomValues(new Uint8Array(8)),
        function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
      window.sessionStorage.setItem("pyramid-tab", fresh);
      return fresh;
    } catch (e) { return "t" + Math.random().toString(16).slice(2, 18); }
  })();
  var sent = 0;           // batches numbered in this tab
  var inflight = null;    // the request on its way: {body, url, moves, input, kind}
  var outbox = [];        // moves made and drawn, not sent yet
  var waiting = [];       // inputs that can only be read against the next answer
  var selected = null;    // the card selected on this page
  var BARRIER = { kind: "barrier" };
  var offline = false, retryDelay = RETRY_FIRST, retryTimer = null, savingTimer = null;

  function showPending() {
    var count = (inflight ? inflight.count : 0) + outbox.length + waiting.length;
    document.documentElement.setAttribute("data-inputs", String(count));
    var mark = document.querySelector("[data-saving]");
    if (!mark) return;
    if (count === 0) {
      mark.hidden = true; mark.classList.remove("clearly");
      window.clearTimeout(savingTimer); savingTimer = null;
    } else {
      mark.hidden = false;
      if (!savingTimer) {
        savingTimer = window.setTimeout(function () { mark.classList.add("clearly"); },
                                        SAVING_CLEARLY_AFTER);
      }
    }
  }

  /* --- drawing a listed move at once ------------------------------------------------------ */
  function counter(name) { return document.querySelector('[data-counter="' + name + '"]'); }
  function bump(name, by) {
    var el = counter(name);
    if (!el) return;
    var parts = el.textContent.split("/");
    parts[0] = String(Number(parts[0]) + by);
    el.textContent = parts.join("/");
  }
  function count(pile) {
    var el = board().querySelector('[data-count="' + pile + '"]');
    return el ? Number(el.textContent) : 0;
  }
  function setCount(pile, value) {
    var root = board();
    var el = root.querySelector('[data-count="' + pile + '"]');
    if (el) el.textContent = String(value);
    if (pile === "stock") {
      var down = Math.max(value - 1, 0);
      var back = root.querySelector(".card-back");
      var number = root.querySelector('[data-count="face-down"]');
      if (number) number.textContent = String(down);
      if (back) {
        back.setAttribute("data-depth", String(Math.max(Math.min(down - 1, 2), 0)));
        if (down === 0) back.classList.add("empty");
      }
    } else {
      var cards = root.querySelector('[data-top="waste"]');
      if (cards) cards.setAttribute("data-depth", String(Math.max(Math.min(value - 1, 3), 0)));
    }
  }
  function unknownCard() {
    var span = document.createElement("span");
    span.className = "card unknown";
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", "A card not shown yet");
    return span;
  }
  function emptyPile() {
    var span = document.createElement("span");
    span.className = "empty-pile";
    span.setAttribute("aria-hidden", "true");
    return span;
  }
  function topOf(pile) {
    var slot = board().querySelector('[data-top="' + pile + '"]');
    return slot && slot.querySelector(".card:not(.leaving), .empty-pile");
  }
  function forget(name) {
    // A card gone or buried is no one's partner any more; a card it covered may be free now
    // (the server's data-covered-by names what covers it): it can be pressed, and the press
    // waits for the server's answer, which knows what it pairs with.
    board().querySelectorAll("button[data-pairs]").forEach(function (button) {
      var pairs = pairsOf(button).filter(function (p) { return p !== name; });
      button.setAttribute("data-pairs", pairs.join(" "));
    });
    board().querySelectorAll("button[data-covered-by]").forEach(function (button) {
      var covers = button.getAttribute("data-covered-by").split(" ").filter(function (c) {
        return c && c !== name;
      });
      button.setAttribute("data-covered-by", covers.join(" "));
      if (!covers.length) {
        button.removeAttribute("data-covered-by");
        button.disabled = false;
        button.classList.remove("covered");
        button.classList.add("free", "uncovered");
      }
    });
  }
  function leave(button) {
    // The card leaves the board's buttons at once; a copy of its face fades where it was.
    var ghost = document.createElement("span");
    ghost.className = button.className.replace(/\b(free|selected|pressed|hinted|king|dragging)\b/g, "") +
      " leaving" + (button.classList.contains("in-pyramid") ? "" : " on-pile");
    ghost.setAttribute("aria-hidden", "true");
    ghost.setAttribute("data-leaving", button.getAttribute("data-card"));
    ghost.innerHTML = button.innerHTML;
    return ghost;
  }
  function removeCard(name) {
    var button = board().querySelector('button[data-card="' + name + '"]');
    if (!button) return;
    var cleared = button.getAttribute("data-counts") === "1" ? 1 : 0;
    var slot = button.parentElement;
    var pile = slot.getAttribute("data-top");
    var ghost = leave(button);
    if (button.classList.contains("in-pyramid")) {
      var gone = document.createElement("span");
      gone.className = "slot-gone " + (button.className.match(/\br\d c\d\b/) || [""])[0];
      gone.setAttribute("aria-hidden", "true");
      button.replaceWith(gone);
      gone.parentElement.appendChild(ghost);
    } else {
      var left = count(pile) - 1;
      button.replaceWith(left > 0 ? unknownCard() : emptyPile());
      slot.appendChild(ghost);
      setCount(pile, left);
    }
    forget(name);
    bump("cleared", cleared);
  }
  function draw() {
    var stock = count("stock");
    var moving = topOf("stock");
    var wasteSlot = board().querySelector('[data-top="waste"]');
    var buried = topOf("waste");
    if (buried) {
      if (buried.hasAttribute("data-card")) forget(buried.getAttribute("data-card"));
      buried.remove();
    }
    var stockSlot = board().querySelector('[data-top="stock"]');
    stockSlot.insertBefore(stock > 1 ? unknownCard() : emptyPile(), stockSlot.firstChild);
    wasteSlot.insertBefore(moving, wasteSlot.firstChild);
    setCount("stock", stock - 1);
    setCount("waste", count("waste") + 1);
    if (stock - 1 === 0) {
      var drawButton = board().querySelector('[data-action="draw"]');
      if (drawButton) drawButton.disabled = true;
    }
  }
  function recycle() {
    var waste = count("waste");
    var wasteTop = topOf("waste");
    if (wasteTop) wasteTop.replaceWith(emptyPile());
    var stockTop = topOf("stock");
    var control = board().querySelector('[data-action="recycle"]');
    (control || stockTop).replaceWith(unknownCard());
    board().querySelectorAll('[data-top="waste"] [data-card]').forEach(function (el) {
      forget(el.getAttribute("data-card"));
    });
    setCount("waste", 0);
    setCount("stock", waste);
    var root = board();
    root.setAttribute("data-passes-left", String(Number(root.getAttribute("data-passes-left")) - 1));
    bump("pass", 1);
    bump("passes-left", -1);
  }
  function drawn(move) {
    // Draw ``move`` on the board as the server would, as far as the page knows it.
    var focused = focusOnBoard();
    if (move === "draw") draw();
    else if (move === "recycle") recycle();
    else {
      move.split("+").forEach(removeCard);
      bump("score", 5);  // a removal's points; a row's bonus comes with the server's answer
    }
    var root = board();
    root.setAttribute("data-moves", String(Number(root.getAttribute("data-moves")) + 1));
    bump("moves", 1);
    deselect();
    keepFocus(focused);
    roving();
  }

  /* --- reading an input ------------------------------------------------------------------- */
  function select(name, quietly) {
    deselect();
    var button = cardButton(name);
    if (!button) return;
    selected = name;
    button.classList.add("selected");
    button.setAttribute("aria-pressed", "true");
    if (!quietly) say(symbol(name) + " selected: choose a card to make 13 with it.");
  }
  function deselect() {
    if (!selected) return;
    var button = cardButton(selected);
    if (button) { button.classList.remove("selected"); button.setAttribute("aria-pressed", "false"); }
    selected = null;
  }
  function canDraw() {
    return count("stock") > 0 && !!board().querySelector('[data-action="draw"]:not([disabled]), [data-stock-back]');
  }
  function canRecycle() {
    var root = board();
    return count("stock") === 0 && count("waste") > 0 &&
      Number(root.getAttribute("data-passes-left")) > 0;
  }

  /* What an input is against the board as the page shows it: a move drawn at once, an input
     for the server to read, something the page does alone, or nothing (to wait for an
     answer before it can be read). */
  function read(input) {
    if (input.kind === "card") {
      var button = cardButton(input.card);
      if (!listed(button)) return waitingCount() ? "wait" : { server: input };
      if (input.selected !== undefined && input.selected !== selected) {
        if (!cardButton(input.selected)) return "drop";
        select(input.selected);
      }
      if (button.hasAttribute("data-king")) return { move: input.card };
      if (selected === input.card) { deselect(); say(symbol(input.card) + " is no longer selected."); return "done"; }
      if (selected && pairsOf(button).indexOf(selected) >= 0) return { move: selected + "+" + input.card };
      if (selected) {
        // Not a pair the server listed: it says why, in the engine's words.
        return waitingCount() ? "wait" : { server: { kind: "card", card: input.card, selected: selected } };
      }
      select(input.card);
      return "done";
    }
    if (input.kind === "deselect") { if (selected) { deselect(); say(""); } return "done"; }
    if (input.kind === "stock") {
      if (canDraw()) return { move: "draw" };
      if (canRecycle()) return { move: "recycle" };
      return waitingCount() ? "wait" : { server: { kind: "action", action: "draw" } };
    }
    if (input.kind === "draw") return canDraw() ? { move: "draw" } : (waitingCount() ? "wait" : { server: { kind: "action", action: "draw" } });
    if (input.kind === "recycle") return canRecycle() ? { move: "recycle" } : (waitingCount() ? "wait" : { server: { kind: "action", action: "recycle" } });
    if (input.kind === "undo") return { step: "undo" };
    if (input.kind === "hint") return waitingCount() ? "wait" : { server: input };
    return "drop";
  }
  function waitingCount() { return (inflight ? 1 : 0) + outbox.length + waiting.length; }

  function take(input) {
    if (waiting.length) { waiting.push(input); showPending(); return; }
    var what = read(input);
    if (what === "wait") { waiting.push(input); }
    else if (what.move) {
      drawn(what.move);
      cue(what.move);
      outbox.push(what.move);
      if (input.at !== undefined) timeFrame(input.at);
    } else if (what.step) {
      outbox.push(what.step);
      waiting.push(BARRIER);  // what follows an undo is read against the undo's answer
    } else if (what.server) {
      if (outbox.length || inflight) waiting.push(input);
      else serverInput(what.server);
    } else if (what === "done" && input.at !== undefined) {
      timeFrame(input.at);
    }
    showPending();
    pump();
  }

  /* --- sending ------------------------------------------------------------------------------ */
  function formBody(fields) {
    var body = new URLSearchParams();
    Object.keys(fields).forEach(function (key) { body.append(key, fields[key]); });
    return body;
  }
  function pump() {
    if (inflight || offline || !outbox.length || !playable()) return;
    var moves = outbox;
    outbox = [];
    sent += 1;
    var root = playable();
    var input = tab + ":" + sent;
    inflight = { url: root.getAttribute("data-play"), moves: moves, count: moves.length,
                 input: input,
                 body: formBody({ moves: moves.join(" "), version: root.getAttribute("data-version"),
                                  input: input }) };
    remember(inflight, root);
    send();
  }
  function serverInput(input) {
    var root = playable();
    if (!root) return;
    var url, fields = {};
    if (input.kind === "hint") {
      var control = root.querySelector('[data-action="hint"]');
      if (!control || control.disabled) return;
      url = control.form.getAttribute("action");
    } else {
      url = root.getAttribute("data-play");
      fields.version = root.getAttribute("data-version");
      if (input.kind === "card") {
        fields.card = input.card;
        fields.selected = input.selected !== undefined ? input.selected : (selected || "");
      }
      else fields.action = input.action;
    }
    inflight = { url: url, body: formBody(fields), count: 1, moves: [], kind: input.kind };
    send();
  }
  function send() {
    var request = inflight;
    showPending();
    fetch(request.url, {
      method: "POST", body: request.body, credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRF-Token": csrfToken() }
    }).then(function (response) {
      if (response.status >= 500 || response.status === 408 || response.status === 429) {
        throw new Error("unavailable");
      }
      return response.text().then(function (html) { answered(request, response, html); });
    }).catch(function () { unreachable(request); });
  }
  function answered(request, response, html) {
    if (inflight !== request) return;
    inflight = null;
    forgetRemembered();
    back();
    var redirect = response.headers.get("HX-Redirect");
    if (redirect) { window.location.assign(redirect); return; }
    if (response.ok || response.status === 409) {
      var keep = request.kind === "card" ? null : selected;  // a card's answer says itself
      var status = board() && board().getAttribute("data-status");
      var refused = redraw(html);
      if (refused) cue("refused");
      else if (status !== "won" && board() && board().getAttribute("data-status") === "won") cue("win");
      var url = response.headers.get("HX-Replace-Url");
      if (url) window.history.replaceState(window.history.state, "", url);
      if (response.status === 409 || refused) {
        // Made on a board that is not the stored one, or after a refused move: not played.
        var lost = outbox.length + waiting.filter(function (w) { return w !== BARRIER; }).length;
        outbox = []; waiting = [];
        if (lost) addToMessage(" " + lost + " later input" + (lost === 1 ? " was" : "s were") + " not played.");
      } else {
        outbox.forEach(drawn);
        if (request.moves.indexOf("undo") >= 0 && waiting[0] === BARRIER) waiting.shift();
      }
      if (keep && cardButton(keep) && listed(cardButton(keep))) select(keep, true);
      readWaiting();
    } else {
      outbox = []; waiting = [];
      say(response.status === 403 ?
        "This page has expired: reload it to carry on (your game is saved)." :
        "That did not work (" + response.status + "). Reload the page to see the game as it is.", true);
    }
    showPending();
    pump();
  }
  /* Read the inputs that waited for an answer, in order, up to a barrier (an undo whose own
     answer has not come yet): what follows it waits on. */
  function readWaiting() {
    var held = waiting;
    waiting = [];
    for (var i = 0; i < held.length; i++) {
      if (held[i] === BARRIER || waiting.length) { waiting = waiting.concat(held.slice(i)); break; }
      take(held[i]);
    }
  }
  function addToMessage(text) {
    var span = document.querySelector("#message span");
    if (span) span.textContent += text; else say(text.trim(), true);
  }

  /* --- the server away, and back ---------------------------------------------------------- */
  function unreachable(request) {
    if (inflight !== request) return;
    if (!offline) {
      offline = true;
      document.querySelectorAll("#board .pressed").forEach(function (el) { el.classList.remove("pressed"); });
      stopClock();
      var banner = document.querySelector("[data-offline]");
      if (banner) banner.hidden = false;
    }
    retryTimer = window.setTimeout(function () {
      retryTimer = null;
      send();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_MOST);
  }
  function back() {
    if (retryTimer) { window.clearTimeout(retryTimer); retryTimer = null; }
    retryDelay = RETRY_FIRST;
    if (!offline) return;
    offline = false;
    var banner = document.querySelector("[data-offline]");
    if (banner) banner.hidden = true;
  }
  window.addEventListener("online", function () {
    if (offline && inflight && retryTimer) {
      window.clearTimeout(retryTimer); retryTimer = null; send();
    } else {
      checkForNews();
    }
  });

  /* --- drawing an answer ------------------------------------------------------------------- */
  function redraw(html) {
    var began = performance.now();
    var page = document.createElement("template");
    page.innerHTML = html;
    var fresh = page.content.querySelector("#board");
    var focused = focusOnBoard();
    if (fresh && board()) {
      if (window.Idiomorph) window.Idiomorph.morph(board(), fresh, { morphStyle: "outerHTML" });
      else board().replaceWith(fresh);
    }
    ["counters"].forEach(function (id) {
      var part = page.content.querySelector("#" + id);
      var here = document.getElementById(id);
      if (part && here) {
        part.removeAttribute("hx-swap-oob");
        if (window.Idiomorph) window.Idiomorph.morph(here, part, { morphStyle: "outerHTML" });
        else here.replaceWith(part);
      }
    });
    var message = page.content.querySelector("#message");
    var region = document.getElementById("message");
    if (message && region) region.innerHTML = message.innerHTML;
    selected = null;
    var chosen = board() && board().querySelector("button[data-card].selected");
    if (chosen) selected = chosen.getAttribute("data-card");
    if (window.htmx) window.htmx.process(board());
    keepFocus(focused);
    roving();
    startClock();
    window.pyramidRedraws.push(performance.now() - began);
    return !!(region && region.querySelector("[data-refused]"));
  }
  function focusOnBoard() {
    var active = document.activeElement;
    var root = board();
    if (!active || !root || !root.contains(active)) return null;
    return { id: active.id, rect: active.getBoundingClientRect() };
  }
  function keepFocus(was) {
    var root = board();
    if (!was || !root || root.contains(document.activeElement)) return;
    var best = null, bestDistance = Infinity;
    freeCards().forEach(function (card) {
      var b = card.getBoundingClientRect();
      var distance = Math.hypot(b.left - was.rect.left, b.top - was.rect.top);
      if (distance < bestDistance) { bestDistance = distance; best = card; }
    });
    best = best || root.querySelector("[data-action]:not([disabled])");
    if (best) best.focus({ preventScroll: true });
  }

  /* --- a reload during an input, and news from other tabs ------------------------------- */
  function remember(request, root) {
    try {
      window.sessionStorage.setItem("pyramid-pending", JSON.stringify(
        { game: root.getAttribute("data-game"), input: request.input,
          version: root.getAttribute("data-version") }));
    } catch (e) { /* private mode: a reload may then show the game one move behind */ }
  }
  function forgetRemembered() {
    try { window.sessionStorage.removeItem("pyramid-pending"); } catch (e) { /* as above */ }
  }
  function landedBeforeLoad() {
    var root = playable();
    var pending = null;
    try { pending = JSON.parse(window.sessionStorage.getItem("pyramid-pending") || "null"); } catch (e) { pending = null; }
    if (!root || !pending || pending.game !== root.getAttribute("data-game")) return;
    if (root.getAttribute("data-last-input") === pending.input ||
        root.getAttribute("data-version") !== pending.version) { forgetRemembered(); return; }
    // The input this tab sent before the reload may still land: show it when it does.
    var until = Date.now() + LANDING_WAIT;
    (function poll() {
      checkForNews(true).then(function (moved) {
        if (moved || Date.now() > until) forgetRemembered();
        else window.setTimeout(poll, 250);
      });
    })();
  }
  /* Ask whether the game moved on elsewhere, and redraw if it did. */
  function checkForNews(quietly) {
    var root = playable();
    if (!root || !root.getAttribute("data-game") || inflight || outbox.length || waiting.length) {
      return Promise.resolve(false);
    }
    var version = root.getAttribute("data-version");
    return fetch(window.location.pathname, {
      credentials: "same-origin",
      headers: { "HX-Request": "true", "If-None-Match": '"' + version + '"' }
    }).then(function (response) {
      if (response.status !== 200) return false;
      return response.text().then(function (html) {
        if (inflight || outbox.length || !board() || board().getAttribute("data-version") !== version) return false;
        redraw(html);
        var mine = board().getAttribute("data-last-input");
        if (!quietly && !(mine && mine.split(":")[0] === tab)) {
          say("This game moved on in another tab or window: this is where it stands now.");
        }
        return true;
      });
    }).catch(function () { return false; });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") checkForNews();
  });

  /* --- presses, clicks, drags ------------------------------------------------------------- */
  function freeCards() {
    var root = board();
    return root ? Array.prototype.slice.call(root.querySelectorAll("button[data-card]:not([disabled])")) : [];
  }
  function inputFor(control) {
    if (control.name === "card") return { kind: "card", card: control.value };
    if (control.name === "action") return { kind: control.value };
    var action = control.getAttribute("data-action");
    return action === "undo" || action === "hint" ? { kind: action } : null;
  }

  var drag = null;
  var DRAG_THRESHOLD = 6;
  document.addEventListener("pointerdown", function (event) {
    if (event.button !== 0) return;
    var control = event.target.closest &&
      event.target.closest("#board[data-play] form[data-board-form] button:not([disabled])");
    if (!control) return;
    var input = inputFor(control);
    if (!input) return;
    input.at = event.timeStamp;
    if (input.kind === "card") {
      var wasSelected = selected;
      take(input);
      if (selected === input.card && wasSelected !== input.card) {
        drag = { card: control, name: input.card, x: event.clientX, y: event.clientY, ghost: null,
                 id: event.pointerId };
      }
    } else {
      take(input);
    }
  });
  document.addEventListener("click", function (event) {
    if (event.detail > 0 && event.target.closest && event.target.closest("#board[data-play] form[data-board-form]")) {
      event.preventDefault();  // a pointer's click: its press was the input
    }
  }, true);
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("#board[data-play] form[data-board-form]")) return;
    event.preventDefault();
    var submitter = event.submitter || form.querySelector("button");
    var input = submitter && inputFor(submitter);
    if (input) take(input);
  });

  document.addEventListener("pointermove", function (event) {
    if (!drag || event.pointerId !== drag.id) return;
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.ghost) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      var rect = drag.card.getBoundingClientRect();
      drag.ghost = drag.card.cloneNode(true);
      drag.ghost.removeAttribute("id");
      drag.ghost.removeAttribute("data-card");
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.setAttribute("aria-hidden", "true");
      drag.ghost.style.left = rect.left + "px";
      drag.ghost.style.top = rect.top + "px";
      drag.ghost.style.width = rect.width + "px";
      drag.ghost.style.height = rect.height + "px";
      document.body.appendChild(drag.ghost);
      drag.card.classList.add("dragging");
    }
    drag.ghost.style.transform = "translate(" + dx + "px," + dy + "px)";
    var target = partnerUnder(event);
    board().querySelectorAll(".drop-target").forEach(function (el) { if (el !== target) el.classList.remove("drop-target"); });
    if (target) target.classList.add("drop-target");
    event.preventDefault();
  });
  function partnerUnder(event) {
    if (!drag || !drag.ghost) return null;
    drag.ghost.hidden = true;
    var under = document.elementFromPoint(event.clientX, event.clientY);
    drag.ghost.hidden = false;
    var target = under && under.closest && under.closest("#board button[data-card]:not([disabled])");
    if (!target || target === drag.card) return null;
    return pairsOf(drag.card).indexOf(target.getAttribute("data-card")) >= 0 ? target : null;
  }
  function endDrag(event, drop) {
    if (!drag || event.pointerId !== drag.id) return;
    var target = drop ? partnerUnder(event) : null;
    var current = drag;
    drag = null;
    if (!current.ghost) return;  // a plain press: it has done its part
    current.ghost.remove();
    current.card.classList.remove("dragging");
    board().querySelectorAll(".drop-target").forEach(function (el) { el.classList.remove("drop-target"); });
    if (target) {
      take({ kind: "card", card: target.getAttribute("data-card"), selected: current.name, at: event.timeStamp });
    } else if (selected === current.name) {
      deselect();  // dropped on the felt: nothing happened
      say("");
    }
  }
  document.addEventListener("pointerup", function (event) { endDrag(event, true); });
  document.addEventListener("pointercancel", function (event) { endDrag(event, false); });

  /* --- keys: Tab enters the board once, arrows move between free cards ------------------- */
  function roving() {
    var cards = freeCards();
    if (!cards.length) return;
    var current = cards.filter(function (c) { return c === document.activeElement; })[0] ||
      cards.filter(function (c) { return c.getAttribute("tabindex") === "0"; })[0] || cards[0];
    board().querySelectorAll("button[data-card]").forEach(function (c) {
      c.setAttribute("tabindex", c === current ? "0" : "-1");
    });
  }
  function nearest(from, direction) {
    var cards = freeCards();
    if (!cards.length) return null;
    if (!from || cards.indexOf(from) < 0) return cards[0];
    var a = from.getBoundingClientRect();
    var ax = a.left + a.width / 2, ay = a.top + a.height / 2;
    var best = null, bestScore = Infinity;
    cards.forEach(function (card) {
      if (card === from) return;
      var b = card.getBoundingClientRect();
      var dx = b.left + b.width / 2 - ax, dy = b.top + b.height / 2 - ay;
      var along, across;
      if (direction === "ArrowLeft") { along = -dx; across = dy; }
      else if (direction === "ArrowRight") { along = dx; across = dy; }
      else if (direction === "ArrowUp") { along = -dy; across = dx; }
      else { along = dy; across = dx; }
      if (along <= 1) return;
      var score = along + 2 * Math.abs(across);
      if (score < bestScore) { bestScore = score; best = card; }
    });
    return best;
  }
  function focusCard(card) {
    if (!card) return;
    board().querySelectorAll("button[data-card]").forEach(function (c) { c.setAttribute("tabindex", "-1"); });
    card.setAttribute("tabindex", "0");
    card.focus();
  }
  function pileCard(pile) {
    var top = topOf(pile);
    return top && top.matches("button[data-card]:not([disabled])") ? top : null;
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    if (document.getElementById("replay")) return;
    var root = playable();
    if (!root) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    var at = event.timeStamp;
    if (key === "p") { event.preventDefault(); if (isPaused()) resumeClock(); else pauseClock(); return; }
    if (isPaused()) return;  // the cards are hidden: nothing to play until Resume
    if (key === "d") { event.preventDefault(); take({ kind: "stock", at: at }); }
    else if (key === "u") { event.preventDefault(); take({ kind: "undo" }); }
    else if (key === "h") { event.preventDefault(); take({ kind: "hint" }); }
    else if (key === "s" || key === "w") {
      var card = pileCard(key === "s" ? "stock" : "waste");
      event.preventDefault();
      if (card) { focusCard(card); take({ kind: "card", card: card.getAttribute("data-card"), at: at }); }
      else say(key === "s" ? "The stock has no card to play just now." : "The waste has no card to play just now.");
    } else if (key === "Escape") { take({ kind: "deselect" }); }
    else if (key.indexOf("Arrow") === 0) {
      var active = document.activeElement;
      var onCard = active && active.matches && active.matches("#board button[data-card]");
      if (!onCard && active !== document.body && !root.contains(active)) return;
      var next = nearest(onCard ? active : null, key);
      if (next) { event.preventDefault(); focusCard(next); }
    }
  });

  /* --- the clock: the server says how long so far; the page counts on --------------------- */
  var clock = null;
  function formatTime(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }
  function stopClock() { if (clock) window.clearInterval(clock); clock = null; }
  function startClock() {
    stopClock();
    var label = document.querySelector("[data-elapsed]");
    if (!label || label.getAttribute("data-running") !== "true" || offline) return;
    var base = Number(label.getAttribute("data-elapsed")) || 0;
    var since = Date.now();
    clock = window.setInterval(function () {
      var current = document.querySelector("[data-elapsed]");
      if (current) current.textContent = formatTime(base + Math.floor((Date.now() - since) / 1000));
    }, 1000);
  }

  /* --- pause: the button, P, and leaving the tab stop the clock and hide the cards ------- */
  function isPaused() { var b = board(); return !!(b && b.hasAttribute("data-paused")); }
  function clockPost(name) {
    var form = board() && board().querySelector('form[action$="/' + name + '"][data-clock-form]');
    if (!form) return false;
    fetch(form.action, {
      method: "POST", keepalive: true, credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRF-Token": csrfToken() }
    }).catch(function () { /* offline: the next move ends the pause on the server anyway */ });
    return true;
  }
  function pauseClock() {
    var root = board(), label = document.querySelector("[data-elapsed]");
    var cover = root && root.querySelector("[data-paused-cover]");
    if (!cover || isPaused() || !label || label.getAttribute("data-running") !== "true") return;
    if (!clockPost("pause")) return;
    var shown = label.textContent.split(":").reduce(function (total, part) { return total * 60 + Number(part); }, 0);
    label.setAttribute("data-elapsed", String(shown));
    label.setAttribute("data-running", "false");
    stopClock();
    root.setAttribute("data-paused", "");
    cover.hidden = false;
    var resume = cover.querySelector('[data-action="resume"]');
    if (resume) resume.focus();
  }
  function resumeClock() {
    var root = board(), label = document.querySelector("[data-elapsed]");
    if (!isPaused() || !clockPost("resume")) return;
    root.removeAttribute("data-paused");
    root.querySelector("[data-paused-cover]").hidden = true;
    if (label) label.setAttribute("data-running", "true");
    startClock();
    roving();
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("#board[data-play] form[data-clock-form]")) return;
    event.preventDefault();
    if (/\/pause$/.test(form.action)) pauseClock(); else resumeClock();
  });
  /* Leaving the tab pauses after a second away: a reload, a link followed or the tab closed
     also hide the page first, and must not leave a paused game behind them (the page that
     follows would draw the board before the pause lands). */
  var awayTimer = null;
  var AWAY_MS = 1000;
  document.addEventListener("visibilitychange", function () {
    clearTimeout(awayTimer);
    if (document.visibilityState === "hidden") awayTimer = setTimeout(pauseClock, AWAY_MS);
  });
  window.addEventListener("pagehide", function () { clearTimeout(awayTimer); });

  /* --- how long a press takes to show, and an answer to draw (bench/play_feel.py) -------- */
  window.pyramidFeel = [];
  window.pyramidRedraws = [];
  var afterPaint = new MessageChannel();
  var painted = [];
  afterPaint.port1.onmessage = function () {
    var now = performance.now();
    painted.splice(0).forEach(function (at) { window.pyramidFeel.push(now - at); });
  };
  function timeFrame(at) {
    painted.push(at);
    if (painted.length === 1) {
      window.requestAnimationFrame(function () { afterPaint.port2.postMessage(null); });
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    showPending();
    startClock();
    roving();
    landedBeforeLoad();
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) checkForNews();
  });
})();
