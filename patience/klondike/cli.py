"""The engine's command line: print a deal, or play moves and show the table.

``python -m patience.klondike deal N [--json]`` prints deal N: the stock top
first and each column bottom first (face-down cards in ``<>`` as text, the
face-up card last), the same for both variants. ``... play --deal N
--variant turn-3 --moves "D w-t3" [--json]`` plays a line and prints the
visible table and its status. Exit codes: 0 done, 1 an illegal move, 2 bad
input (argparse uses 2 for bad arguments too).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ..cards import card_text
from ..errors import EngineError
from .deals import Deal, deal_from_number
from .moves import parse_moves
from .position import Position
from .variants import DEFAULT_VARIANT, VARIANTS, get_variant
from .views import KlondikeView, visible_view


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m patience.klondike", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    deal = commands.add_parser("deal", help="print a deal: the stock top first, the columns")
    deal.add_argument("number", help="deal number, 1 to 999999")
    deal.add_argument("--variant", default=DEFAULT_VARIANT.slug, choices=sorted(VARIANTS),
                      help="accepted for symmetry: both variants deal the same cards")
    deal.add_argument("--json", action="store_true")
    play = commands.add_parser("play", help="apply moves and print the visible table")
    play.add_argument("--deal", required=True, help="deal number, 1 to 999999")
    play.add_argument("--variant", default=DEFAULT_VARIANT.slug, choices=sorted(VARIANTS))
    play.add_argument("--moves", default="", help='moves in notation, e.g. "D w-t3 t2-f1"')
    play.add_argument("--json", action="store_true")
    return parser


def tableau(deal: Deal) -> list[list[str]]:
    return [[card_text(card) for card in column] for column in deal.columns()]


def render_deal(deal: Deal) -> str:
    """The deal as pysol_cards prints it: the talon top first, face-down cards in <>."""
    lines = ["Talon: " + " ".join(card_text(card) for card in deal.stock)]
    for column in tableau(deal):
        lines.append(" ".join([f"<{text}>" for text in column[:-1]] + column[-1:]))
    return "\n".join(lines)


def run_deal(args: argparse.Namespace) -> int:
    deal = deal_from_number(args.number)
    if args.json:
        print(json.dumps({"deal": deal.number, "stock": [card_text(c) for c in deal.stock],
                          "tableau": tableau(deal)}))
    else:
        print(render_deal(deal))
    return 0


def run_play(args: argparse.Namespace) -> int:
    position = Position(deal_from_number(args.deal), get_variant(args.variant))
    for number, move in enumerate(parse_moves(args.moves), start=1):
        try:
            position.apply(move)
        except EngineError as error:
            print(f"move {number} ({move}) is illegal: {error}", file=sys.stderr)
            return 1
    view = visible_view(position)
    print(json.dumps(view) if args.json else render_text(view))
    return 0


def render_text(view: KlondikeView) -> str:
    piles = view["piles"]
    waste = piles["waste"]["up"]
    foundations = " ".join(
        f"{name}:{piles[name]['up'][-1] if piles[name]['up'] else '--'}"
        for name in ("f1", "f2", "f3", "f4")
    )
    columns = [
        f"t{i}  " + " ".join(["##"] * piles[f"t{i}"]["down"] + piles[f"t{i}"]["up"])
        for i in range(1, 8)
    ]
    return "\n".join([
        f"variant      {view['variant']}  (turn {view['draw']}, {view['redeals']} redeals)",
        f"stock        {view['stock_count']} cards",
        f"waste        {' '.join(waste[-view['draw']:]) or '--'}  ({len(waste)} cards)",
        f"foundations  {foundations}",
        *columns,
        f"home         {view['home']} of 52 after {view['moves']} moves, score {view['score']}",
        f"legal        {' '.join(view['legal']) or '(none)'}",
        f"status       {view['status']}",
    ])


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run_deal(args) if args.command == "deal" else run_play(args)
    except EngineError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
