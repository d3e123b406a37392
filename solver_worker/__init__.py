"""The solver: a search that knows the stock, hints, and blind players.

Pure Python on the games of ``patience`` (each game's search under ``games/``); the
Celery tasks in ``tasks`` wrap it. Nothing here imports the Django apps.
"""
