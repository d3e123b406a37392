"""The stock is secret: a checker for every payload a client receives.

It mirrors the game with the engine on the side, tracks which cards have ever
been turned face up, and fails on any payload that names a card the player
has not seen. Used by the unit and the integration layer alike.
"""

from __future__ import annotations

import json
import re
from typing import Any

from patience.tomb import Deal, Position, card_text, deal_from_number, get_variant, parse_move

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][CDHS])(?![A-Za-z0-9])")


class StockWatch:
    def __init__(self, deal: int | Deal, variant: str = "three-card") -> None:
        # A public deal number, or a Deal (a daily's private deal).
        deal = deal if isinstance(deal, Deal) else deal_from_number(deal)
        self.position = Position(deal, get_variant(variant))
        self.seen: set[str] = set()
        self.checked = 0

    def played(self, move: str) -> None:
        self.position.apply(parse_move(move))
        self.seen.update(card_text(card) for card in self.position.waste)

    def undone(self) -> None:
        self.position.undo()

    @property
    def unseen(self) -> set[str]:
        return {card_text(card) for card in self.position.stock} - self.seen

    def check(self, payload: str | bytes | dict[str, Any] | list[Any]) -> None:
        """Fail if the payload names any card still unseen in the stock."""
        text = payload if isinstance(payload, str) else (
            payload.decode() if isinstance(payload, bytes) else json.dumps(payload)
        )
        leaked = set(CARD_TOKEN.findall(text)) & self.unseen
        assert not leaked, f"payload names unseen stock cards {sorted(leaked)}: {text[:200]}"
        self.checked += 1
