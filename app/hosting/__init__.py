"""Hosting: what plays games above the games themselves (no Qt).

Agents and bot specs (:mod:`.agents`), the built-in bots of each game by name (:mod:`.bot_registry`), bot
worker processes (:mod:`.worker`), one game between agents (:mod:`.runner`) and many games (:mod:`.match`).
This floor asks the games registry (:mod:`app.games`) for what it needs and never names a game; the window and
the command line sit above it.
"""
