"""The solitaire as a person meets it: Cooperative Chess 2's presenter (:mod:`app.games.coop.presenter`) under
the solitaire's key; with no hand and no partner it draws neither hand.

>>> PRESENTER.key
'coop_solitaire'
"""

from __future__ import annotations

from app.games.coop.presenter import CoopPresenter
from app.games.coop.solitaire import DEFINITION

__all__ = ["PRESENTER"]

PRESENTER = CoopPresenter(DEFINITION.key)
