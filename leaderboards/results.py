"""Keeping attempts and statistics in step with ranked games, through game.hooks.

The receiver runs inside the game's write (same transaction, under its row
lock), so an attempt's figures can never disagree with its game, and the
client has no say in them: time and result come from the game's row and the
server's clock. Unranked games cost nothing here: the receiver returns at once.
Each placement's interval is kept on the attempt for the pace check
(leaderboards.fairplay); a result it flags leaves the live field at once.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from game.events import best_effort
from game.hooks import game_stored
from game.models import Game, Status

from . import events, fairplay
from .models import Attempt, PlayerStats, Review


@receiver(game_stored, dispatch_uid="leaderboards.record_attempt")
def record_attempt(
    sender: Any, game: Game, action: str, at: datetime, before_home: int, before_status: str,
    **kwargs: Any,
) -> None:
    if not game.ranked:
        return
    time_ms, newly_flagged = record(game, action, at)
    if game.status == Status.WON and before_status != Status.WON:
        count_win(game, time_ms)
    elif game.status == Status.LOST and before_status != Status.LOST:
        count_loss(game)
    if newly_flagged:  # the field showed its progress: watchers get a fresh picture
        transaction.on_commit(best_effort(partial(events.send_field, game.variant)))
    # The field shows progress: a move that brings no card home nor ends the
    # game changes nothing there worth a message to every watcher.
    elif game.home != before_home or game.status != before_status:
        transaction.on_commit(best_effort(partial(events.send_attempt, str(game.id))))


def record(game: Game, action: str, at: datetime) -> tuple[int, bool]:
    """Copy the game's figures onto its attempt (one read, one UPDATE); returns the
    time in ms and whether the pace check flagged the result just now."""
    fields: dict[str, Any] = {
        "status": game.status, "home": game.home, "moves": game.moves, "undos": game.undos,
        "hints": game.hints, "assisted": game.hints > 0,
    }
    time_ms = elapsed_ms(game.started_at, at)
    newly_flagged = False
    if action != "hint":  # the clock runs from the first move to the last one
        fields.update(started_at=game.started_at, last_move_at=at, time_ms=time_ms)
        newly_flagged = _pace(game, action, at, time_ms, fields)
    Attempt.objects.filter(game_id=game.id).update(**fields)
    return time_ms, newly_flagged


def _pace(game: Game, action: str, at: datetime, time_ms: int, fields: dict[str, Any]) -> bool:
    """Time a placement from the previous move or undo, and flag a pace no human keeps
    (fairplay.too_fast). A Finish adds no interval (the engine played those cards) but
    its win is judged like any other. Adds to ``fields``; True when flagged just now."""
    placing = action == "move" and fairplay.is_placement(game.log)
    if not placing and action != "finish":
        return False
    attempt = (Attempt.objects.filter(game_id=game.id)
               .values("last_move_at", "intervals", "flags", "review").first())
    if attempt is None or attempt["last_move_at"] is None:
        return False
    intervals = fairplay.parse_intervals(attempt["intervals"])
    if placing:
        intervals.append(elapsed_ms(attempt["last_move_at"], at))
        fields["intervals"] = " ".join(map(str, intervals))
    flags = attempt["flags"]
    if fairplay.PACE in flags.split() or attempt["review"] == Review.CLEARED or not \
            fairplay.too_fast(intervals, won=game.status == Status.WON, time_ms=time_ms):
        return False
    fields["flags"] = fairplay.add_flag(flags, fairplay.PACE)
    if attempt["review"] == Review.NONE:
        fields["review"] = Review.PENDING
        return True
    return False


def elapsed_ms(started: datetime | None, at: datetime) -> int:
    return 0 if started is None else max(0, round((at - started).total_seconds() * 1000))


def count_win(game: Game, time_ms: int) -> None:
    """A ranked daily won (once: a won ranked game cannot be undone)."""
    stats = PlayerStats.objects.select_for_update().get(
        user_id=game.owner_id, variant=game.variant
    )
    stats.wins += 1
    stats.win_rate = stats.wins / max(stats.games, 1)
    stats.best_time_ms = min(time_ms, stats.best_time_ms or time_ms)
    stats.fewest_moves = min(game.moves, stats.fewest_moves or game.moves)
    won_on(stats, game.daily_date)
    stats.save()


def won_on(stats: PlayerStats, day: date | None) -> None:
    """The won streak: one more when the day before was won, else it starts again.

    It goes by the daily's own day, not the clock at the winning move (a ranked game
    takes no move once its day has closed: game.closes_at), and a result under
    fair-play review counts, as it does in the player's own figures.
    """
    if day is None or (stats.last_won is not None and day <= stats.last_won):
        return  # not a daily, or an older day than the streak has reached
    follows = stats.last_won == day - timedelta(days=1)
    stats.current_streak = stats.current_streak + 1 if follows else 1
    stats.best_streak = max(stats.best_streak, stats.current_streak)
    stats.last_won = day


def count_loss(game: Game) -> None:
    """A ranked daily lost: it ends the won streak (boards.won_streak reads last_lost)."""
    day = game.daily_date
    if day is None:
        return
    PlayerStats.objects.filter(user_id=game.owner_id, variant=game.variant).exclude(
        last_lost__gte=day).update(last_lost=day)
