"""The routes: each parses its request, calls ``services`` and answers with ``views``; none
imports another. A newcomer changing how a move is played starts at ``board.play``
(``services.board.play``, then ``actions.apply``)."""
