"""Interoperability with other tools' game formats (no Qt).

:mod:`app.interop.reconchess_history` converts Sightline RBC records to and from
reconchess's ``GameHistory`` JSON (what ``rc-replay`` shows).
"""
