"""Driving the board like a player: pointer (clicks, taps, drags, double-clicks) and
keyboard (arrows over the piles, Enter, letter keys), waiting for the server's answer."""

from __future__ import annotations

from typing import Any

from patience.tomb import IllegalMove, Position, parse_move


def slot(name: str) -> str:
    return f'#table [data-slot="{name}"]'


def ready(page: Any) -> None:
    page.wait_for_selector("body[data-ready='1']")


def wait_announced(page: Any, words: str) -> None:
    """The live region says ``words`` (it is filled a frame after the table is drawn)."""
    page.wait_for_function(
        "words => document.querySelector('#announcer').textContent.includes(words)", arg=words)


def open_menu(page: Any) -> None:
    """The deal number, sizes and looks sit in the bar's menu: open it."""
    if not page.evaluate("document.querySelector('#menu').open"):
        page.click("#menu summary")


def close_menu(page: Any) -> None:
    page.evaluate("document.querySelector('#menu').open = false")


def open_deal(page: Any, deal: int) -> None:
    page.goto("/")
    ready(page)
    open_menu(page)
    page.fill("#deal", str(deal))
    page.click("#open-deal button")
    page.wait_for_function(
        "deal => document.querySelector('#title').textContent.endsWith('deal ' + deal)", arg=deal)
    wait_moves(page, 0)
    close_menu(page)


def still(page: Any) -> None:
    """No card is sliding (a drag must start on the card where it has landed)."""
    page.wait_for_function("document.getAnimations().every(a => a.id !== 'tomb-slide')")


def wait_moves(page: Any, count: int) -> None:
    """Until the board shows ``count`` moves; if it never does, the failure says what the
    board showed instead (its moves, message, live region and link), so a flaky run on
    CI can be read without the browser."""
    try:
        page.wait_for_function(
            "count => document.querySelector('#moves').textContent === String(count)", arg=count)
    except Exception as error:
        raise AssertionError(f"the board never showed {count} moves: {board_said(page)}") from error


def board_said(page: Any) -> dict[str, Any]:
    said: dict[str, Any] = page.evaluate("""() => ({
        moves: document.querySelector('#moves')?.textContent,
        message: document.querySelector('#message')?.textContent,
        announced: document.querySelector('#announcer')?.textContent,
        link: document.body.dataset.link,
        selected: [...document.querySelectorAll('#table [data-slot].selected')]
          .map((slot) => slot.dataset.slot),
    })""")
    return said


def place_of(move: str) -> str:
    if move in ("D", "R"):
        return "stock"
    return move.split("@")[1]


def focused_slot(page: Any) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.dataset.slot || null")


def places(page: Any) -> dict[str, tuple[int, int]]:
    """Each pile's (row, col) on the layout the board drew (the game's grid, or the
    same with stock and waste below on a narrow screen)."""
    found = page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#table [data-slot]')].map((slot) =>
            [slot.dataset.slot, [Number(slot.dataset.row), Number(slot.dataset.col)]]))""")
    return {name: (row, col) for name, (row, col) in found.items()}


def aimed(page: Any) -> str | None:
    """The card the up and down arrows aim a run at (a pile with runs to lift), if any."""
    card: str | None = page.evaluate(
        "document.querySelector('#table .card.aim')?.dataset.card || null")
    return card


def arrow_to(page: Any, target: str) -> None:
    """Move the board's focus with arrow keys only, from wherever it is: rows first,
    then columns, as a player reading the grid would; back on a pile already left, columns
    first (the nearest pile up or down may skip a sparse row: the two-deck Tomb's wall
    between its corners). On a pile with runs to lift, up and down first go through the
    runs (the aim moves) before they leave it."""
    grid = places(page)
    left: set[str] = set()
    for _ in range(40):
        current = focused_slot(page)
        assert current is not None, "the focus is not on the table"
        if current == target:
            return
        (row, col), (goal_row, goal_col) = grid[current], grid[target]
        columns_first = current in left and goal_col != col and aimed(page) is None
        left.add(current)
        if goal_row != row and not columns_first:
            key = "ArrowDown" if goal_row > row else "ArrowUp"
        else:
            key = "ArrowRight" if goal_col > col else "ArrowLeft"
        aim = aimed(page)
        page.keyboard.press(key)
        moved = focused_slot(page) != current or aimed(page) != aim
        assert moved, f"{key} leads nowhere from {current}"
    assert focused_slot(page) == target


def aim_run(page: Any, pile: str, count: int) -> None:
    """On the focused pile, the up arrow once for each shorter lift the game allows
    there (its `pickable`), so that Enter picks up ``count`` cards."""
    counts = page.evaluate("""async (pile) => {
        const id = new URLSearchParams(location.search).get('game');
        const game = await (await fetch(`/api/games/${id}/`)).json();
        return game.state.pickable[pile] || [];
    }""", pile)
    assert count in counts, (pile, count, counts)
    for _ in range(counts.index(count)):
        page.keyboard.press("ArrowUp")
        assert focused_slot(page) == pile, f"no run of {count} to lift on {pile}"


def by_keyboard(page: Any, move: str) -> None:
    if move in ("D", "R"):
        page.keyboard.press("d")
        return
    arrow_to(page, place_of(move))
    page.keyboard.press("Enter")


def sends_home(position: Position, move: str) -> bool:
    """Would a plain F (what a double-click sends) play this very move?"""
    trial = position.copy()
    try:
        trial.apply(parse_move("F"))
    except IllegalMove:
        return False
    return trial.moves[-1].notation == move


def drag(page: Any, target: str) -> None:
    still(page)
    card = page.locator("#table .waste .card.top").bounding_box()
    goal = page.locator(slot(target)).bounding_box()
    page.mouse.move(card["x"] + card["width"] / 2, card["y"] + card["height"] / 2)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=6)
    page.mouse.up()


def by_pointer(page: Any, move: str, position: Position, turn: int) -> str:
    """Play a move with the mouse, varying the gesture; returns the gesture used."""
    if move in ("D", "R"):
        page.click(slot("stock"))
        return "click"
    target = place_of(move)
    if sends_home(position, move) and turn % 3 == 0:
        page.dblclick(slot("waste") + " .card.top")
        return "double-click"
    if turn % 2 == 0:
        drag(page, target)
        return "drag"
    page.click(slot("waste") + " .card.top")
    page.click(slot(target))
    return "tap-tap"


# -- any game's table, driven by a move's path (from pile, to pile) -------------------

def is_stock(page: Any, name: str) -> bool:
    """Is the pile the table's stock (its role, as the board drew it)?"""
    return bool(page.evaluate("name => document.querySelector(`#table [data-slot=\"${name}\"]`)"
                              ".classList.contains('stock')", name))


def run_card(page: Any, source: str, count: int = 1) -> str:
    """The face-up card a lift of ``count`` cards from the top of a pile is held by
    (each face-up card's data-at is its place among them, the top one's the last)."""
    if count == 1:
        return slot(source) + " .card.top"
    top = int(page.get_attribute(slot(source) + " .card.top", "data-at"))
    return slot(source) + f' .card[data-at="{top + 1 - count}"]'


def drag_top(page: Any, source: str, target: str, count: int = 1) -> None:
    """Drag the ``count`` top cards of the source pile (the top one: a card; more: a
    run, held by its lowest card's visible strip) onto the target pile."""
    still(page)
    card = page.locator(run_card(page, source, count)).bounding_box()
    goal = page.locator(slot(target)).bounding_box()
    assert card is not None and goal is not None, (source, target, count)
    # A covered card shows its top strip in a column and its left strip in a fan to the
    # right: near its top-left corner is in either.
    x = card["x"] + (card["width"] / 2 if count == 1 else 6)
    y = card["y"] + (card["height"] / 2 if count == 1 else 6)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=6)
    page.mouse.up()


# A move's path as the view gives it (docs/view-contract.md): {"from", "to", "count"}.
Path = dict[str, Any]


def stock_move(page: Any, path: Path) -> bool:
    """Is it the stock's own move: a deal or turn from it, or a redeal (which gathers
    the cards back into it: its path ends there)?"""
    return is_stock(page, path["from"]) or is_stock(page, path["to"])


def path_by_pointer(page: Any, path: Path) -> None:
    """Play the move whose path this is: a click on the stock, else a drag (of a run
    when it moves several cards)."""
    source, target = path["from"], path["to"]
    if stock_move(page, path):
        page.click(slot(source if is_stock(page, source) else target))
    else:
        drag_top(page, source, target, path.get("count", 1))


def path_by_keyboard(page: Any, path: Path) -> None:
    """Play the move whose path this is with keys only: D for the stock, else arrows
    to the source (up to aim at a run), Enter (picks up), arrows to the target, Enter
    (puts down)."""
    source, target = path["from"], path["to"]
    if stock_move(page, path):
        page.keyboard.press("d")
        return
    arrow_to(page, source)
    aim_run(page, source, path.get("count", 1))
    page.keyboard.press("Enter")
    arrow_to(page, target)
    page.keyboard.press("Enter")


def wait_moves_confirming(page: Any, count: int) -> None:
    """Until the board shows ``count`` moves, saying yes if a ranked game asks first
    (its first stock turn cannot be undone)."""
    page.wait_for_function("""count =>
        document.querySelector('#moves').textContent === String(count)
        || document.querySelector('#confirm').open""", arg=count)
    if page.evaluate("document.querySelector('#confirm').open"):
        page.click("#confirm-yes")
        wait_moves(page, count)
