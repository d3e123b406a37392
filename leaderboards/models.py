"""Daily deals, attempts on them, and each player's running figures per variant.

Only this app's ``actions`` package writes these rows, one module per table. A
``variant`` column holds a registered variant's slug (``patience``): slugs are unique
across games, so it names the game too, and a game registered later needs no
migration here. The seed of a daily is secret: it never leaves the server, and a
daily's card order is shown only once its day is over.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from game.models import Game, Status
from patience import rules_of
from solver_worker.rating import BANDS

BAND_CHOICES = [(band, band) for band in BANDS]


class Daily(models.Model):
    date = models.DateField(help_text="its UTC day")
    variant = models.CharField(max_length=16, help_text="a registered variant's slug")
    # Derived with HMAC from settings.DAILY_SECRET, the date, the variant and
    # the candidate's index: secret, never a public deal number.
    seed = models.BigIntegerField()
    candidate = models.PositiveSmallIntegerField(
        help_text="index of the first candidate seed the solver proved winnable"
    )
    line_length = models.PositiveSmallIntegerField(null=True, blank=True)
    # Filled in by a follow-up task (the blind player is slow): 1 - its win rate.
    difficulty = models.FloatField(null=True, blank=True)
    sampling_win_rate = models.FloatField(null=True, blank=True)
    # The graded blind players' win rate (solver_worker.rating, cheap: set when the
    # daily is made) and the band it falls in; the weekday asked for wanted_bands,
    # and a band outside them means no candidate of those bands was found in time.
    rating = models.FloatField(null=True, blank=True,
                               help_text="graded blind players' win rate over rating_games")
    rating_games = models.PositiveSmallIntegerField(null=True, blank=True)
    band = models.CharField(max_length=8, choices=BAND_CHOICES, blank=True, default="")
    wanted_bands = models.CharField(max_length=32, blank=True, default="",
                                    help_text="the weekday's bands, comma-separated")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # What makes the beat job safe to run twice or on two workers at once.
            models.UniqueConstraint(fields=["date", "variant"], name="one_daily_per_day"),
        ]
        ordering = ["-date", "variant"]

    def __str__(self) -> str:
        return f"daily {self.date} {self.variant}"

    def deal(self) -> Any:
        """The deal its game makes from the secret seed (``Rules.deal_from_seed``)."""
        return rules_of(self.variant).deal_from_seed(self.seed)

    @property
    def band_fell_back(self) -> bool:
        """No candidate of the weekday's bands was found: the closest band was taken."""
        return bool(self.band and self.wanted_bands
                    and self.band not in self.wanted_bands.split(","))


class Review(models.TextChoices):
    """A ranked result's fair-play review (leaderboards.fairplay says what is flagged)."""

    NONE = "", "not flagged"
    PENDING = "pending", "awaiting review"
    CLEARED = "cleared", "cleared"
    UNRANKED = "unranked", "player marked unranked"


class Attempt(models.Model):
    """A game on a daily deal: ranked (one per player and day) or not (visitors, archive).

    The figures mirror the game's, written in the game's own transaction by
    ``actions.attempts``; the time is the server's, from the first move to the last
    (``game.clock``).
    A flagged ranked result (``review`` pending) is held off every public board
    until an admin clears it.
    """

    daily = models.ForeignKey(Daily, on_delete=models.CASCADE, related_name="attempts")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="daily_attempts",
    )
    ranked = models.BooleanField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    home = models.PositiveSmallIntegerField(default=0)
    moves = models.PositiveIntegerField(default=0)
    undos = models.PositiveIntegerField(default=0)
    hints = models.PositiveIntegerField(default=0)
    assisted = models.BooleanField(default=False, help_text="a hint was asked for")
    started_at = models.DateTimeField(null=True, blank=True)
    last_move_at = models.DateTimeField(null=True, blank=True)
    time_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # Fair play (ranked attempts only): keyed hashes, never the raw cookie or address;
    # the address hash is blanked after settings.ATTEMPT_ADDRESS_RETENTION_DAYS.
    device_hash = models.CharField(max_length=64, blank=True, default="")
    address_hash = models.CharField(max_length=64, blank=True, default="")
    # The server's milliseconds before each placement (a move that is not a stock
    # turn), space-separated: the pace evidence (fairplay.pace_reasons).
    intervals = models.TextField(blank=True, default="")
    flags = models.CharField(max_length=64, blank=True, default="",
                             help_text="why it was flagged: device, address, pace, "
                                       "first-pass, clairvoyant, scout")
    # The fair-play judge's findings once the game ended (actions.reviews): how far the
    # choices depended on unseen cards (bits), the links to scouts, the pace facts.
    clairvoyance = models.FloatField(null=True, blank=True,
                                     help_text="bits of evidence that unseen cards guided "
                                               "the choices (solver_worker.clairvoyance)")
    evidence = models.JSONField(default=dict, blank=True)
    review = models.CharField(max_length=8, choices=Review.choices, blank=True,
                              default=Review.NONE)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["daily", "user"], condition=Q(ranked=True),
                name="one_ranked_attempt_per_player_and_day",
            ),
        ]
        indexes = [
            # The day's board reads a page straight off this index.
            models.Index(
                fields=["daily", "-home", "assisted", "time_ms", "moves", "id"],
                condition=Q(ranked=True), name="day_board",
            ),
            # A player's calendar.
            models.Index(fields=["user", "daily"], condition=Q(ranked=True), name="my_dailies"),
            # Other accounts on this device or address today (fairplay.shared_reasons).
            models.Index(fields=["daily", "device_hash"], condition=Q(ranked=True),
                         name="day_device"),
            models.Index(fields=["daily", "address_hash"], condition=Q(ranked=True),
                         name="day_address"),
            # The review queue, and the players the all-time boards hold back.
            models.Index(fields=["review", "user"], condition=Q(review="pending"),
                         name="under_review"),
        ]

    def __str__(self) -> str:
        return f"{'ranked' if self.ranked else 'unranked'} attempt on {self.daily}"

    @property
    def finished(self) -> bool:
        return self.status != Status.PLAYING

    @property
    def under_review(self) -> bool:
        return self.review == Review.PENDING


class FlaggedAttempt(Attempt):
    """The admin's fair-play review queue: the same rows, flagged ones only."""

    class Meta:
        proxy = True
        verbose_name = "flagged result (fair-play review)"
        verbose_name_plural = "flagged results (fair-play review)"


class PlayerStats(models.Model):
    """A player's ranked-daily figures in one variant, kept up to date by the writes
    so the all-time boards read one indexed row per player."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_stats"
    )
    variant = models.CharField(max_length=16, help_text="a registered variant's slug")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    win_rate = models.FloatField(default=0.0, help_text="wins / games, kept for the index")
    # The daily streak, as players count it: days WON in a row (a missed or lost day
    # ends it). A result under fair-play review counts, as in the player's own figures;
    # the boards hold the player back until it is decided.
    current_streak = models.PositiveIntegerField(default=0, help_text="days won in a row, "
                                                 "as of last_won")
    best_streak = models.PositiveIntegerField(default=0, help_text="most days won in a row")
    last_won = models.DateField(null=True, blank=True)
    last_lost = models.DateField(null=True, blank=True, help_text="the last daily lost")
    # Days played in a row, shown beside it.
    played_streak = models.PositiveIntegerField(default=0, help_text="as of last_played")
    best_played_streak = models.PositiveIntegerField(default=0)
    last_played = models.DateField(null=True, blank=True)
    best_time_ms = models.PositiveIntegerField(null=True, blank=True)
    fewest_moves = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="one_stats_row_per_variant"),
        ]
        indexes = [
            models.Index(fields=["variant", "-wins", "games", "user"], name="board_wins"),
            models.Index(fields=["variant", "-win_rate", "-games", "user"], name="board_rate"),
            models.Index(fields=["variant", "-best_streak", "user"], name="board_streak"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant}: {self.wins}/{self.games}"


class Standing(models.Model):
    """A player's standing on the boards, set by an admin: an unranked player still plays
    and keeps their own statistics, but appears on no board and not in the live field.

    A row exists only for players an admin has looked at; no row means ranked, so
    the boards exclude with a LEFT JOIN in their one query instead of a second one.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE,
        related_name="standing",
    )
    unranked = models.BooleanField(default=False, help_text="hidden from every board")
    reason = models.CharField(max_length=200, blank=True, default="")
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {'unranked' if self.unranked else 'ranked'}"


class BandCheck(models.Model):
    """Per variant and band: the rating's win rate beside the real players' win rate
    on the dailies of that band (ranked attempts, won / finished). Rewritten whole by
    ``actions.bands.do_compare_bands`` (the admin page asks for it)."""

    variant = models.CharField(max_length=16, help_text="a registered variant's slug")
    band = models.CharField(max_length=8, choices=BAND_CHOICES)
    dailies = models.PositiveIntegerField(default=0)
    rating = models.FloatField(null=True, blank=True, help_text="mean rating of those dailies")
    played = models.PositiveIntegerField(default=0, help_text="finished ranked attempts")
    won = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["variant", "band"], name="one_check_per_band"),
        ]
        ordering = ["variant", "id"]  # written in band order, easy first

    def __str__(self) -> str:
        return f"{self.variant} {self.band}"

    @property
    def players_rate(self) -> float | None:
        return self.won / self.played if self.played else None
