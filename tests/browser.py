"""What the real-browser tests of the web table share: Debian's Chromium driven by Playwright (one
browser for the test module, a fresh context per page), screenshots kept by the run, and a player
that plays the page by clicking, as a person does, reading only the legal plays from the server.

The page's DOM contract (its data-testid attributes) is written in tests/web/test_web_browser.py.
Every wait here has a timeout, every game loop a bound on its turns, and every failure says what
the page showed (its status line, its refusal) and where its screenshot is.

Screenshots go to ``$TAVLI_SCREENSHOTS`` if set, else to /tmp/tavli-screenshots/.
"""

from __future__ import annotations

import os
import random
import re
import urllib.parse
import weakref
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Playwright,
    TimeoutError as PlaywrightTimeout,
    ViewportSize,
    expect,
    sync_playwright,
)

from tavli.clients.client import Seat, TavliClient
from tavli.server.app import Running
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
# Playwright's own waits (clicks, expect) give up after this long, in milliseconds.
TIMEOUT_MS = 20_000
# How long the page may take to show the next moment it has to act (the bot or the other page
# thinking, the server answering), in milliseconds.
TURN_TIMEOUT_MS = 30_000
# How often a wait for the page to change looks again, in milliseconds. Playwright's default
# looks at every animation frame: a page waiting on the other seat then costs its renderer about
# four times the CPU (0.56 s against 0.13 s in a 10 s wait, measured).
POLL_MS = 50

# The dialogs a seat has to answer (or close) before it can go on; the match over ends a game loop.
DIALOGS = ("dialog-double", "dialog-resign-answer", "dialog-game-over", "dialog-match-over")

_said_where = False
_console_errors: weakref.WeakKeyDictionary[Page, list[str]] = weakref.WeakKeyDictionary()

expect.set_options(timeout=TIMEOUT_MS)


# --- the browser ----------------------------------------------------------------------------------


# The browser lives for one test module (all the browser tests are in one): Playwright's sync API
# keeps an event loop marked running in the main thread while it is started, so that a later
# module's asyncio.run() would fail ("cannot be called from a running event loop") if it lived for
# the whole session.
@pytest.fixture(scope="module", name="playwright_driver")
def playwright_driver_fixture() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module", name="browser")
def browser_fixture(playwright_driver: Playwright) -> Iterator[Browser]:
    """Debian's Chromium, headless, started once for the browser tests (no browser is ever
    downloaded)."""
    if not CHROMIUM.is_file():
        pytest.fail(
            f"{CHROMIUM} is missing: the web table's browser tests need Debian's Chromium (apt-get install "
            "chromium)"
        )
    launched = playwright_driver.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
    )
    try:
        yield launched
    finally:
        launched.close()


def open_context(browser: Browser, viewport: ViewportSize | None = None) -> tuple[BrowserContext, Page]:
    """A fresh context (its own storage, as another person's browser) and a page in it.

    Its pages ask for reduced motion, so the board shows each change at once unless a test
    chooses an animation speed (tests/web/test_web_board.py does): a whole match played by
    clicking does not wait for every checker to slide."""
    context = browser.new_context(viewport=viewport or DESKTOP, reduced_motion="reduce")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    _keep_console(page)
    return context, page


@pytest.fixture(name="page")
def page_fixture(browser: Browser) -> Iterator[Page]:
    """A page at a desktop size (1280x900) in a fresh context, closed after the test."""
    context, fresh = open_context(browser, DESKTOP)
    try:
        yield fresh
    finally:
        context.close()


@pytest.fixture(name="phone_page")
def phone_page_fixture(browser: Browser) -> Iterator[Page]:
    """A page at a phone's size (390x844, touch) in a fresh context, closed after the test."""
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2, reduced_motion="reduce"
    )
    context.set_default_timeout(TIMEOUT_MS)
    fresh = context.new_page()
    fresh.set_default_timeout(TIMEOUT_MS)
    _keep_console(fresh)
    try:
        yield fresh
    finally:
        context.close()


def _keep_console(page: Page) -> None:
    """Keep the page's console errors and uncaught exceptions, for failure messages."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    _console_errors[page] = errors


def page_errors(page: Page) -> list[str]:
    return list(_console_errors.get(page, []))


# --- screenshots ----------------------------------------------------------------------------------


def screenshot_dir() -> Path:
    """$TAVLI_SCREENSHOTS, or /tmp/tavli-screenshots; the first call of a run says where, and
    removes the failure screenshots an earlier run left there."""
    global _said_where
    folder = Path(os.environ.get("TAVLI_SCREENSHOTS") or "/tmp/tavli-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    if not _said_where:
        _said_where = True
        for stale in folder.glob("FAILED-*.png"):
            stale.unlink(missing_ok=True)
        print(f"\nscreenshots of the web table: {folder}")
    return folder


def screenshot(page: Page, name: str, *, full_page: bool = False, of: Locator | None = None) -> Path:
    """Save a PNG of the page (or of one element) as NAME.png in the screenshots folder."""
    path = screenshot_dir() / f"{re.sub(r'[^A-Za-z0-9_.-]+', '-', name)}.png"
    if of is not None:
        of.screenshot(path=str(path))
    else:
        page.screenshot(path=str(path), full_page=full_page)
    return path


# --- the page -------------------------------------------------------------------------------------


def by(page: Page, testid: str) -> Locator:
    return page.get_by_test_id(testid)


def game_root(page: Page) -> Locator:
    return by(page, "game")


def point(page: Page, number: int) -> Locator:
    """A hit target of the board, in the viewing player's own numbering (25 the bar, 0 off)."""
    return by(page, "board").locator(f'svg [data-point="{number}"]')


def attribute(page: Page, name: str) -> str:
    return game_root(page).get_attribute(name) or ""


def event_count(page: Page) -> int:
    return int(attribute(page, "data-event-count") or "0")


def fragment_token(url: str) -> tuple[str, str]:
    """The game id and the seat token of a seat's address, "…/#/game/ID/TOKEN"."""
    parsed = urllib.parse.urlsplit(url)
    parts = [urllib.parse.unquote(part) for part in parsed.fragment.split("/") if part]
    assert len(parts) == 3 and parts[0] == "game", f"not a seat's address: {url}"
    return parts[1], parts[2]


def describe(page: Page) -> str:
    """What the page shows, for a failure message."""

    def text(testid: str) -> str:
        found = by(page, testid)
        return found.first.inner_text(timeout=2000) if found.count() else "(none)"

    root = game_root(page)
    attributes = ""
    if root.count():
        attributes = ", ".join(
            f"{name}={root.get_attribute(name, timeout=2000)!r}"
            for name in ("data-phase", "data-my-turn", "data-event-count", "data-seat")
        )
    open_dialogs = page.locator("dialog[open]").evaluate_all("(ds) => ds.map((d) => d.dataset.testid)")
    return (
        f"url={page.url} {attributes}; status={text('status')!r}; refusal={text('refusal')!r}; "
        f"open dialogs={open_dialogs}; console errors={page_errors(page)[-5:]}"
    )


def fail_with_screenshot(page: Page, name: str, why: str) -> None:
    path = screenshot(page, f"FAILED-{name}", full_page=True)
    pytest.fail(f"{why}\npage: {describe(page)}\nscreenshot: {path}", pytrace=False)


def open_home_tab(page: Page, tab: str) -> None:
    """Show one of the home page's tabs: "computer", "table" or "watch"."""
    by(page, f"tab-{tab}").click()
    expect(by(page, f"tab-{tab}")).to_have_attribute("aria-selected", "true")


def show_rules(page: Page, prefix: str = "") -> None:
    """Open the "Rules" of the computer form (or, with prefix "table-", of the table form)."""
    rules = by(page, f"{prefix}rules")
    if rules.get_attribute("open") is None:
        rules.locator("summary").click()
    expect(rules).to_have_attribute("open", "")


def start_computer_game(
    page: Page,
    web_port: int,
    *,
    variant: str,
    bot: str,
    match_length: int,
    name: str,
    cube: bool | None = None,
    options: Mapping[str, str | bool] | None = None,
) -> str:
    """From the home page, fill the computer form and start; returns the game's name once the game
    screen shows it. ``options``: more rules of the form by their field's name (``setting-NAME``),
    a box checked or not, a choice's value."""
    page.goto(f"http://127.0.0.1:{web_port}/#/")
    form = by(page, "computer-form")
    expect(form).to_be_visible()
    show_rules(page)
    by(page, "setting-variant").select_option(variant)
    # The bots are listed by the server (ListBots): wait for the one asked for.
    expect(by(page, "setting-bot").locator(f'option[value="{bot}"]')).to_have_count(1)
    by(page, "setting-bot").select_option(bot)
    by(page, "setting-match-length").fill(str(match_length))
    by(page, "setting-name").fill(name)
    if cube is not None and by(page, "setting-cube").is_enabled():
        by(page, "setting-cube").set_checked(cube)
    for option, value in (options or {}).items():
        if isinstance(value, bool):
            by(page, f"setting-{option}").set_checked(value)
        else:
            by(page, f"setting-{option}").select_option(value)
    by(page, "start-computer-game").click()
    expect(game_root(page)).to_be_visible()
    expect(game_root(page)).to_have_attribute("data-game-name", re.compile(r"^games/."))
    return game_root(page).get_attribute("data-game-name") or ""


def wait_until_actionable(page: Page, timeout_ms: float = TURN_TIMEOUT_MS) -> bool:
    """Wait until the page has something to do (its turn, or a dialog to answer); False if it did
    not come within the timeout."""
    try:
        page.wait_for_function(
            """(dialogs) => {
                const open = (id) => document.querySelector(`dialog[data-testid="${id}"][open]`);
                if (dialogs.some(open)) return true;
                const game = document.querySelector('[data-testid="game"]');
                return game !== null && game.dataset.myTurn === "true";
            }""",
            arg=list(DIALOGS),
            polling=POLL_MS,
            timeout=timeout_ms,
        )
        return True
    except PlaywrightTimeout:
        return False


@dataclass(frozen=True)
class Shown:
    """What a seat's page shows of its game at one moment: the dialog open for it to answer (of
    :data:`DIALOGS`), its event count, whether it is its turn, and the game's phase."""

    dialog: str | None
    events: int
    my_turn: bool
    phase: str


def shown(page: Page) -> Shown:
    """The page's :class:`Shown`, read in one look (a player's every step starts with one)."""
    dialog, events, my_turn, phase = page.evaluate(
        """(dialogs) => {
            const open = dialogs.find((id) => document.querySelector(`dialog[data-testid="${id}"][open]`));
            const game = document.querySelector('[data-testid="game"]');
            const data = game === null ? {} : game.dataset;
            return [open ?? null, Number(data.eventCount ?? "0"), data.myTurn === "true", data.phase ?? ""];
        }""",
        list(DIALOGS),
    )
    return Shown(dialog, int(events), bool(my_turn), str(phase))


def wait_for_events_past(page: Page, count: int, timeout_ms: float = TURN_TIMEOUT_MS) -> None:
    """Wait until the page shows more than ``count`` events (its action was made and shown)."""
    page.wait_for_function(
        """(count) => {
            const game = document.querySelector('[data-testid="game"]');
            return game !== null && Number(game.dataset.eventCount) > count;
        }""",
        arg=count,
        polling=POLL_MS,
        timeout=timeout_ms,
    )


@dataclass
class ClickingPlayer:
    """Plays one seat of a game through its page, by clicking; reads only the legal plays (for
    its choice) from the server, natively."""

    page: Page
    client: TavliClient
    name: str
    seat: int  # 0 or 1: the seat the page sits at
    label: str = "page"
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    take: bool = True  # how it answers a double
    accept_resignations: bool = True
    turns: int = 0
    shot_selected: str | None = None  # a screenshot name to take once, with a checker selected
    tap: bool = False  # touch the board's points (a phone) rather than click them
    plays_clicked: int = 0

    @property
    def seat_enum(self) -> games_pb2.Seat.ValueType:
        return games_pb2.SEAT_0 if self.seat == 0 else games_pb2.SEAT_1

    def legal(self) -> games_pb2.ListLegalActionsResponse:
        request = games_pb2.ListLegalActionsRequest(name=self.name, seat=self.seat_enum)
        return self.client.games.ListLegalActions(request, timeout=self.client.timeout)

    def act(self) -> str:
        """Do the one thing the page waits for now; returns what was done ("" for nothing)."""
        page = self.page
        now = shown(page)
        dialog, before = now.dialog, now.events
        if dialog == "dialog-match-over":
            return "match-over"
        if dialog == "dialog-game-over":
            self._press(by(page, "next-game-button"), "next-game-button")
            expect(page.locator('dialog[data-testid="dialog-game-over"]')).not_to_be_visible()
            return "closed game over"
        if dialog == "dialog-double":
            answer = "take-button" if self.take else "drop-button"
            self._press(by(page, answer), answer)
            self._after_action(before, "answer the double")
            return "answered double"
        if dialog == "dialog-resign-answer":
            answer = "accept-resignation" if self.accept_resignations else "reject-resignation"
            self._press(by(page, answer), answer)
            self._after_action(before, "answer the resignation")
            return "answered resignation"
        if not now.my_turn:
            return ""
        phase = now.phase
        if phase in ("OPENING", "ROLLING"):
            roll = by(page, "roll-button")
            if phase == "OPENING":
                # Either seat may throw for who starts: the other seat's throw may come between the
                # look and the press, and disable the button for good.
                if not self._press(roll, "roll-button", unless_past=before):
                    return ""
            else:
                expect(roll).to_be_enabled()
                self._press(roll, "roll-button")
            self._after_action(before, "roll")
            return "rolled"
        if phase == "PLAYING":
            self.play_by_clicking(before=before)
            return "played"
        fail_with_screenshot(
            page, f"{self.label}-phase", f"{self.label}: my turn in phase {phase!r}, nothing to do"
        )
        return ""

    def play_by_clicking(
        self, play: board_pb2.Play | None = None, *, before: int | None = None
    ) -> board_pb2.Play:
        """Click a legal play's steps on the board (each from point, then its to point), then
        submit it; returns the play. ``before``: the page's event count, if just read."""
        page = self.page
        if before is None:
            before = event_count(page)
        if play is None:
            legal = self.legal()
            assert games_pb2.ACTION_PLAY in legal.actions, (
                f"{self.label}: the page says it is my turn to play, the server lists {list(legal.actions)}"
            )
            play = self.choose(list(legal.plays))
        for step in play.steps:
            self.click_step(step.from_point, step.to_point, play.notation)
        submit = by(page, "submit-play")
        try:
            expect(submit).to_be_enabled()
        except AssertionError:
            fail_with_screenshot(
                page,
                f"{self.label}-submit",
                f"{self.label}: submit-play stays disabled after the steps of {play.notation!r}",
            )
        self._press(submit, f"submit-play of {play.notation!r}")
        self._after_action(before, f"play {play.notation!r}")
        self.plays_clicked += 1
        return play

    def choose(self, plays: list[board_pb2.Play]) -> board_pb2.Play:
        """A play at random, one that hits nothing when there is one: two such players race
        more than they fight, and a match ends in a few dozen turns rather than hundreds."""
        quiet = [play for play in plays if not play.hits]
        return self.rng.choice(quiet or plays)

    def click_step(self, from_point: int, to_point: int, notation: str = "") -> None:
        page = self.page
        source = point(page, from_point)
        if source.get_attribute("data-selected") != "true":  # (a refused attempt may leave it selected)
            self._press(source, f"point {from_point}")
        try:
            expect(source).to_have_attribute("data-selected", "true")
        except AssertionError:
            fail_with_screenshot(
                page,
                f"{self.label}-select",
                f"{self.label}: point {from_point} is not selected after a click (play {notation!r})",
            )
        if self.shot_selected:
            screenshot(page, self.shot_selected, full_page=True)
            self.shot_selected = None
        target = point(page, to_point)
        try:
            expect(target).to_have_attribute("data-target", "true")
        except AssertionError:
            fail_with_screenshot(
                page,
                f"{self.label}-target",
                f"{self.label}: point {to_point} is not a target of {from_point} (play {notation!r})",
            )
        self._press(target, f"point {to_point}")

    def _press(self, target: Locator, what: str, unless_past: int | None = None) -> bool:
        """Click (or, on a phone, tap) ``target``; fail with the page's state if it cannot be, unless
        the page has shown events past ``unless_past`` meanwhile (returns False then)."""
        try:
            if self.tap and what.startswith("point"):
                target.tap()
            else:
                target.click()
        except PlaywrightTimeout:
            if unless_past is not None and event_count(self.page) > unless_past:
                return False
            fail_with_screenshot(self.page, f"{self.label}-press", f"{self.label}: cannot press {what}")
        return True

    def _after_action(self, before: int, what: str) -> None:
        try:
            wait_for_events_past(self.page, before)
        except PlaywrightTimeout:
            fail_with_screenshot(
                self.page,
                f"{self.label}-stalled",
                f"{self.label}: {what} was not shown as made (events stay at {before})",
            )
        self.turns += 1


def play_pages_to_match_over(
    client: TavliClient, name: str, players: Sequence[ClickingPlayer], most_actions: int
) -> games_pb2.Game:
    """Each page acts when the server waits for its seat (and answers its dialogs) until every page
    shows the match over; returns the server's final state. A seat no page plays is a bot."""
    by_seat = {player.seat: player for player in players}
    for _ in range(most_actions):
        game = client.game(name)
        if game.phase == games_pb2.PHASE_MATCH_OVER:
            for player in players:
                try:
                    expect(player.page.locator('dialog[data-testid="dialog-match-over"]')).to_be_visible(
                        timeout=TURN_TIMEOUT_MS
                    )
                except AssertionError:
                    fail_with_screenshot(
                        player.page,
                        f"{player.label}-no-match-over",
                        f"{player.label}: the match is over on the server, the page shows no "
                        "dialog-match-over",
                    )
            return game
        waited = [seat for seat in waited_seats(game) if seat in by_seat]
        # Before the throw for who starts either seat may throw: the first page there does.
        player = by_seat[waited[0]] if waited else players[0]
        if not wait_until_actionable(player.page):
            if not waited and client.game(name).etag != game.etag:
                continue  # the bot acted meanwhile: see whom the server waits for now
            fail_with_screenshot(
                player.page,
                f"{player.label}-stall",
                f"{player.label} (seat {player.seat}): the server waits for seat(s) {waited_seats(game)} "
                f"(phase {games_pb2.Phase.Name(game.phase)}; a seat no page plays is the computer's), "
                f"and nothing changed within {TURN_TIMEOUT_MS / 1000:.0f} s",
            )
        player.act()
    last = players[0].page
    fail_with_screenshot(
        last, "too-long", f"the match did not end within {most_actions} actions of the pages"
    )
    raise AssertionError  # not reached


def waited_seats(game: games_pb2.Game) -> list[int]:
    """The seats (0, 1) the server waits for."""
    return [0 if seat == games_pb2.SEAT_0 else 1 for seat in game.to_act]


def close_game_over(page: Page) -> None:
    """Once the page shows a game's end, go on to the next game (Next game)."""
    dialog = page.locator('dialog[data-testid="dialog-game-over"]')
    expect(dialog).to_be_visible()
    by(page, "next-game-button").click()
    expect(dialog).not_to_be_visible()


def controls_enabled(page: Page, testids: Sequence[str]) -> list[str]:
    """Those of the controls that the page shows enabled."""
    enabled = []
    for testid in testids:
        for element in by(page, testid).all():
            if element.is_visible() and element.is_enabled():
                enabled.append(testid)
    return enabled


# --- where the page is, and what its move list shows ----------------------------------------------

MOST_ACTIONS = 400
"""A bound on the actions of one short match played through the page."""

ENTRY_KINDS = {
    games_pb2.EVENT_KIND_OPENING_THROW,
    games_pb2.EVENT_KIND_ROLL,
    games_pb2.EVENT_KIND_PLAY,
    games_pb2.EVENT_KIND_DOUBLE,
    games_pb2.EVENT_KIND_TAKE,
    games_pb2.EVENT_KIND_DROP,
    games_pb2.EVENT_KIND_BEAVER,
    games_pb2.EVENT_KIND_RESIGN,
    games_pb2.EVENT_KIND_ACCEPT,
    games_pb2.EVENT_KIND_REJECT,
    games_pb2.EVENT_KIND_TIME_RAN_OUT,
}


def url(server: Running, fragment: str = "#/") -> str:
    return f"http://127.0.0.1:{server.web_port}/{fragment}"


def seat_url(server: Running, seat: Seat) -> str:
    return url(server, f"#/game/{seat.name.removeprefix('games/')}/{seat.token}")


def open_seat(page: Page, server: Running, seat: Seat) -> None:
    page.goto(seat_url(server, seat))
    expect(game_root(page)).to_have_attribute("data-game-name", seat.name)


def expected_entries(events: list[games_pb2.GameEvent]) -> list[games_pb2.GameEvent]:
    """The server's events as the move list's entries, each by its last event: a roll followed
    by its play is the play's entry."""
    entries: list[games_pb2.GameEvent] = []
    for event in events:
        if event.kind not in ENTRY_KINDS:
            continue
        if (
            event.kind == games_pb2.EVENT_KIND_PLAY
            and entries
            and entries[-1].kind == games_pb2.EVENT_KIND_ROLL
        ):
            entries[-1] = event
            continue
        entries.append(event)
    return entries
