"""The cards as a player sees them: a number card shows as many pips as its rank, in the
standard layout, a court shows its figure, at a phone's card size and a laptop's; the
four-colour deck recolours clubs and diamonds and is remembered on reload; the three
backs are three different pictures."""

from __future__ import annotations

from typing import Any

from .board_driver import close_menu, open_menu, ready, slot
from .conftest import OUTPUT

KLONDIKE = "/klondike/turn-1/?deal=7"
RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}
COURTS = ("J", "Q", "K")
DECK = [rank + suit for suit in "SHDC" for rank in [*RANKS, *COURTS]]

# Every card of a deck drawn by the board's own cardHtml, at one card width, inside the
# play page (so its looks apply) and over the table.
SPREAD = """async ([cards, width]) => {
  const { cardHtml } = await import('/static/tomb/board.js');
  document.querySelector('#spread')?.remove();
  const spread = document.createElement('div');
  spread.id = 'spread';
  spread.style.cssText = `position:fixed;inset:0;z-index:99;display:flex;flex-wrap:wrap;gap:4px;`
    + `align-content:flex-start;background:#1d4a2a;--cw:${width}px`;
  spread.innerHTML = cards.map((card) => cardHtml(card)).join('');
  document.querySelector('#play').append(spread);
}"""

# What each card of the spread shows: its visible pips' centres, its figure's size.
SEEN = """() => [...document.querySelectorAll('#spread .card')].map((card) => {
  const box = card.getBoundingClientRect();
  const shown = (element) => {
    const r = element.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.left >= box.left - 1 && r.right <= box.right + 1
      && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
  };
  const pips = [...card.querySelectorAll('.pips .p')].filter(shown).map((pip) => {
    const r = pip.getBoundingClientRect();
    return [Math.round(r.left + r.width / 2 - box.left),
      Math.round(r.top + r.height / 2 - box.top)];
  });
  const court = card.querySelector('svg.court');
  const figure = court && shown(court) ? court.getBoundingClientRect() : null;
  return { card: card.dataset.card, width: box.width, pips,
    figure: figure && [figure.width, figure.height],
    indices: [...card.querySelectorAll('.ix')].filter(shown).length };
})"""


def spread(page: Any, width: int) -> dict[str, Any]:
    page.evaluate(SPREAD, [DECK, width])
    return {seen["card"]: seen for seen in page.evaluate(SEEN)}


def colour(page: Any, card: str) -> str:
    colour_of: str = page.evaluate(
        "card => getComputedStyle(document.querySelector(`#spread [data-card='${card}'] .pips .p, "
        "#spread [data-card='${card}'] .ix .p`)).backgroundColor", card)
    return colour_of


def test_number_cards_show_their_pips_and_courts_their_figure(page: Any) -> None:
    page.goto(KLONDIKE)
    ready(page)
    for width, indices in ((46, 1), (100, 2)):  # a phone's card (one big index), a laptop's
        cards = spread(page, width)
        for card, seen in cards.items():
            assert seen["indices"] == indices, (width, card, seen)
            if card[0] in COURTS:
                assert not seen["pips"], (width, card)
                figure_width, figure_height = seen["figure"]
                assert figure_width >= 0.45 * width, (width, card, seen)
                assert figure_height >= 0.9 * width, (width, card, seen)
            else:
                assert seen["figure"] is None, (width, card)
                pips = seen["pips"]
                assert len(pips) == RANKS[card[0]], (width, card, pips)
                assert len(set(map(tuple, pips))) == len(pips), f"{card}: pips drawn on one another"
        seven = cards["7C"]["pips"]
        assert len({x for x, _ in seven}) == 3, f"a 7 stands in three columns: {seven}"
        assert len({y for _, y in seven}) == 4, f"a 7 has four rows (3, 1, 2 … 1): {seven}"
        page.screenshot(path=str(OUTPUT / f"card-faces-{width}.png"))
    # The table's own face-up cards are drawn the same way.
    page.evaluate("document.querySelector('#spread').remove()")
    for card in page.locator("#table .card[data-card]").all():
        name = card.get_attribute("data-card")
        if name[0] in COURTS:
            assert card.locator("svg.court").is_visible(), name
        else:
            assert card.locator(".pips .p").count() == RANKS[name[0]], name


def test_the_four_colour_deck_recolours_clubs_and_diamonds_and_is_remembered(page: Any) -> None:
    page.goto(KLONDIKE)
    ready(page)
    spread(page, 80)
    two = {card: colour(page, card) for card in ("5S", "5C", "5H", "5D")}
    assert two["5S"] == two["5C"] and two["5H"] == two["5D"] and two["5S"] != two["5H"]
    page.evaluate("document.querySelector('#spread').remove()")
    open_menu(page)
    assert not page.is_checked("#four-colour")  # two colours until asked for
    page.check("#four-colour")
    close_menu(page)
    for visit in ("chosen", "after a reload"):
        spread(page, 80)
        four = {card: colour(page, card) for card in ("5S", "5C", "5H", "5D")}
        assert len(set(four.values())) == 4, (visit, four)
        assert four["5S"] == two["5S"] and four["5H"] == two["5H"], visit  # as they were
        red, green, blue = (int(part) for part in four["5C"][4:-1].split(","))
        assert green > red and green > blue, f"clubs are green {visit}: {four['5C']}"
        red, green, blue = (int(part) for part in four["5D"][4:-1].split(","))
        assert blue > red and blue > green, f"diamonds are blue {visit}: {four['5D']}"
        page.reload()
        ready(page)
        assert page.is_checked("#four-colour")


def test_each_card_back_is_a_picture_of_its_own(page: Any) -> None:
    page.goto(KLONDIKE)
    ready(page)
    back = page.locator(slot("stock") + " .card.back")
    for size in ("auto", "S"):
        pictures = {}
        for name in ("lattice", "navy", "laurel"):
            open_menu(page)
            page.select_option("#back", name)
            if size != "auto":
                page.click(f'[data-size="{size}"]')
            close_menu(page)
            picture = back.evaluate("card => getComputedStyle(card).backgroundImage")
            assert "data:image/svg+xml" in picture, (name, picture[:80])
            pictures[name] = back.screenshot()
            (OUTPUT / f"card-back-{name}-{size}.png").write_bytes(pictures[name])
        assert len(set(pictures.values())) == 3, f"two backs look the same at size {size}"
