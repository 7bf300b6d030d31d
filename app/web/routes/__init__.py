"""The routes: each parses its request, calls ``services`` and answers with ``views``. A
newcomer changing how a move is played starts at ``board.play``."""
