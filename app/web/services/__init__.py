"""What the routes call on a player's games: a board input read and played (``boardinput``,
``actions``), answered as a board (``boardpage``), games started (``starting``), the solver
asked (``solving``), results and challenges, statistics carried in and out (``transfer``).
No routes; imports ``core`` and ``views``."""
