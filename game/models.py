"""A game: its deal (kept on the server), owner, move log, status and counters.

Only game.actions writes these rows. A game is of any registered game and
variant (``patience``): the variant's slug names its game too. The move log is
the resolved notation of the current line ("D C@n F@tomb"); replaying it on the
stored deal rebuilds the exact position, which is cheaper than storing
positions (game.positions keeps the latest ones in memory between moves).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models

from patience import Rules, all_variants, rules_of


class Status(models.TextChoices):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


# Every registered variant, for forms and the admin. The model fields themselves
# take no choices: a game registered later needs no migration (the actions check
# a variant against the registry).
VARIANT_CHOICES = [(variant.slug, variant.name) for _, variant in all_variants()]


class Game(models.Model):
    # UUIDs so that nobody can walk through other players' games by number.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    variant = models.CharField(max_length=32, help_text="a registered variant's slug")
    deal = models.PositiveIntegerField(null=True, blank=True, help_text="public deal number")
    seeded = models.BooleanField(default=False, help_text="a private (daily) deal, no number")
    # The deal's cards in the game's order (the Tomb: the stock, top first; St. Helena:
    # 104 cards): secret, it never leaves the server.
    cards = models.TextField()
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="games",
    )
    # An anonymous player's random token, kept in their session. Not the
    # session key itself: Django changes that key at log-in, and the game
    # must follow the player through it.
    anon_token = models.CharField(max_length=64, blank=True, default="", db_index=True)
    log = models.TextField(blank=True, default="")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    home = models.PositiveSmallIntegerField(default=0, help_text="cards on the foundations")
    score = models.PositiveIntegerField(null=True, blank=True,
                                        help_text="the game's points (None: it keeps none)")
    moves = models.PositiveIntegerField(default=0, help_text="moves on the line, undone ones "
                                        "not counted (undos counts those)")
    undos = models.PositiveIntegerField(default=0)
    hints = models.PositiveIntegerField(default=0)
    # Bumped by every write; live clients order and de-duplicate states by it.
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The first move, by the server's clock: a game's time runs from here.
    started_at = models.DateTimeField(null=True, blank=True)
    # A ranked attempt (the leaderboards app's daily): a stock turn cannot be
    # undone, else a player could turn through the stock, undo to the start
    # and play with the order known.
    ranked = models.BooleanField(default=False)
    # No move, undo or hint after this time: a ranked daily closes with its
    # day, when the archive starts showing its order.
    closes_at = models.DateTimeField(null=True, blank=True)
    # The day whose daily this deal is (a ranked attempt or an archive replay): its title.
    daily_date = models.DateField(null=True, blank=True)
    # Dealt by the "winnable deals only" option: a deal the solver proved won.
    # Its free-play records are kept apart from those of deals off the pack.
    winnable = models.BooleanField(default=False)
    # A game of a race (the races app): the ranked undo rule, no hints, no move before
    # started_at (the race's start, set when it is made: the countdown) and none after
    # closes_at (the race's end). Never ranked: the daily's figures do not count it.
    race = models.BooleanField(default=False)
    # How this free-play game was counted in FreePlayStats: "" not yet, else
    # "won", "lost" (its first end) or "abandoned" (a new deal of the same
    # variant left it unfinished). Set once: a game is never counted twice,
    # whatever undo does after its end.
    tally = models.CharField(max_length=10, blank=True, default="")
    # The records its win set, space-separated ("time moves"), for the win overlay.
    new_best = models.CharField(max_length=16, blank=True, default="")
    # What its win earned beyond the win (the game's achievements, e.g. "grand-tomb"),
    # space-separated; set when the game is won.
    achievements = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["owner", "variant", "status", "-updated_at"]),
            models.Index(fields=["anon_token", "variant", "status", "-updated_at"]),
        ]

    @property
    def free_play(self) -> bool:
        """Neither a daily, a ranked attempt nor a race: the games FreePlayStats counts."""
        return not self.seeded and not self.ranked and not self.race

    @property
    def deal_kind(self) -> str:
        if self.race:
            return "race"
        if self.seeded:
            return "daily"
        return "winnable" if self.winnable else "number"

    def __str__(self) -> str:
        return f"{self.variant} deal {self.deal or 'seeded'} ({self.status})"

    @property
    def group_name(self) -> str:
        """The Channels group of every open board of this game."""
        return group_name(self.id)

    @property
    def rules(self) -> Rules:
        """The game this is a game of, found by its variant's slug."""
        return rules_of(self.variant)

    def position(self) -> Any:
        """The exact position: the stored deal with the move log replayed."""
        rules = self.rules
        deal = rules.deal_from_texts(self.cards.split(), self.deal, self.seeded)
        variant = rules.variants[self.variant]
        return rules.replay(deal, variant, rules.parse_moves(self.log))


def group_name(game_id: uuid.UUID | str) -> str:
    return f"game.{uuid.UUID(str(game_id)).hex}"


class FreePlayStats(models.Model):
    """A player's free-play figures for one variant; written only by game.actions.

    A player is a user or, for a visitor, the anon token their games carry; a
    visitor's row follows their games into their account at sign-up or log-in.
    Records (fastest win, fewest moves, best score) are kept twice: for games dealt by the
    "winnable deals only" option and for deals off the pack (by number or at random).
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="free_play_stats",
    )
    anon_token = models.CharField(max_length=64, blank=True, default="", db_index=True)
    variant = models.CharField(max_length=32, help_text="a registered variant's slug")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0, help_text="wins in a row, up to now")
    best_streak = models.PositiveIntegerField(default=0)
    fastest_ms = models.PositiveIntegerField(null=True, blank=True)
    fewest_moves = models.PositiveIntegerField(null=True, blank=True)
    winnable_fastest_ms = models.PositiveIntegerField(null=True, blank=True)
    winnable_fewest_moves = models.PositiveIntegerField(null=True, blank=True)
    # Best scores of won games, for a game that scores (Klondike); None for the others.
    best_score = models.PositiveIntegerField(null=True, blank=True)
    winnable_best_score = models.PositiveIntegerField(null=True, blank=True)
    # The last counted game's time: merging a visitor's row into an account's
    # keeps the current streak of whichever played last.
    last_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "variant"], name="free_play_user",
                                    condition=models.Q(owner__isnull=False)),
            models.UniqueConstraint(fields=["anon_token", "variant"], name="free_play_visitor",
                                    condition=models.Q(owner__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"{self.owner_id or 'visitor'} {self.variant}: {self.wins}/{self.games}"

    def best_score_of(self, winnable: bool) -> int | None:
        return self.winnable_best_score if winnable else self.best_score

    def records(self, winnable: bool) -> tuple[int | None, int | None]:
        """(fastest win in ms, fewest moves) of one kind of deal."""
        if winnable:
            return self.winnable_fastest_ms, self.winnable_fewest_moves
        return self.fastest_ms, self.fewest_moves
