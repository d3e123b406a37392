"""The daily's own signal: a ranked result has ended (won or lost), sent on commit.

The actions send it and never import who listens (``leaderboards.reviewing`` has the
fair-play judge run, in a Celery task or the embedded default's own thread), so the
writing stays below the tasks that read what it wrote.
"""

from django.dispatch import Signal

# Sent with ``game_id`` (str) once the ending move's transaction has committed.
ranked_result_ended = Signal()
