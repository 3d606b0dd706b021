"""Games that exist only for the tests: they prove that a game which is not chess can be added to Sightline by
writing its own package and naming it once, here through the ``SIGHTLINE_GAMES`` environment variable
(``SIGHTLINE_GAMES=tests.games.lights,tests.games.scouts``) instead of the registry's list.

- :mod:`tests.games.lights`: Lights Out, a one-seat solitaire on a 4x4 board, dealt by chance;
- :mod:`tests.games.scouts`: Scouts, four seats in two teams on a 6x6 board, each seat seeing only its own
  scouts;
- :mod:`tests.games.picks`: Secret Picks, four seats in two teams with no board: cards dealt by chance, a
  secret setup choice per seat, and partners each picking a card unseen before the cards are shown (it has
  no presenter and is registered by its own tests only).

Each package has the layout of a real game's: ``__init__.py`` (the definition), ``rules.py`` (referee, actions,
observations and a seat's view), ``presenter.py`` (what the window draws and how a person acts) and
``bots.py``. They are not shipped: nothing under ``app/`` names them.
"""
