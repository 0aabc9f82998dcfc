"""The web table shows every change of the game, in order (Debian's Chromium, driven by Playwright):
the computer's plays and the plays the server makes for the player move step by step on the board,
speed "off" moves nothing (and is the default for a browser that asks for reduced motion), the cube
goes across when doubled, a finished game's final position stays under its result until the player
goes on, and a watcher from the start sees a replay (hits and all) reaching the stored position.

What these tests read of the page, besides tests/test_web_browser.py's contract: the game element's
`data-animating` ("true" while a change moves on the board), `window.tavliAnimations` (each checker
step, hit and cube move shown: kind, sequence, seat, from, to, in the mover's numbering), the
`animation-speed` select (slow, normal, fast, off; remembered in localStorage), the board's
`dice-last` (the other side's last roll) and its last-play marks (`[data-last-play=from|to]`).
"""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tavli.clients.client import Seat, TavliClient
from tavli.server.app import Running
from tavli.v1 import bots_service_pb2, bots_service_pb2_grpc, games_service_pb2 as games_pb2
from tests.browser import (  # what the browser tests share
    TURN_TIMEOUT_MS,
    ClickingPlayer,
    by,
    event_count,
    expected_entries,
    fail_with_screenshot,
    game_root,
    open_context,
    screenshot,
    url,
    wait_until_actionable,
)
from tests.server_play import Policy, act_once

SPEED_KEY = "tavli.animation-speed"


def with_speed(page: Page, speed: str) -> None:
    """The page starts with this animation speed chosen (until one is chosen on the page)."""
    page.add_init_script(
        f"if (window.localStorage.getItem({SPEED_KEY!r}) === null)"
        f" window.localStorage.setItem({SPEED_KEY!r}, {speed!r})"
    )


def against_the_computer(client: TavliClient, **options: Any) -> tuple[Seat, Seat]:
    """A seeded game whose seat 1 the server's heuristic bot plays; seat 0 is the page's."""
    seats = client.create_game(players=("Tester", "Computer"), **options)
    bots = bots_service_pb2_grpc.BotsServiceStub(client.channel)
    bots.SeatBot(
        bots_service_pb2.SeatBotRequest(name=seats[1].name, seat_token=seats[1].token, bot="heuristic"),
        timeout=client.timeout,
    )
    return seats


def logged_events(client: TavliClient, name: str, count: int) -> list[games_pb2.GameEvent]:
    """The game's first ``count`` events, as the server stored them."""
    events: list[games_pb2.GameEvent] = []
    if count == 0:
        return events
    for message in client.watch(name):
        events.append(message.event)
        if len(events) >= count:
            break
    return events


def animated(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("() => window.tavliAnimations ?? []")  # type: ignore[no-any-return]


def steps_animated(page: Page, sequence: int) -> list[tuple[int, int]]:
    return [(m["from"], m["to"]) for m in animated(page) if m["kind"] == "step" and m["sequence"] == sequence]


def settle(page: Page) -> None:
    """Wait until the page has shown everything it has received."""
    page.wait_for_function(
        "() => document.querySelector('[data-testid=game]')?.dataset.animating === 'false'",
        timeout=TURN_TIMEOUT_MS,
    )


def test_the_computers_plays_and_those_made_for_me_move_step_by_step(
    page: Page, server: Running, client: TavliClient
) -> None:
    # Long nardi with forced plays made by the server: the opening's plays from the head are often forced.
    with_speed(page, "fast")
    seats = against_the_computer(
        client, variant="long-nardi", match_length=1, dice_seed="board-moves-3", auto_play_forced=True
    )
    name = seats[0].name
    page.goto(url(server, f"#/game/{name.removeprefix('games/')}/{seats[0].token}"))
    expect(game_root(page)).to_have_attribute("data-game-name", name)
    player = ClickingPlayer(page=page, client=client, name=name, seat=0, rng=random.Random(3))
    clicked: set[int] = set()
    computer_plays = forced_plays = 0
    events: list[games_pb2.GameEvent] = []
    for _ in range(40):
        # My turn: everything before it is shown (the page acts only then).
        if not wait_until_actionable(page):
            fail_with_screenshot(page, "board-stall", "the page never came to act")
        before = event_count(page)
        events = logged_events(client, name, before)
        plays = [e for e in events if e.kind == games_pb2.EVENT_KIND_PLAY and e.steps]
        computer_plays = sum(1 for e in plays if e.seat == games_pb2.SEAT_1)
        forced_plays = sum(1 for e in plays if e.seat == games_pb2.SEAT_0 and e.forced)
        if computer_plays >= 3 and forced_plays >= 1:
            break
        if player.act() == "played":
            clicked.add(before)  # my own play from the board has the sequence of the state I played on
    assert computer_plays >= 3 and forced_plays >= 1, (
        f"in 40 turns the computer made {computer_plays} plays and the server {forced_plays} "
        "forced ones of mine"
    )
    for event in events:
        if event.kind != games_pb2.EVENT_KIND_PLAY or not event.steps:
            continue
        expected = [(step.from_point, step.to_point) for step in event.steps]
        shown = steps_animated(page, event.sequence)
        if event.sequence in clicked and not event.forced:
            assert shown == [], f"my own play {event.notation} was moved again after I made it"
        else:
            who = "the computer's" if event.seat == games_pb2.SEAT_1 else "my forced"
            assert shown == expected, f"{who} play {event.notation} (#{event.sequence}) was shown as {shown}"
    # Long nardi has no hitting: nothing was ever sent to the bar.
    assert [m for m in animated(page) if m["kind"] == "hit"] == []
    # The last play stays marked, and both sides' rolls stay in view.
    expect(page.locator("[data-last-play=from]").first).to_be_attached()
    expect(page.locator("[data-last-play=to]").first).to_be_attached()
    screenshot(page, "board-long-nardi-last-play", full_page=True)


def test_speed_off_moves_nothing_and_the_choice_is_remembered(
    browser: Browser, page: Page, server: Running, client: TavliClient
) -> None:
    with_speed(page, "off")
    seats = against_the_computer(client, variant="backgammon", match_length=1, dice_seed="board-off-1")
    name = seats[0].name
    page.goto(url(server, f"#/game/{name.removeprefix('games/')}/{seats[0].token}"))
    expect(by(page, "animation-speed")).to_have_value("off")
    player = ClickingPlayer(page=page, client=client, name=name, seat=0)
    computer_plays = 0
    for _ in range(30):
        if not wait_until_actionable(page):
            fail_with_screenshot(page, "board-off-stall", "the page never came to act")
        events = logged_events(client, name, event_count(page))
        computer_plays = sum(
            1 for e in events if e.kind == games_pb2.EVENT_KIND_PLAY and e.seat == games_pb2.SEAT_1
        )
        if computer_plays >= 2:
            break
        player.act()
    assert computer_plays >= 2
    assert animated(page) == [], "speed off moved checkers"
    expect(by(page, "last-play")).not_to_have_text("No play yet in this game.")

    by(page, "animation-speed").select_option("slow")
    assert page.evaluate(f"() => window.localStorage.getItem({SPEED_KEY!r})") == "slow"
    page.reload()
    expect(by(page, "animation-speed")).to_have_value("slow")

    # A browser that asks for reduced motion, with no choice made, gets "off".
    context, reduced = open_context(browser)
    try:
        reduced.emulate_media(reduced_motion="reduce")
        reduced.goto(page.url)
        expect(by(reduced, "animation-speed")).to_have_value("off")
    finally:
        context.close()


def test_a_finished_games_final_position_stays_until_the_player_goes_on(
    page: Page, server: Running, client: TavliClient
) -> None:
    with_speed(page, "fast")
    seats = client.create_game(
        variant="backgammon", match_length=3, dice_seed="board-end-2", players=("Anna", "Boris")
    )
    name = seats[0].name
    policy = Policy(random.Random(2))
    game = seats[0].game()
    while game.phase != games_pb2.PHASE_ROLLING or game.turn != games_pb2.SEAT_0 or game.event_count < 6:
        game = act_once(seats, game, policy)
    page.goto(url(server, f"#/game/{name.removeprefix('games/')}/{seats[0].token}"))
    root = game_root(page)
    expect(root).to_have_attribute("data-event-count", str(game.event_count))
    settle(page)
    final_position = by(page, "board-description").inner_text()

    # I resign (natively, with my token) and the other seat accepts: the game ends on this position.
    seats[0].observe(game)
    seats[1].observe(seats[0].resign("single"))
    ended = seats[1].accept()
    assert len(ended.finished_games) == 1
    dialog = page.locator('dialog[data-testid="dialog-game-over"]')
    expect(dialog).to_be_visible()
    # The next game goes on at the server (its throw for who starts, and a roll) while the page
    # keeps the finished game's position under its result.
    game = ended
    for _ in range(2):
        game = act_once(seats, game, policy)
    assert game.event_count > ended.event_count
    expect(root).to_have_attribute("data-event-count", str(ended.event_count))
    assert by(page, "board-description").inner_text() == final_position
    expect(by(page, "game-over-text")).to_contain_text("1")
    screenshot(page, "board-game-over-final-position", full_page=True)
    assert root.get_attribute("data-my-turn") == "false"

    by(page, "next-game-button").click()
    expect(dialog).not_to_be_visible()
    expect(root).to_have_attribute("data-event-count", str(game.event_count))
    assert by(page, "board-description").inner_text() != final_position


def test_a_watcher_from_the_start_sees_a_replay_reaching_the_stored_position(
    page: Page, server: Running, client: TavliClient
) -> None:
    with_speed(page, "normal")
    seats = client.create_game(
        variant="backgammon", match_length=3, dice_seed="board-replay-4", players=("Anna", "Boris")
    )
    name = seats[0].name
    policy = Policy(random.Random(4))
    game = seats[0].game()
    for _ in range(14):
        game = act_once(seats, game, policy)
    stored = game
    page.goto(url(server, f"#/watch/{name.removeprefix('games/')}?from=start"))
    root = game_root(page)
    expect(root).to_have_attribute("data-replaying", "true")
    # A moment of the replay: a checker in the air, the play's dice, the marks of its steps so far.
    page.wait_for_function(
        "() => document.querySelector('.moving-checker') !== null"
        " && document.querySelector('[data-last-play]') !== null",
        timeout=TURN_TIMEOUT_MS,
    )
    screenshot(page, "board-play-animated", full_page=True)
    expect(root).to_have_attribute("data-replaying", "false", timeout=TURN_TIMEOUT_MS * 2)
    expect(root).to_have_attribute("data-event-count", str(stored.event_count))
    settle(page)
    hits = 0
    for event in logged_events(client, name, stored.event_count):
        if event.kind == games_pb2.EVENT_KIND_PLAY and event.steps:
            expected = [(step.from_point, step.to_point) for step in event.steps]
            assert steps_animated(page, event.sequence) == expected, f"the replay skipped {event.notation}"
            # Each checker hit went to the bar: from its point (the other side's numbering) to 25.
            struck = [(25 - step.to_point, 25) for step in event.steps if step.hit]
            hit_moves = [m for m in animated(page) if m["kind"] == "hit" and m["sequence"] == event.sequence]
            shown = [(m["from"], m["to"]) for m in hit_moves]
            assert shown == struck, f"the hits of {event.notation} were shown as {shown}"
            hits += len(struck)
    assert hits > 0, "the seeded game was chosen for its hits"
    # The move list took every event of the replay, in order, as the board showed it.
    wanted = [event.sequence for event in expected_entries(logged_events(client, name, stored.event_count))]
    listed = by(page, "record-entry").evaluate_all("(es) => es.map((e) => Number(e.dataset.sequence))")
    assert listed == wanted
    # The replay ends on the stored position: the board a watcher from now sees.
    replayed = by(page, "board-description").inner_text()
    live = page.context.new_page()
    try:
        live.goto(url(server, f"#/watch/{name.removeprefix('games/')}"))
        expect(game_root(live)).to_have_attribute("data-event-count", str(stored.event_count))
        assert by(live, "board-description").inner_text() == replayed
    finally:
        live.close()
    # Then it follows live.
    game = act_once(seats, stored, policy)
    expect(root).to_have_attribute("data-event-count", str(game.event_count))


def test_the_cube_goes_across_when_doubled_and_to_its_owner_when_taken(
    page: Page, server: Running, client: TavliClient
) -> None:
    with_speed(page, "fast")
    seats = client.create_game(
        variant="backgammon", match_length=3, dice_seed="board-cube-1", players=("Anna", "Boris")
    )
    name = seats[0].name
    policy = Policy(random.Random(6))
    game = seats[0].game()
    for _ in range(40):
        if game.phase == games_pb2.PHASE_ROLLING and game.turn == games_pb2.SEAT_1:
            seats[1].observe(game)
            if games_pb2.ACTION_DOUBLE in seats[1].legal_actions().actions:
                break
        game = act_once(seats, game, policy)
    page.goto(url(server, f"#/game/{name.removeprefix('games/')}/{seats[0].token}"))
    root = game_root(page)
    expect(root).to_have_attribute("data-event-count", str(game.event_count))
    cube = by(page, "cube")
    expect(cube).to_have_attribute("data-owner", "centre")

    doubled = seats[1].double()
    expect(by(page, "dialog-double")).to_be_visible()
    # The cube went across to me at 2, and waits there for my answer.
    moves = [m for m in animated(page) if m["kind"] == "cube"]
    assert [(m["seat"], m["from"], m["to"], m["sequence"]) for m in moves] == [
        ("SEAT_1", 1, 2, doubled.event_count - 1)
    ]
    expect(cube).to_have_attribute("data-offered", "true")
    expect(cube).to_have_attribute("data-owner", "me")
    expect(cube).to_have_attribute("aria-label", "cube 2, offered to me")

    by(page, "take-button").click()
    expect(root).to_have_attribute("data-event-count", str(doubled.event_count + 1))
    expect(cube).to_have_attribute("aria-label", "cube 2, mine")
    expect(cube).not_to_have_attribute("data-offered", "true")
    moves = [m for m in animated(page) if m["kind"] == "cube"]
    assert [(m["seat"], m["to"]) for m in moves][-1] == ("SEAT_0", 2)
