"""The one writer of ``PlayerStats``: a player's ranked-daily figures per variant.

Written inside the writes that change them (a ranked start, a game's end), under
the row's lock, so the all-time boards read one indexed row per player.
"""

from __future__ import annotations

from datetime import date, timedelta

from game.models import Game

from ..models import Daily, PlayerStats


def count_start(user_id: int, daily: Daily) -> None:
    """A ranked daily played: a game in the statistics, and the days-played-in-a-row
    streak goes on or restarts (the won streak moves when the game ends)."""
    stats, _ = PlayerStats.objects.select_for_update().get_or_create(
        user_id=user_id, variant=daily.variant
    )
    if stats.last_played != daily.date:
        follows = stats.last_played is not None and (daily.date - stats.last_played).days == 1
        stats.played_streak = stats.played_streak + 1 if follows else 1
        stats.best_played_streak = max(stats.best_played_streak, stats.played_streak)
        stats.last_played = daily.date
    stats.games += 1
    stats.win_rate = stats.wins / stats.games
    stats.save()


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
