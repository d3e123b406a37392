"""A game: its deal (kept on the server), owner, move log, status and counters.

Only game.actions writes these rows. The move log is the resolved notation
of the current line ("D C@n F@tomb"); replaying it on the stored deal
rebuilds the exact position, which is cheaper than storing positions.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from .engine import VARIANTS, Deal, Position, get_variant, parse_card, parse_moves


class Status(models.TextChoices):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


VARIANT_CHOICES = [(slug, variant.name) for slug, variant in VARIANTS.items()]


class Game(models.Model):
    # UUIDs so that nobody can walk through other players' games by number.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)
    deal = models.PositiveIntegerField(null=True, blank=True, help_text="public deal number")
    seeded = models.BooleanField(default=False, help_text="a private (daily) deal, no number")
    # The stock order, top first: secret, it never leaves the server.
    cards = models.CharField(max_length=160)
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
    moves = models.PositiveIntegerField(default=0, help_text="moves played, undone ones too")
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

    class Meta:
        indexes = [
            models.Index(fields=["owner", "variant", "status", "-updated_at"]),
            models.Index(fields=["anon_token", "variant", "status", "-updated_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.variant} deal {self.deal or 'seeded'} ({self.status})"

    @property
    def group_name(self) -> str:
        """The Channels group of every open board of this game."""
        return group_name(self.id)

    def position(self) -> Position:
        """The exact position: the stored deal with the move log replayed."""
        deal = Deal(
            cards=tuple(parse_card(text) for text in self.cards.split()),
            number=self.deal,
            seeded=self.seeded,
        )
        return Position.replay(deal, get_variant(self.variant), parse_moves(self.log))


def group_name(game_id: uuid.UUID | str) -> str:
    return f"game.{uuid.UUID(str(game_id)).hex}"
