"""What happens to a game on a board input: every way in (a card clicked without JavaScript,
an action, the board's script's batch of steps, a hint asked) read here, judged and saved by
the one applier (``actions.apply``), and answered as a plain ``Answer`` that the routes send
(``views.boardpage.answer``).

The same for a stored game and for a deal page's (a deal link's, the deal of the day's), which
is not stored before its first input (``store.preview``): that input starts it, unless it would
abandon a game in progress that the page has not agreed to leave (``AskFirst``). A batch is
what the board's script played with its own engine, made on one version and played whole or
not at all; a batch sent again (its answer lost) is played once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Annotated

from fastapi import Depends, Form, Query, Request
from sqlalchemy.orm import Session

from app.engine import (
    Card,
    CardError,
    Game,
    IllegalMove,
    Move,
    MoveError,
    Op,
    Refusal,
)
from app.store import (
    GameConflict,
    LoadedGame,
    reload,
)
from app.web.core.htmx import wants_json
from app.web.core.i18n import gettext as _
from app.web.core.notice import Answer, AskFirst, Notice
from app.web.core.params import VersionField
from app.web.core.refusals import say
from app.web.core.threads import in_thread
from app.web.services import actions, hints, racing, results, solving, starting
from app.web.services.devicehints import HINT, DeviceHint
from app.web.views.view import describe_hint, describe_played, with_symbols

log = logging.getLogger("pyramid.board")

BATCH_LIMIT = 100
"""Steps in one batch: far more than a player makes while one answer is on its way."""
INPUT_ID = r"^[A-Za-z0-9_-]{8,32}:[0-9]{1,9}$"
"""A batch's id: the tab's own random id, a colon, and the batch's number in that tab."""
MOST_SECONDS = 7 * 24 * 3600
"""The longest game clock a page may report for moves made without network."""


@dataclass(frozen=True, slots=True)
class BoardInput:
    """What a board form sends: a card (with the card already selected, if any), an action,
    or the script's batch of moves; and the version it was made on."""

    card: str | None = None
    selected: str | None = None
    action: str | None = None
    moves: str | None = None
    input_id: str | None = None
    version: int | None = None
    untimed_elapsed: int | None = None
    """Set when the batch's moves were made without network: the page's own clock then."""
    abandon: bool = False
    """The player has agreed, on the page, to leave their game in progress (a deal page's
    first input then starts without asking again)."""
    retry: str | None = None
    """A deal page's first input only: the moves (space-separated) a try again begun on the
    device starts from, "try again from move N" of a game lost with no network: a game not
    counted, at the position they reach (the server cannot tell them from moves a player
    made, and needs not: the game counts nowhere)."""


def board_input(card: Annotated[str | None, Form(max_length=3)] = None,
                selected: Annotated[str | None, Form(max_length=3)] = None,
                action: Annotated[str | None, Form(max_length=10)] = None,
                moves: Annotated[str | None, Form(max_length=BATCH_LIMIT * 8)] = None,
                input_id: Annotated[str | None, Form(alias="input", pattern=INPUT_ID)] = None,
                version: VersionField = None,
                offline: Annotated[bool, Form()] = False,
                elapsed: Annotated[int | None, Form(ge=0, le=MOST_SECONDS)] = None,
                abandon: Annotated[bool, Form()] = False,
                retry: Annotated[str | None, Query(max_length=BATCH_LIMIT * 20)] = None,
                ) -> BoardInput:
    return BoardInput(card, selected, action, moves, input_id, version,
                      untimed_elapsed=(elapsed or 0) if offline else None, abandon=abandon,
                      retry=retry)


BoardInputDep = Annotated[BoardInput, Depends(board_input)]


# --- playing an input ------------------------------------------------------------------------
def play(request: Request, session: Session, player_id: str, loaded: LoadedGame,
         sent: BoardInput) -> Answer:
    """One board input on a stored game: read into steps, applied by ``actions.apply`` (which
    checks the version and that the game goes on), and what to answer."""
    try:
        read = read_input(loaded.game, sent, script=wants_json(request))
    except Unread as exc:
        return Answer(loaded, exc.said, exc.status_code)
    device_hints = any(isinstance(step, DeviceHint) for step in read.steps)
    if device_hints and (why := racing.hints_refused(session, loaded.record)):
        return Answer(loaded, Notice(why, refused=True), 422)  # as the server's hint is
    try:
        done = actions.apply(session, loaded, read.steps, sent.version, sent.input_id,
                             sent.untimed_elapsed)
    except actions.BatchRefused as exc:
        return _refused(request, loaded, exc, read)
    except GameConflict as exc:
        return _out_of_step(session, loaded, sent.input_id, exc)
    except IllegalMove as exc:  # the game is over
        return Answer(loaded, refusal(exc.refusal), 422 if read.batch else 200)
    results.remember_par(request, loaded)
    return Answer(loaded, read.said or said_of(done, loaded.game))


def first_input(request: Request, session: Session, player_id: str, unstored: LoadedGame,
                sent: BoardInput) -> Answer | AskFirst:
    """A deal page's first input, on its game not stored yet (``store.preview``). A batch
    starts the game and is played with it, in one transaction (or neither: a refused step is
    422 on the deal as it was); any other input plays on the game it starts. A first batch
    sent again (its answer was lost, or it waited on a device without network) finds the game
    it started and gets that game's board: it starts no second game, and is not played
    twice."""
    if (before := _started_by(session, player_id, sent)) is not None:
        return before
    if (ask := starting.ask_first(session, player_id, agreed=sent.abandon)) is not None:
        # A copy of this batch may have stored its game just now: that is no other game.
        return _started_by(session, player_id, sent) or ask
    if sent.retry is not None:
        retried = _retried(unstored, sent.retry)
        if isinstance(retried, Notice):
            return Answer(unstored, retried, 422, page=True)
        unstored = retried
    if sent.moves is None or sent.input_id is None:
        started = starting.stored(session, unstored)  # the page was drawn before the game
        version = started.version if sent.moves is not None else None  # existed
        answered = play(request, session, player_id, started, replace(sent, version=version))
        return replace(answered, started=True)
    steps = read_steps(sent.moves)
    if isinstance(steps, Notice):
        return Answer(unstored, steps, 422, page=True)
    try:
        done = actions.apply(session, unstored, steps, input_id=sent.input_id,
                             untimed_elapsed=sent.untimed_elapsed)
    except actions.BatchRefused as exc:
        return Answer(unstored, refused_batch(exc, len(steps)), 422, page=True)
    except actions.AlreadyStarted:
        before = _started_by(session, player_id, sent)
        if before is None:  # pragma: no cover - the unique batch id names a stored game
            raise
        return before
    return Answer(unstored, said_of(done, unstored.game), page=True, started=True)


def _retried(unstored: LoadedGame, text: str) -> LoadedGame | Notice:
    """A deal page's game as a try again from the position ``text``'s moves reach: not rated,
    answering no challenge (``BoardInput.retry``); or why those moves are refused."""
    game = unstored.game.copy()
    for word in text.split():  # from move 1: none
        try:
            move = Move.from_text(word)
            game.play(move)
        except MoveError as exc:
            # TRANSLATORS: %(why)s is the engine's explanation, a sentence.
            return Notice(_("That is not a move: %(why)s", why=say(exc.refusal)),
                          refused=True)
        except IllegalMove as exc:
            return refusal(exc.refusal, move.cards)
    unstored.record.rated, unstored.record.challenge = False, None
    return LoadedGame(unstored.record, game)


def _started_by(session: Session, player_id: str, sent: BoardInput) -> Answer | None:
    """The board of the game this first batch started already, if it did."""
    before = actions.started_by(session, player_id, sent.input_id) if sent.input_id else None
    return Answer(before, page=True, started=True) if before is not None else None


def _refused(request: Request, loaded: LoadedGame, exc: actions.BatchRefused,
             read: Read) -> Answer:
    """A step the engine refused, nothing played: a click's refusal is words on the board
    (its cards shake); a batch's is 422, the two engines having disagreed (logged)."""
    if not read.batch:
        return Answer(loaded, refusal(exc.refusal, exc.cards))
    if wants_json(request):
        log.error("The page's engine and the server's disagree: game %s, step %d (%s): %s",
                  loaded.record.id, exc.number, exc.step, exc.refusal)
    return Answer(loaded, refused_batch(exc, len(read.steps)), 422)


def _out_of_step(session: Session, loaded: LoadedGame, input_id: str | None,
                 exc: GameConflict) -> Answer:
    """An input made on another version than the stored one. A batch sent again after its
    answer was lost finds itself applied and gets the board as it is (200). Otherwise the
    board as stored now (409), and whose doing that was: this tab's own earlier batch, or
    another tab."""
    fresh = reload(session, loaded)
    last = fresh.record.last_input
    if input_id is not None and last == input_id:
        return Answer(fresh, page=True)
    mine = input_id is not None and last is not None and (
        last.split(":", 1)[0] == input_id.split(":", 1)[0])
    message = str(actions.OWN_EARLIER_INPUT) if mine else conflict_message(exc)
    return Answer(fresh, Notice(message, refused=True), 409, page=True)


# --- a hint --------------------------------------------------------------------------------
async def first_hint(session: Session, player_id: str,
                     unstored: LoadedGame) -> Answer | AskFirst:
    """A hint asked on a deal page: the question starts its game, as any first input."""
    if (ask := await in_thread(starting.ask_first, session, player_id)) is not None:
        return ask
    loaded = await in_thread(starting.stored, session, unstored)
    return replace(await hint(session, player_id, loaded), started=True)


async def hint(session: Session, player_id: str, loaded: LoadedGame) -> Answer:
    """The solver's next move for ``loaded``, in words on the board (``hints.advise``)."""
    try:
        advice, until = await hints.advise(session, loaded, player_id)
    except IllegalMove as exc:
        return Answer(loaded, refusal(exc.refusal))
    except (solving.SolverBusy, hints.HintKeptBack) as exc:
        return Answer(loaded, Notice(str(exc), refused=True))
    move = advice.move
    return Answer(loaded, Notice(
        describe_hint(advice, until),
        hinted=tuple(card.name for card in move.cards) if move else (),
        hinted_action=move.op.value if move and not move.cards else None))


# --- reading an input ------------------------------------------------------------------------
class Unread(Exception):
    """An input that is no move: what to tell the player, and the status (422 for a malformed
    batch or request; 200 for a click the board answers with words)."""

    def __init__(self, said: Notice, status_code: int = 422) -> None:
        super().__init__(said.message)
        self.said, self.status_code = said, status_code


@dataclass(frozen=True, slots=True)
class Read:
    """A board input as steps for ``actions.apply``: none for a click that only selects a card
    or that the board answers at once (``said``), one for a click or an action, the script's
    whole batch."""

    steps: list[actions.Step]
    said: Notice | None = None
    batch: bool = False


def read_input(game: Game, sent: BoardInput, *, script: bool = False) -> Read:
    """Every shape of board input as one list of steps; raises Unread for what is no input
    (``script``: the board's script asked, which always sends something)."""
    if sent.moves is not None:
        if sent.version is None:
            raise Unread(Notice(_("A batch of inputs says which version of the game it was "
                                  "made on."), refused=True))
        steps = read_steps(sent.moves)
        if isinstance(steps, Notice):
            raise Unread(steps)
        return Read(steps, batch=True)
    if sent.action is not None:
        step = read_action(sent.action)
    elif sent.card is None and script:
        raise Unread(Notice(_("Nothing was sent: a card, an action or a batch of moves."),
                            refused=True))
    else:
        step = read_click(game, sent.selected, sent.card)
    return Read([], said=step) if isinstance(step, Notice) else Read([step])


def read_click(game: Game, selected: str | None, card: str | None) -> Move | Notice:
    """What a click on ``card`` means, with ``selected`` the card already selected: a move
    for the engine to judge, or what to tell the player (a selection, a deselection, a card
    that cannot be played).

    The selection lives on the server (the board's form carries it): a lone card that is not
    a King only becomes the selection; a King, or a second card, is a removal.
    """
    if not card:
        return Notice(_("Choose a card."), refused=True)
    try:
        clicked = Card.parse(card)
        first = Card.parse(selected) if selected else None
    except CardError as exc:
        # TRANSLATORS: %(why)s is the engine's explanation, a sentence.
        return Notice(_("That is not a card: %(why)s", why=say(exc.refusal)), refused=True)
    if first == clicked:
        return Notice(_("%(card)s is no longer selected.", card=clicked.symbol))
    if first is not None or clicked.is_king:
        return Move.remove(clicked) if first is None else Move.remove(first, clicked)
    why_not = game.why_not_free(clicked)
    if why_not:
        return refusal(why_not, (clicked,))
    return Notice(_("%(card)s selected: choose a card to make 13 with it.",
                    card=clicked.symbol), selected=clicked.name)


ACTIONS = {"draw": Move.draw, "recycle": Move.recycle}


def read_action(action: str) -> actions.Step | Notice:
    if action == actions.UNDO:
        return actions.UNDO
    make = ACTIONS.get(action)
    if make is None:
        # TRANSLATORS: %(action)s is what the form sent, quoted.
        return Notice(_("Unknown action %(action)s.", action=repr(action)), refused=True)
    return make()


def read_steps(text: str) -> list[actions.Step] | Notice:
    """A batch in move notation, space-separated (``5H+8C draw KS undo``); ``hint`` or
    ``hint:MOVE`` is a hint the page's own solver gave (``DeviceHint``)."""
    words = text.split()
    if not words or len(words) > BATCH_LIMIT:
        return Notice(_("A batch holds 1 to %(most)s inputs.", most=BATCH_LIMIT), refused=True)
    steps: list[actions.Step] = []
    for word in words:
        if word.lower() == actions.UNDO:
            steps.append(actions.UNDO)
            continue
        head, colon, named = word.partition(":")
        try:
            if head.lower() == HINT:
                steps.append(DeviceHint(Move.from_text(named) if colon else None))
                continue
            steps.append(Move.from_text(word))
        except MoveError as exc:
            # TRANSLATORS: %(why)s is the engine's explanation, a sentence.
            return Notice(_("That is not a move: %(why)s", why=say(exc.refusal)),
                          refused=True)
    return steps


# --- what the board says -------------------------------------------------------------------
def said_of(done: actions.Applied, game: Game) -> Notice:
    """What the steps did: their last one (a removal's cards fade out where they were); a
    device's hint is no move, and says nothing of its own."""
    played = [step for step in done.steps if not isinstance(step, DeviceHint)]
    if not played:
        return Notice()
    last = played[-1]
    if not isinstance(last, Move):  # UNDO, the only other step
        return took_back(done.undone[-1])
    return Notice(describe_played(last, game), removed=tuple(c.name for c in last.cards))


def refused_batch(exc: actions.BatchRefused, asked: int) -> Notice:
    """A batch the engine refused at one step: which, why, and that none of it was played."""
    told = refusal(exc.refusal, exc.cards)
    # TRANSLATORS: %(why)s is why the engine refused the step, a sentence.
    return Notice(_("%(why)s (Step %(number)s of %(steps)s; none of them was played.)",
                    why=told.message, number=exc.number, steps=asked),
                  refused=True, refused_cards=told.refused_cards)


def conflict_message(exc: GameConflict) -> str:
    """What a ``GameConflict`` tells the player, in their language: the store's refusal said
    by its code (a ``VersionMismatch`` is written in the player's language already)."""
    return say(exc.refusal) if exc.refusal is not None else str(exc)


def refusal(why: Refusal, cards: tuple[Card, ...] = ()) -> Notice:
    """An input the rules refuse, said by its code in the player's language; its cards
    shake."""
    return Notice(with_symbols(say(why)), refused=True,
                  refused_cards=tuple(c.name for c in cards))


def took_back(move: Move) -> Notice:
    """What an undo says: ``Took back: 5♥+8♣.``"""
    if move.op is Op.DRAW:
        return Notice(_("Took back: draw."))
    if move.op is Op.RECYCLE:
        return Notice(_("Took back: recycle."))
    # TRANSLATORS: %(move)s is the move taken back, as in "5♥+8♣" or "K♠".
    return Notice(_("Took back: %(move)s.", move=with_symbols(move.to_text())))
