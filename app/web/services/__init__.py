"""What the routes call on a player's games: a board input read and played (``boardinput``,
``actions``), answered as a board (``boardpage``), games started (``starting``), the solver
asked (``solving``), what stays private while a deal is in play (``spoilers``), moves known
beforehand counted as hints (``witness``), results and challenges, the calendar, statistics
carried in and out (``gamesfile``, ``transfer``). No routes; imports ``core`` and ``views``."""
