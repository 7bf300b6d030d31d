"""What the routes call on a player's games, as plain results the routes render (no service
builds a response): what happens to a game on a board input (``board``: read, started if a deal
page's, applied by ``actions``, answered), games started and saved (``actions``, ``starting``),
the solver asked (``solving``), what stays private while a deal is in play (``spoilers``),
moves known beforehand counted as hints (``witness``), results and challenges, the calendar,
races, statistics carried in and out (``gamesfile``, ``transfer``). No routes; imports
``core`` and ``views``."""
