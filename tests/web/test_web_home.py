"""The web table's home page and board preferences in a real browser (Debian's Chromium, driven by
Playwright): a game against the computer starts in one click at a laptop's and a phone's size,
each preset's rule set reaches the server, the board flipped and in high contrast (and sounds)
stay so across a reload, and axe-core finds nothing serious on any screen.

The DOM contract these tests add to test_web_browser.py's: the home page's tabs
(`tab-computer`, `tab-table`, `tab-watch`), the forms' preset cards (`setting-preset-KEY`, a
radio for each key of engine/presets.json and `setting-preset-custom`) and their `rules`
disclosures (`rules`, `table-rules`); the board preferences menu `preferences` (`pref-home-right`,
`pref-home-left`, `pref-theme-classic`, `pref-theme-high-contrast`, `pref-sounds`), on the home
page and above the table.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tavli.clients.client import Seat, TavliClient
from tavli.engine.presets import PRESETS
from tavli.server.app import Running
from tavli.server.convert import rules_of
from tavli.server.quotas import QuotaLimits
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2
from tests.browser import (  # what the browser tests share
    PHONE,
    ClickingPlayer,
    attribute,
    by,
    game_root,
    open_context,
    point,
    screenshot,
    show_rules,
    start_computer_game,
    wait_until_actionable,
)
from tests.server_play import Policy, act_once, running_server

LAPTOP: ViewportSize = {"width": 1280, "height": 800}
AXE = Path(__file__).resolve().parents[2] / "clients" / "web" / "node_modules" / "axe-core" / "axe.min.js"
# Counts the clicks the page's WebAudio makes (each is one buffer source started).
COUNT_CLICKS = """
    window.tavliClicks = 0;
    const start = AudioBufferSourceNode.prototype.start;
    AudioBufferSourceNode.prototype.start = function (...args) {
      window.tavliClicks += 1;
      return start.apply(this, args);
    };
"""


@pytest.fixture()
def server() -> Iterator[Running]:
    # One browser starts a computer game with each preset: more bots than one client's share.
    quotas = QuotaLimits(bots_per_client=len(PRESETS) + 1)
    with running_server(web_port=0, log_rpcs=False, quotas=quotas) as running:
        yield running


def home(server: Running) -> str:
    return f"http://127.0.0.1:{server.web_port}/#/"


def wait_for_bots(page: Page) -> None:
    expect(by(page, "setting-bot").locator('option[value="random"]')).to_have_count(1)


def in_view(page: Page, testid: str) -> bool:
    """Whether the element is wholly inside the viewport as the page opens (no scrolling)."""
    box = by(page, testid).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return (
        box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] + box["width"] <= size["width"]
    )


# --- 1. one click to start -----------------------------------------------------------------------


@pytest.mark.parametrize(("viewport", "shot"), [(LAPTOP, "home"), (PHONE, "home-phone")])
def test_the_home_page_opens_on_the_computer_with_one_start_button_in_view(
    browser: Browser, server: Running, viewport: ViewportSize, shot: str
) -> None:
    context, page = open_context(browser, viewport)
    try:
        page.goto(home(server))
        expect(by(page, "tab-computer")).to_have_attribute("aria-selected", "true")
        expect(by(page, "computer-form")).to_be_visible()
        wait_for_bots(page)
        assert page.evaluate("window.scrollY") == 0
        assert in_view(page, "start-computer-game"), "the Start button is below the first screen"
        expect(page.get_by_role("button", name="Start the game")).to_have_count(1)
        expect(by(page, "rules")).not_to_have_attribute("open", "")
        expect(by(page, "setting-cube")).to_be_hidden()
        expect(by(page, "setting-preset-international")).to_be_checked()
        screenshot(page, shot)
        # The table for two and watching are one tab away.
        by(page, "tab-table").click()
        expect(by(page, "table-form")).to_be_visible()
        expect(by(page, "computer-form")).to_be_hidden()
        screenshot(page, f"{shot}-table")
        by(page, "tab-table").press("ArrowRight")
        expect(by(page, "tab-watch")).to_be_focused()
        expect(by(page, "watch-form")).to_be_visible()
        screenshot(page, f"{shot}-watch")
    finally:
        context.close()


def test_each_preset_reaches_the_server_and_the_last_used_comes_back(
    page: Page, server: Running, client: TavliClient
) -> None:
    for preset in PRESETS.values():
        page.goto(home(server))
        wait_for_bots(page)
        by(page, "setting-bot").select_option("random")
        by(page, f"setting-preset-{preset.key}").check()
        expect(by(page, "computer-form")).to_contain_text(preset.description)
        by(page, "start-computer-game").click()
        root = game_root(page)
        expect(root).to_have_attribute("data-game-name", re.compile(r"^games/."))
        name = root.get_attribute("data-game-name") or ""
        assert rules_of(client.game(name).rule_set) == preset.rule_set(), preset.key

    # The home page opens with the last preset chosen; a rule changed after makes it custom.
    last = list(PRESETS.values())[-1]
    page.goto(home(server))
    expect(by(page, f"setting-preset-{last.key}")).to_be_checked()
    show_rules(page)
    by(page, "setting-match-length").fill(str(last.rule_set().match_length + 2))
    expect(by(page, "setting-preset-custom")).to_be_checked()
    expect(by(page, f"setting-preset-{last.key}")).not_to_be_checked()
    by(page, "setting-preset-money").check()
    expect(by(page, "setting-variant")).to_have_value("backgammon")
    expect(by(page, "setting-match-length")).to_have_value("0")
    expect(by(page, "setting-beavers")).to_be_checked()


# --- 2. board preferences ------------------------------------------------------------------------


def in_the_board(page: Page, script: str, arg: object = None) -> Any:
    """`script` run on the board's SVG, which finds and measures what it needs in one go in the
    page: the board redraws what is inside its SVG whenever the game moves on, and an element found
    in one step and measured in the next may by then be a replaced one, which measures as nothing."""
    return by(page, "board").locator("svg").evaluate(script, arg)


CENTRE = "(e) => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }"


def point_centre(page: Page, number: int) -> tuple[float, float]:
    """Where the middle of my point is seen on the page."""
    script = f'(svg, n) => ({CENTRE})(svg.querySelector(`[data-point="${{n}}"]`))'
    x, y = in_the_board(page, script, number)
    return float(x), float(y)


def centre_x(page: Page, number: int) -> float:
    """Where the middle of my point is seen, across the page."""
    return point_centre(page, number)[0]


def point_number_x(page: Page, number: int) -> float:
    """Where the middle of the number written for my point is seen, across the page."""
    script = f"""(svg, n) => ({CENTRE})(
        [...svg.querySelectorAll("text.point-number")].find((t) => t.textContent === String(n)))"""
    return float(in_the_board(page, script, number)[0])


def left_to_right(page: Page) -> tuple[float, float, float]:
    """Where my 1-point, the board's middle and my 12-point are seen, across the page, measured in
    one go (the page redraws the board as it catches up after a reload)."""
    script = f"""(svg) => {{
        const point = (number) => svg.querySelector(`[data-point="${{number}}"]`);
        return [point(1), svg, point(12)].map((e) => ({CENTRE})(e)[0]);
    }}"""
    found = in_the_board(page, script)
    return (float(found[0]), float(found[1]), float(found[2]))


def board_middle_x(page: Page) -> float:
    box = by(page, "board").locator("svg").bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2


def my_next_play(page: Page, player: ClickingPlayer) -> board_pb2.Play:
    """Act (roll, pass) until the page's seat has a play that moves a checker; returns one."""
    for _ in range(20):
        assert wait_until_actionable(page), "the page never came to act"
        if attribute(page, "data-phase") == "PLAYING":
            moving = [play for play in player.legal().plays if play.steps]
            if moving:
                return player.choose(moving)
        player.act()
    raise AssertionError("the page never came to a play that moves a checker")


def drag(page: Page, from_point: int, to_point: int) -> None:
    """Press on one of my points, move in steps to another and let go there."""
    start, end = point_centre(page, from_point), point_centre(page, to_point)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def felt_colour(page: Page) -> str:
    return str(in_the_board(page, "(svg) => getComputedStyle(svg.querySelector('.felt')).fill"))


def choose_preferences(page: Page, *testids: str) -> None:
    menu = by(page, "preferences")
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()
    for testid in testids:
        by(page, testid).check()
    menu.locator("summary").click()
    expect(menu).not_to_have_attribute("open", "")


def test_the_board_flipped_in_high_contrast_with_sounds_stays_so_after_a_reload(
    page: Page, server: Running, client: TavliClient
) -> None:
    page.add_init_script(COUNT_CLICKS)
    name = start_computer_game(
        page, server.web_port, variant="backgammon", bot="random", match_length=1, name="Flip"
    )
    expect(point(page, 1)).to_be_attached()
    classic = felt_colour(page)
    # As most sites draw it: my home board (points 1-6) bottom right, my 12-point bottom left.
    middle = board_middle_x(page)
    assert centre_x(page, 1) > middle > centre_x(page, 12)
    player = ClickingPlayer(page, client, name, 0, label="flipped")
    assert wait_until_actionable(page), "the page never came to act"
    player.act()
    assert page.evaluate("window.tavliClicks") == 0, "sounds are off until turned on"

    choose_preferences(page, "pref-home-left", "pref-theme-high-contrast", "pref-sounds")
    assert centre_x(page, 1) < middle < centre_x(page, 12)
    assert felt_colour(page) == "rgb(0, 0, 0)" != classic
    # The point numbers read as written, each under its own point.
    assert abs(point_number_x(page, 1) - centre_x(page, 1)) < 8

    page.reload()
    expect(game_root(page)).to_have_attribute("data-game-name", name)
    expect(point(page, 1)).to_be_attached()
    one, middle, twelve = left_to_right(page)
    assert one < middle < twelve
    assert felt_colour(page) == "rgb(0, 0, 0)"
    by(page, "preferences").locator("summary").click()
    for testid in ("pref-home-left", "pref-theme-high-contrast", "pref-sounds"):
        expect(by(page, testid)).to_be_checked()
    by(page, "preferences").locator("summary").click()

    # A checker dragged on the flipped board lands where it is dropped; the rest are clicked where
    # the board shows them; each move and roll with its click.
    plays_before = player.plays_clicked
    play = my_next_play(page, player)
    first, *rest = play.steps
    drag(page, first.from_point, first.to_point)
    expect(by(page, "undo-button")).to_be_enabled()
    expect(by(page, "refusal")).to_be_empty()
    player.play_by_clicking(board_pb2.Play(notation=play.notation, steps=rest))
    assert player.plays_clicked > plays_before
    # (A play may have been a pass, which moves nothing: the next roll clicks, then.)
    page.wait_for_function("() => window.tavliClicks > 0")
    screenshot(page, "game-flipped-high-contrast", full_page=True)


# --- 3. the accessibility audit ------------------------------------------------------------------


def serious_violations(page: Page, screen: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is, one line each."""
    if not page.evaluate("typeof window.axe === 'object'"):
        # Evaluated, not added as a <script>: the page's content security policy allows no inline script.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    violations = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
        }))"""
    )
    return [
        f"{screen}: {v['impact']} {v['id']} ({v['help']}) at {json.dumps(v['nodes'])}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def to_their_turn_to_roll(seats: tuple[Seat, Seat]) -> games_pb2.Game:
    """Play natively (seeded random plays, nobody doubling) until seat 1 is to roll, the cube centred."""
    policy = Policy(random.Random(5))
    game = seats[0].game()
    for _ in range(60):
        if game.phase == games_pb2.PHASE_ROLLING and game.turn == games_pb2.SEAT_1:
            return game
        game = act_once(seats, game, policy)
    raise AssertionError("seat 1 never came to roll")


def test_axe_finds_nothing_serious_on_any_screen(
    browser: Browser, server: Running, client: TavliClient
) -> None:
    seats = client.create_game(
        variant="backgammon", match_length=0, dice_seed="axe-1", cube=True, players=("Ada", "Boris")
    )
    me, other = seats
    to_their_turn_to_roll(seats)
    seat_url = f"http://127.0.0.1:{server.web_port}/#/game/{me.name.removeprefix('games/')}/{me.token}"
    watch_url = f"http://127.0.0.1:{server.web_port}/#/watch/{me.name.removeprefix('games/')}?from=now"
    found: list[str] = []
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        context, page = open_context(browser, viewport)
        try:
            page.goto(home(server))
            wait_for_bots(page)
            found += serious_violations(page, f"home ({size})")
            show_rules(page)
            by(page, "preferences").locator("summary").click()
            found += serious_violations(page, f"home, rules and board menu open ({size})")
            by(page, "preferences").locator("summary").click()
            for tab in ("table", "watch"):
                by(page, f"tab-{tab}").click()
                expect(by(page, f"{tab}-form")).to_be_visible()
                found += serious_violations(page, f"home, {tab} tab ({size})")

            page.goto(seat_url)
            expect(game_root(page)).to_have_attribute("data-game-name", me.name)
            expect(point(page, 1)).to_be_attached()
            found += serious_violations(page, f"game ({size})")
            choose_preferences(page, "pref-theme-high-contrast")
            found += serious_violations(page, f"game in high contrast ({size})")
            choose_preferences(page, "pref-theme-classic")

            page.goto(watch_url)
            expect(by(page, "watching-banner")).to_be_visible()
            expect(point(page, 1)).to_be_attached()
            found += serious_violations(page, f"watch ({size})")
        finally:
            context.close()

    # The double dialog, on the seat's page once the other seat has doubled.
    other.game()
    other.double()
    context, page = open_context(browser, LAPTOP)
    try:
        page.goto(seat_url)
        expect(page.locator('dialog[data-testid="dialog-double"]')).to_be_visible()
        found += serious_violations(page, "double dialog")
    finally:
        context.close()
    print("\n".join(found) or "axe-core: no serious or critical violations")
    assert found == [], "axe-core found serious or critical violations:\n" + "\n".join(found)
