"""Shapes of the API for the OpenAPI schema.

Input is checked by actions.check_* (with the engine's readable messages);
these serializers describe requests and responses for drf-spectacular.
"""

from __future__ import annotations

from rest_framework import serializers

from .engine import MAX_DEAL, MIN_DEAL, VARIANTS


class NewGameSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=list(VARIANTS), default="three-card")
    deal = serializers.IntegerField(
        min_value=MIN_DEAL, max_value=MAX_DEAL, required=False, allow_null=True,
        help_text="public deal number; leave out for a random deal",
    )


class MoveSerializer(serializers.Serializer):
    move = serializers.CharField(help_text="RULES.md notation: D R F F@nw.. C C@n..")


class GameSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    variant = serializers.ChoiceField(choices=list(VARIANTS))
    deal = serializers.IntegerField(allow_null=True)
    seeded = serializers.BooleanField()
    ranked = serializers.BooleanField(
        help_text="a ranked daily attempt: a stock turn (D, R) cannot be undone"
    )
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["playing", "won", "lost"])
    home = serializers.IntegerField(help_text="cards on the foundations")
    moves = serializers.IntegerField(help_text="moves played, undone ones included")
    undos = serializers.IntegerField()
    hints = serializers.IntegerField()
    created = serializers.DateTimeField()
    updated = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)


class GameSerializer(GameSummarySerializer):
    state = serializers.JSONField(help_text="the visible view: never the stock's order")


class HintSerializer(serializers.Serializer):
    move = serializers.CharField(allow_null=True)
    verdict = serializers.ChoiceField(choices=["winnable", "lost", "unknown"])
    line_length = serializers.IntegerField(allow_null=True)


class HintedGameSerializer(GameSerializer):
    hint = HintSerializer()


class StatsSerializer(serializers.Serializer):
    wins = serializers.DictField(child=serializers.IntegerField())


class ErrorSerializer(serializers.Serializer):
    error = serializers.CharField()


class CsrfSerializer(serializers.Serializer):
    csrf_token = serializers.CharField()
