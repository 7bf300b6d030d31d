"""Every sentence the board's script says, from the catalogs, sent with each page.

The script (static/js/board/words.js) has keys, not words: ``say("selected", {card})``. Each
page carries this request's sentences as JSON (``<script type="application/json" id="words">``
in base.html, ``page_words``), so a page plays, announces and explains offline in the language
it was drawn in, and the catalogs stay the one place for words. Placeholders are ``%(card)s``
in the catalogs (as everywhere in Python) and ``{card}`` in the JSON (as the script fills them).

Three kinds of entries:
- ``SENTENCES``: a key and its message;
- ``COUNTED``: a key whose message depends on a number (``{count} games were saved``), sent as
  one form per plural category the language has (``one``, ``few``, ``many``, ``other``: the
  script picks with ``Intl.PluralRules``, the same CLDR rules Babel uses here);
- ``refusals``: the engines' refusals by code (why a move is refused, why a game ended), from
  ``app.web.core.refusals``, which the script's ``sayRefusal`` fills with a refusal's fields.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from markupsafe import Markup

from app.engine import VARIANTS
from app.web.core import i18n
from app.web.core.i18n import Counted, LazyProxy, _l, counted
from app.web.core.names import SUIT_TEMPLATES, rank_word, variant_title
from app.web.core.refusals import page_table

SENTENCES = {
    "free_card": _l("%(card)s, free"),
    "covered_one": _l("%(card)s, covered by %(a)s"),
    "covered_two": _l("%(card)s, covered by %(a)s and %(b)s"),
    "learn_pair": _l("Two uncovered cards that make 13 leave together: tap the 8 of diamonds, "
                     "then the 5 of hearts (Jack 11, Queen 12)."),
    "learn_king": _l("A King is 13 on its own: tap the King of diamonds."),
    "learn_draw": _l("No pair on the board? Draw: tap the stock, or press D. Its card and the "
                     "waste's top card pair up too."),
    "learn_rest": _l("Draw the rest of the stock to see what happens when it runs out."),
    "learn_recycle": _l("The stock is empty: tap Recycle to turn the waste over for the next "
                        "pass (this deal allows three)."),
    "learn_done": _l("That is all there is: clear the pyramid to win. Your first real game is "
                     "one tap away."),
    "row": _l("Row %(row)s of 7"),
    "selected": _l("%(card)s selected: choose a card to make 13 with it."),
    "deselected": _l("%(card)s is no longer selected."),
    "selection_dropped": _l("%(card)s is no longer selected: the stock moved on."),
    "removed_king": _l("Removed %(a)s."),
    "removed_pair": _l("Removed %(a)s and %(b)s."),
    "drew": _l("Drew %(card)s; %(next)s is the stock's card now."),
    "drew_last": _l("Drew %(card)s; the stock is empty now."),
    "recycled": _l("Turned the waste over: pass %(pass)s of %(passes)s."),
    "nothing_to_undo": _l("There is no move to take back."),
    "nothing_to_redo": _l("There is no move to play again: redo plays a move undo took back, "
                          "until a new move is made."),
    "no_stock_card": _l("The stock has no card to play just now."),
    "no_waste_card": _l("The waste has no card to play just now."),
    "offline": _l("No network: you can play on. Your moves are kept on this device and saved "
                  "when the network is back."),
    "back_online": _l("Back online: your moves are saved."),
    "moved_elsewhere": _l("This game moved on in another tab or window: this is where it "
                          "stands now."),
    "disagreed": _l("The server saw this game differently: this is the game as it is saved."),
    "needs_network_hint": _l("Hints need the network: you can play on, and ask again once it "
                             "is back."),
    "needs_network": _l("This page needs the network: you can play a game meanwhile."),
    "expired": _l("This page has expired: reload it to carry on (your game is saved)."),
    "failed": _l("That did not work (%(status)s). Reload the page to see the game as it is."),
    "hint_waits": _l("Saving your moves first…"),
    "ended_offline": _l("Saved on this device: it will be sent to the server when the network "
                        "is back."),
    "offline_game": _l("Played without network"),
    "not_on_device": _l("This game is not on this device, and the network is not there to "
                        "fetch it."),
    "play_offline": _l("Play a game meanwhile"),
    "abandon_question": _l("Your game in progress would count as abandoned. Start this one "
                           "anyway?"),
    "restart_question": _l("Start this deal again? This game would count as abandoned."),
    "undone_draw": _l("Took back the draw."),
    "undone_recycle": _l("Took back the recycle."),
    "undone_king": _l("Took back: %(a)s."),
    "undone_pair": _l("Took back: %(a)s and %(b)s."),
    # TRANSLATORS: the pass through the stock being played, of how many the game allows.
    "pass_of": _l("%(number)s of %(passes)s"),
    "recycle_label": _l("Recycle: turn the waste over for pass %(pass)s of %(passes)s"),
    "recycle": _l("Recycle"),
    "draw": _l("Draw"),
    "no_passes_left": _l("No passes left"),
    "stock_empty": _l("Stock empty"),
    "won": _l("You won!"),
    "game_over": _l("Game over"),
    "abandoned": _l("Abandoned"),
    "summary": _l("Time %(time)s · %(moves)s · %(cleared)s/%(total)s cleared"),
    "score": _l("Score %(score)s"),
    "play_again": _l("Play this deal again"),
    "new_game": _l("New game"),
    "next_deal": _l("Next deal"),
    "show_board": _l("Show board"),
    "show_result": _l("Show result"),
    "deal_number": _l("Deal #%(number)s"),
    "custom_deal": _l("Custom deal"),
    "copied_deal": _l("Deal link copied."),
    "copied_challenge": _l("Challenge link copied: send it to a friend."),
    "select_link": _l("Select the link and copy it."),
    "link_selected": _l("The link is selected: copy it with Ctrl+C."),
    # The solver on the device (static/js/board/ondevice.js): the server's own sentences
    # (app/web/views/view.py: describe_hint, say_move, kept_the_win; templates/analysis.html).
    "hint_move": _l("Hint: %(move)s."),
    "hint_winnable": _l("This deal can still be won."),
    "hint_unsure": _l("The solver could not decide this position in time."),
    "hint_lost": _l("This deal can no longer be won. Hint: %(move)s, which leaves the most cards "
                    "you can still remove."),
    "move_draw": _l("draw a card from the stock"),
    "move_recycle": _l("turn the waste over for the next pass"),
    "move_king": _l("remove %(a)s"),
    "move_pair": _l("remove %(a)s and %(b)s"),
    "no_longer_winnable": _l("This position can no longer be won."),
    "step_draw": _l("Draw %(card)s"),
    "coach_lost_at": _l("This deal could have been won. Your move %(number)s, "
                        "<strong>%(move)s</strong>, left no way to win."),
    "coach_kept_draw": _l("Drawing a card from the stock instead would have kept the win."),
    "coach_kept_recycle": _l("Turning the waste over for the next pass instead would have kept "
                             "the win."),
    "coach_kept_king": _l("Removing %(a)s instead would have kept the win."),
    "coach_kept_pair": _l("Removing %(a)s and %(b)s instead would have kept the win."),
    "coach_never": _l("No one could have won this deal with these rules: the solver searched "
                      "every way of playing it."),
    "coach_unknown": _l("The solver could not tell in time whether this deal could be won."),
    "retry_from": _l("Try again from move %(number)s"),
    "retry_note": _l("A try again is not counted in your statistics: this game's result stands."),
    "retry_back_draw": _l("Back before move %(number)s, the move that lost the win. Drawing a "
                          "card from the stock keeps it: the board marks it."),
    "retry_back_recycle": _l("Back before move %(number)s, the move that lost the win. Turning "
                             "the waste over for the next pass keeps it: the board marks it."),
    "retry_back_king": _l("Back before move %(number)s, the move that lost the win. Removing "
                          "%(a)s keeps it: the board marks it."),
    "retry_back_pair": _l("Back before move %(number)s, the move that lost the win. Removing "
                          "%(a)s and %(b)s keeps it: the board marks it."),
}


COUNTED = {
    "synced_games": counted("%(count)s game played offline was saved.",
                            "%(count)s games played offline were saved."),
    "not_kept": counted("This game moved on elsewhere (another tab or device): this is where "
                        "it stands now. %(count)s move made here was not kept.",
                        "This game moved on elsewhere (another tab or device): this is where "
                        "it stands now. %(count)s moves made here were not kept."),
    "moves": counted("%(count)s move", "%(count)s moves"),
    "face_down": counted("Draw a card (%(count)s face down)",
                         "Draw a card (%(count)s face down)"),
    "in_stock": counted("%(count)s in stock", "%(count)s in stock"),
    "in_waste": counted("%(count)s in waste", "%(count)s in waste"),
    "removed_pile": counted("%(count)s removed", "%(count)s removed"),
    "stock_group": counted("Stock, %(count)s card", "Stock, %(count)s cards"),
    "waste_group": counted("Waste, %(count)s card", "Waste, %(count)s cards"),
    "removed_group": counted("Removed, %(count)s card", "Removed, %(count)s cards"),
    # The device's hint (static/js/board/ondevice.js), as the server's (view.py, describe_hint).
    "undo_back": counted("Undo %(num)s move to get back to a winnable position.",
                         "Undo %(num)s moves to get back to a winnable position."),
}


# --- the page's JSON -------------------------------------------------------------------------
def _js(message: str) -> str:
    """``%(card)s`` -> ``{card}``: the script's placeholders."""
    return re.sub(r"%\((\w+)\)s", r"{\1}", message)


def _samples() -> dict[str, int]:
    """A number of each plural category this language has (``one``: 1, ``few``: 2, ...)."""
    locale = i18n.locale_of(i18n.current())
    found: dict[str, int] = {}
    for n in range(200):
        found.setdefault(locale.plural_form(n), n)
    return found


def _by_category(message: Counted) -> dict[str, str]:
    """``message``'s form for each plural category, its placeholders kept."""
    translations = i18n.translations(i18n.current())
    return {category: _js(translations.ngettext(message.singular, message.plural, n))
            for category, n in _samples().items()}


def _said(message: LazyProxy | Counted) -> str | dict[str, str]:
    if isinstance(message, Counted):
        return _by_category(message)
    return _js(str(message))


@cache
def _page_words(language: str) -> str:
    with i18n.speaking(language):
        words: dict[str, Any] = {key: _said(message) for key, message in SENTENCES.items()}
        # The analysis page's sentence marks its move up; the script puts it in <strong>.
        words["coach_lost_at"] = re.sub(r"</?strong>", "", words["coach_lost_at"])
        words.update({key: _said(message) for key, message in COUNTED.items()})
        words["cards"] = {
            "ranks": [rank_word(rank) for rank in range(1, 14)],
            "suits": {suit: _said(template) for suit, template in SUIT_TEMPLATES.items()}}
        words["refusals"] = page_table(_said)
        words["variants"] = {variant.key: variant_title(variant) for variant in VARIANTS}
        words["number_locale"] = str(i18n.current_locale()).replace("_", "-")
    return json.dumps({"language": language, "words": words}, ensure_ascii=False,
                      separators=(",", ":")).replace("</", "<\\/")


def page_words() -> Markup:
    """This request's sentences as the page's JSON (safe inside ``<script>``)."""
    return Markup(_page_words(i18n.current()))
