"""The board draws and plays a table it has never seen, from data alone: a St. Helena
table (twelve piles round two rows of foundations, RULES-CROSS-AND-ST-HELENA.md
section 2) served in place of the site's game. The page's requests for the game and
its socket are answered here, so the test checks only the board: where it puts the
piles, what it says, and which notation each gesture sends."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from patience.protocol import Phrases, Pile, Table

from .board_driver import arrow_to, focused_slot, places, ready, slot, wait_announced
from .conftest import OUTPUT

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SUITS = ["spades", "hearts", "clubs", "diamonds"]


def st_helena_table() -> dict[str, Any]:
    """The table as St. Helena describes it (its piles fanned down below the Aces, to
    try that fan too): no name below is known to the board."""
    clockwise = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 5), (2, 5),
                 (3, 4), (3, 3), (3, 2), (3, 1), (2, 0), (1, 0)]
    def phrases(label: str) -> Phrases:  # the forms a sentence names a pile by
        return Phrases(f"from the {label}", f"to the {label}", the=f"the {label}")

    piles = [Pile(f"p{i}", "pile", "pile %(number)s", row, col, "dealt cards",
                  fan="down" if row == 3 else "top", number=i,
                  phrases=Phrases("from pile %(number)s", "to pile %(number)s"))
             for i, (row, col) in enumerate(clockwise, start=1)]
    piles += [Pile(f"k{i}", "foundation", f"King of {SUITS[i - 1]}", 1, i,
                   "down from the King to the ace", base="K",
                   phrases=phrases(f"King of {SUITS[i - 1]}")) for i in range(1, 5)]
    piles += [Pile(f"a{i}", "foundation", f"Ace of {SUITS[i - 1]}", 2, i,
                   "up to the King", base="A", phrases=phrases(f"Ace of {SUITS[i - 1]}"))
              for i in range(1, 5)]
    piles.append(Pile("stock", "stock", "stock", 0, 5, "nothing: D deals it",
                      phrases=phrases("stock")))
    return Table(rows=4, cols=6, piles=tuple(piles), card_count=104).as_data()


FIRST_PILES: dict[str, list[str]] = {
    "p1": ["9S", "QS"], "p2": ["4D"], "p3": ["JH", "2C", "7C"], "p4": ["8H"],
    "p5": ["QH"], "p6": ["3S"], "p7": ["TD", "5C"], "p8": ["KC"], "p9": ["6H"],
    "p10": ["2D", "9D", "4S", "AH", "7S"], "p11": ["JC"], "p12": ["5H"],
    "k1": ["KS"], "k2": ["KH"], "k3": ["KC"], "k4": ["KD"],
    "a1": ["AS"], "a2": ["AH"], "a3": ["AC"], "a4": ["AD"],
}
FIRST_PATHS = {"D": ["stock", "p1", 12], "P@p1@k1": ["p1", "k1", 1], "P@p5@k2": ["p5", "k2", 1],
               "P@p10@k1": ["p10", "k1", 1]}


def state(piles: dict[str, list[str]], paths: dict[str, list[Any]], moves: int,
          log: list[str], stock: int = 72) -> dict[str, Any]:
    """A view in the contract's shapes (docs/view-contract.md): every pile {down, up},
    the stock a count; each path {from, to, count}; what may be picked up."""
    views = {name: {"down": 0, "up": list(cards)} for name, cards in piles.items()}
    views["stock"] = {"down": stock, "up": []}
    pickable: dict[str, list[int]] = {}
    for source, _, count in paths.values():
        pickable.setdefault(source, []).append(count)
    return {"game": "st-helena", "variant": "st-helena", "piles": views, "stock_count": stock,
            "home": sum(len(cards) for name, cards in piles.items() if name[0] in "ka"),
            "moves": moves, "log": log, "legal": list(paths),
            "paths": {move: {"from": a, "to": b, "count": n} for move, (a, b, n) in paths.items()},
            "pickable": {name: sorted(set(counts)) for name, counts in pickable.items()},
            "can_undo": moves > 0, "status": "playing"}


def payload(version: int, the_state: dict[str, Any]) -> dict[str, Any]:
    return {"id": "00000000-0000-4000-8000-000000000001", "game": {"slug": "st-helena",
            "name": "St. Helena"}, "variant": {"slug": "st-helena", "name": "St. Helena"},
            "deal": 7, "seeded": False, "deal_kind": "random", "ranked": False,
            "version": version, "status": "playing", "home": the_state["home"],
            "moves": the_state["moves"], "undos": 0, "hints": 0, "created": None,
            "updated": None, "finished": None, "started": None, "closes": None,
            "daily_date": None, "can_finish": False, "free_play": None,
            "table": st_helena_table(), "state": the_state}


FIRST = payload(1, state(FIRST_PILES, FIRST_PATHS, 3, ["D", "D", "D"]))


DEALT = ["2H", "3H", "4H", "5S", "6S", "7S", "8C", "9C", "TC", "JD", "QD", "KD"]


def after(move: str) -> dict[str, Any]:
    """The game after one move of FIRST's (only what the test plays)."""
    piles = {name: list(cards) for name, cards in FIRST_PILES.items()}
    source, target, _ = FIRST_PATHS[move]
    if source == "stock":  # D deals a card on every pile
        for i, card in enumerate(DEALT, start=1):
            piles[f"p{i}"].append(card)
    else:
        piles[target].append(piles[source].pop())
    stock = FIRST["state"]["stock_count"] - (12 if source == "stock" else 0)
    return payload(2, state(piles, {"D": ["stock", "p1", 12]}, 4, ["D", "D", "D", move], stock))


# Every card slide the board starts, by the pile the card lands on (an animation's id
# is set once animate() has returned, hence the microtask).
RECORD_SLIDES = """(() => {
  window.slid = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const animation = animate.apply(this, args);
    queueMicrotask(() => {
      const slot = this.closest && this.closest('[data-slot]');
      if (animation.id === 'tomb-slide') window.slid.push(slot ? slot.dataset.slot : 'flight');
    });
    return animation;
  };
})();"""


class FakeServer:
    """Answers the page's game requests and its socket with FIRST, then each move."""

    def __init__(self, page: Any) -> None:
        self.sent: list[dict[str, Any]] = []
        page.add_init_script(RECORD_SLIDES)
        page.route("**/api/games/", self.games)
        page.route("**/api/stats/", lambda route: route.fulfill(json={"wins": {}}))
        page.route_web_socket("**/ws/**", self.socket)

    def games(self, route: Any) -> None:
        route.fulfill(json=FIRST, status=201 if route.request.method == "POST" else 200)

    def socket(self, ws: Any) -> None:
        ws.send(json.dumps({"type": "state", "version": 1, "game": FIRST}))

        def answer(message: str | bytes) -> None:
            action = json.loads(message)
            self.sent.append(action)
            if action.get("type") == "move" and action["move"] in FIRST_PATHS:
                ws.send(json.dumps({"type": "state", "version": 2, "seq": action["seq"],
                                    "game": after(action["move"])}))

        ws.on_message(answer)

    def moves(self) -> list[str]:
        return [action["move"] for action in self.sent if action.get("type") == "move"]


@pytest.fixture(params=["laptop", "phone"])
def device(request: Any, chromium: Any, site: Any) -> Iterator[tuple[str, Any, list[str]]]:
    phone = request.param == "phone"
    context = chromium.new_context(base_url=site.base_url, viewport=PHONE if phone else LAPTOP,
                                   has_touch=phone, is_mobile=phone)
    context.set_default_timeout(15_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda message: message.type == "error" and errors.append(message.text))
    yield request.param, tab, errors
    context.close()


def box(tab: Any, name: str) -> dict[str, float]:
    found = tab.locator(slot(name)).bounding_box()
    assert found is not None, name
    return dict(found)


def centre(tab: Any, name: str) -> tuple[float, float]:
    b = box(tab, name)
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def test_an_unknown_table_is_drawn_from_its_grid(device: Any) -> None:
    name, tab, errors = device
    FakeServer(tab)
    tab.goto("/")
    ready(tab)
    table = st_helena_table()
    assert tab.locator("#table [data-slot]").count() == len(table["piles"])
    # Every pile where its grid place says, and all of them on the screen.
    for pile in table["piles"]:
        b = box(tab, pile["name"])
        assert b["x"] >= 0 and b["x"] + b["width"] <= tab.viewport_size["width"] + 0.5, pile
        assert b["y"] + b["height"] <= tab.viewport_size["height"] + 0.5, pile
    assert places(tab)["k1"] == (1, 1) and places(tab)["p7"] == (3, 4)
    xs = [centre(tab, f"k{i}")[0] for i in range(1, 5)]
    assert xs == sorted(xs) and centre(tab, "k1")[1] < centre(tab, "a1")[1]  # kings above aces
    assert centre(tab, "p12")[0] < centre(tab, "k1")[0] < centre(tab, "p5")[0]
    assert centre(tab, "p1")[1] < centre(tab, "k1")[1] < centre(tab, "p10")[1]
    assert abs(centre(tab, "p1")[0] - centre(tab, "k1")[0]) < 2  # same column
    # Piles fanned down show all their cards; a foundation its top card; words from the labels.
    assert tab.locator(slot("p10") + " .card[data-card]").count() == 5
    assert tab.locator(slot("p3") + " .card[data-card]").count() == 1  # fanned "top"
    assert tab.locator(slot("k2") + " .card[data-card]").count() == 1
    assert tab.get_attribute(slot("p10"), "aria-label") == "pile 10: 7 of spades on top, 5 cards"
    assert tab.get_attribute(slot("k2"), "aria-label") == "King of hearts: King of hearts"
    assert tab.inner_text("#home") == "8 of 104"
    assert tab.is_hidden("#tomb-counter")  # the Tomb's countdown is not this game's
    tab.evaluate("document.querySelector('#welcome-ok').click()")  # the piles' names go
    tab.wait_for_timeout(300)
    tab.screenshot(path=str(OUTPUT / f"board-any-table-{name}.png"))
    card = tab.locator(slot("p5") + " .card").bounding_box()
    # The row fanned down keeps 3.6 card heights for its columns (table.js).
    assert card["width"] >= (55 if name == "laptop" else 40)
    assert not errors, errors


def test_an_unknown_table_plays_by_its_paths(device: Any) -> None:
    name, tab, errors = device
    server = FakeServer(tab)
    tab.goto("/")
    ready(tab)
    tab.wait_for_function("document.body.dataset.link === 'live'")
    if name == "phone":  # tap the card, then where it goes
        tab.tap(slot("p5") + " .card.top")
        assert "selected" in tab.get_attribute(slot("p5"), "aria-label")
        assert "target" in tab.get_attribute(slot("k2"), "class")  # where it may go, lit
        tab.screenshot(path=str(OUTPUT / "board-any-table-picked-phone.png"))
        tab.tap(slot("p4"))  # it does not go there, and p4 cannot be picked up: refused
        wait_announced(tab, "That card does not go on pile 4.")
        tab.tap(slot("p5") + " .card.top")
        tab.tap(slot("k2"))
    else:  # drag it
        tab.wait_for_function("document.getAnimations().every(a => a.id !== 'tomb-slide')")
        x, y = centre(tab, "p5")
        tab.mouse.move(x, y)
        tab.mouse.down()
        tx, ty = centre(tab, "k2")
        tab.mouse.move(tx, ty, steps=8)
        assert "over" in tab.get_attribute(slot("k2"), "class")
        tab.mouse.up()
    tab.wait_for_function("document.querySelector('#moves').textContent === '4'")
    assert server.moves() == ["P@p5@k2"]
    wait_announced(tab, "Queen of hearts went from pile 5 to the King of hearts.")
    assert "k2" in tab.evaluate("window.slid")  # the card flew to the foundation
    assert tab.get_attribute(slot("k2"), "aria-label") == "King of hearts: Queen of hearts"
    assert not errors, errors


def test_an_unknown_table_by_keyboard(device: Any) -> None:
    name, tab, errors = device
    if name == "phone":
        pytest.skip("keys are for the laptop")
    server = FakeServer(tab)
    tab.goto("/")
    ready(tab)
    tab.wait_for_function("document.body.dataset.link === 'live'")
    tab.focus(slot("stock"))
    tab.keyboard.press("ArrowLeft")
    assert focused_slot(tab) == "p4"
    arrow_to(tab, "p1")
    tab.keyboard.press("ArrowDown")
    assert focused_slot(tab) == "k1"
    tab.keyboard.press("ArrowDown")
    tab.keyboard.press("ArrowDown")
    assert focused_slot(tab) == "p10"
    tab.keyboard.press("Enter")  # picks the 7 of spades up
    assert "selected" in tab.get_attribute(slot("p10"), "aria-label")
    wait_announced(tab, "7 of spades from pile 10 picked up")
    tab.keyboard.press("Escape")
    assert "selected" not in tab.get_attribute(slot("p10"), "aria-label")
    arrow_to(tab, "p1")
    tab.keyboard.press("Enter")
    arrow_to(tab, "k1")
    tab.keyboard.press("Enter")  # and puts it on the spades King
    tab.wait_for_function("document.querySelector('#moves').textContent === '4'")
    assert server.moves() == ["P@p1@k1"]
    wait_announced(tab, "Queen of spades went from pile 1 to the King of spades.")
    assert not errors, errors


def test_a_deal_from_the_stock_is_said_and_flies_from_it(device: Any) -> None:
    name, tab, errors = device
    server = FakeServer(tab)
    tab.goto("/")
    ready(tab)
    tab.wait_for_function("document.body.dataset.link === 'live'")
    if name == "phone":
        tab.tap(slot("stock"))
    else:
        tab.keyboard.press("d")
    tab.wait_for_function("document.querySelector('#moves').textContent === '4'")
    assert server.moves() == ["D"]
    wait_announced(tab, "12 cards dealt from the stock.")
    assert tab.inner_text(slot("stock") + " .count") == "60"
    sliding = tab.evaluate("window.slid")  # each dealt card flew from the stock to its pile
    assert {f"p{i}" for i in range(1, 13)} <= set(sliding), sliding
    assert not errors, errors
