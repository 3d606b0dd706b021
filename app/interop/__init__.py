"""Interoperability with other tools' game formats (no Qt).

:mod:`app.interop.reconchess_history` re-exports RBC's conversion of Sightline records to and from
reconchess's ``GameHistory`` JSON (what ``rc-replay`` shows), which lives in
:mod:`app.games.rbc.reconchess_history`.
"""
