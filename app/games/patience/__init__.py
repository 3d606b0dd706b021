"""What the chess kit's solitaires share (Parade and Neighbour Chess; issue 30), each part in a module of its own
and none of it Qt:

- :mod:`.deals`: deal numbers 1 to 1,000,000 and the fixed, self-contained shuffle that turns a number into a
  card order (the same on every machine and every later version);
- :mod:`.undo`: the ``undo`` / ``redo`` actions and the history a referee keeps of them (back to the last card
  turned face up: a card once seen stays seen), written into the record like any action;
- :mod:`.statistics`: deals played and won, best and average score and the current streak per game, in the data
  folder, written whole or not at all;
- :mod:`.solver`: a best-score search knowing every card (a game supplies its states, actions and scores through
  :class:`~app.games.patience.solver.Problem`), which says whether its score is proven best;
- :mod:`.hints`: the best next action by expectation over the orders of the cards the player has not seen;
- :mod:`.door`: what a solitaire offers the window and ``sightline solve`` (its presenter's ``solitaire``).

This package is not a game (no registry entry names it): a solitaire's package imports it, and so may the window.
"""
