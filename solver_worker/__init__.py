"""The solver: a search that knows the stock, hints, and blind players.

Pure Python on ``patience.tomb``; the Celery tasks in ``tasks`` wrap it. Nothing
here imports the Django apps.
"""
