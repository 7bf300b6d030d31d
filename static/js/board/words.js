/* Every sentence the board's script says, in one place.
 *
 * A sentence is a key and named placeholders ({card}, {count}); `say(key, values)` fills it.
 * Cards are named the way their buttons are (`Queen of hearts`), so what a screen reader
 * announces matches what it reads on the board. The page may carry its own sentences (a
 * `<script type="application/json" id="words">`, in the player's language); the English ones
 * below stand in for any it lacks. The rules' own sentences (why a move is refused, why a game
 * ended) come from the engine, in the server's words. */

const ENGLISH = {
  free_card: "{card}, free",
  learn_pair: "Two uncovered cards that make 13 leave together: tap the 8 of diamonds, then the 5 of hearts (Jack 11, Queen 12).",
  learn_king: "A King is 13 on its own: tap the King of diamonds.",
  learn_draw: "No pair on the board? Draw: tap the stock, or press D. Its card and the waste's top card pair up too.",
  learn_rest: "Draw the rest of the stock to see what happens when it runs out.",
  learn_recycle: "The stock is empty: tap Recycle to turn the waste over for the next pass (this deal allows three).",
  learn_done: "That is all there is: clear the pyramid to win. Your first real game is one tap away.",
  row: "Row {row} of 7",
  selected: "{card} selected: choose a card to make 13 with it.",
  deselected: "{card} is no longer selected.",
  selection_dropped: "{card} is no longer selected: the stock moved on.",
  removed_king: "Removed {a}.",
  removed_pair: "Removed {a} and {b}.",
  drew: "Drew {card}; {next} is the stock's card now.",
  drew_last: "Drew {card}; the stock is empty now.",
  recycled: "Turned the waste over: pass {pass} of {passes}.",
  undone: "Took back: {move}.",
  nothing_to_undo: "There is no move to take back.",
  no_stock_card: "The stock has no card to play just now.",
  no_waste_card: "The waste has no card to play just now.",
  offline: "No network: you can play on. Your moves are kept on this device and saved when the network is back.",
  back_online: "Back online: your moves are saved.",
  synced_games: "{count} game played offline was saved.",
  synced_games_plural: "{count} games played offline were saved.",
  not_kept: "This game moved on elsewhere (another tab or device): this is where it stands now. {count} move made here was not kept.",
  not_kept_plural: "This game moved on elsewhere (another tab or device): this is where it stands now. {count} moves made here were not kept.",
  moved_elsewhere: "This game moved on in another tab or window: this is where it stands now.",
  disagreed: "The server saw this game differently: this is the game as it is saved.",
  needs_network_hint: "Hints need the network: you can play on, and ask again once it is back.",
  needs_network: "This page needs the network: you can play a game meanwhile.",
  expired: "This page has expired: reload it to carry on (your game is saved).",
  failed: "That did not work ({status}). Reload the page to see the game as it is.",
  hint_waits: "Saving your moves first…",
  ended_offline: "Saved on this device: it will be sent to the server when the network is back.",
  offline_game: "Played without network",
  not_on_device: "This game is not on this device, and the network is not there to fetch it.",
  play_offline: "Play a game meanwhile",
  abandon_question: "Your game in progress would count as abandoned. Start this one anyway?",
  restart_question: "Start this deal again? This game would count as abandoned.",
};

let own = null;

function catalog() {
  if (own === null) {
    const element = document.getElementById("words");
    try { own = element ? JSON.parse(element.textContent) : {}; } catch { own = {}; }
  }
  return own;
}

/** The sentence `key` with its placeholders filled from `values`.
 * @param {string} key @param {Record<string, string|number>} [values] @returns {string} */
export function say(key, values = {}) {
  const text = catalog()[key] ?? ENGLISH[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** `key` or `key_plural`, as `count` asks. @param {string} key @param {number} count */
export function sayCount(key, count, values = {}) {
  return say(count === 1 ? key : `${key}_plural`, { count, ...values });
}

/** A card as its button names it: `Queen of hearts`. @param {{longName: string}} card */
export function cardName(card) {
  return card.longName;
}

const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

/** The card names in an engine sentence as the player sees them: `TD` -> `10♦` (as the
 * server's view.with_symbols does). @param {string} text */
export function withSymbols(text) {
  return text.replace(/\b([A2-9TJQK])([CDHS])\b/g,
    (_, rank, suit) => (rank === "T" ? "10" : rank) + SUIT_SYMBOLS[suit]);
}
