"""The engine's command line: print a deal, or play moves and show the table."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ..errors import EngineError
from .deals import deal_from_number
from .moves import parse_moves
from .position import Position
from .variants import DEFAULT_VARIANT, VARIANTS, get_variant
from .views import TombView, visible_view


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m patience.tomb", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    deal = commands.add_parser("deal", help="print a deal's stock order, top first")
    deal.add_argument("number", help="deal number, 1 to 999999")
    deal.add_argument("--json", action="store_true")
    play = commands.add_parser("play", help="apply moves and print the visible table")
    play.add_argument("--deal", required=True, help="deal number, 1 to 999999")
    play.add_argument("--variant", default=DEFAULT_VARIANT.slug, choices=sorted(VARIANTS))
    play.add_argument("--moves", default="", help='moves in RULES.md notation, e.g. "D F C"')
    play.add_argument("--json", action="store_true")
    return parser


def run_deal(args: argparse.Namespace) -> int:
    deal = deal_from_number(args.number)
    if args.json:
        print(json.dumps({"deal": deal.number, "stock": deal.texts}))
    else:
        print(" ".join(deal.texts))
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


def render_text(view: TombView) -> str:
    cells = " ".join(f"{name}:{card or '--'}" for name, card in view["cells"].items())
    piles = " ".join(
        f"{name}:{pile[-1] if pile else '--'}" for name, pile in view["foundations"].items()
    )
    tomb = view["tomb"]
    tomb_text = "complete" if tomb["complete"] else f"wants {tomb['wants']}, round {tomb['round']}"
    return "\n".join([
        f"variant      {view['variant']}  pass {view['pass']} of {view['passes']}",
        f"stock        {view['stock_count']} cards",
        f"waste        {' '.join(view['waste'][-8:]) or '--'}",
        f"cells        {cells}",
        f"foundations  {piles}  (tomb {tomb_text})",
        f"home         {view['home']} of 52 after {view['moves']} moves",
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
