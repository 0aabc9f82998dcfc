"""A record's verdict (``tavli check-match``'s) with the compiled core's one pass against the pure
reader and checker it stands for: the same players, games, score and problems (game, move, line,
side and words) for the real records, the project's test records, generated matches of both
variants and copies of them spoiled line by line (a bad play, a wrong roll, a contradictory result,
a cube turned wrong, a line lost)."""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tavli.clients.check_match_command import report
from tavli.engine import core
from tavli.engine.matfile import MatFileError, check_match_record, checking, export_mat
from tavli.engine.matfile.checking import rules_of
from tavli.engine.matfile.reading import decode, read_header
from tavli.engine.matfile.summary import summarize_record
from tavli.engine.rules import RuleSet
from tests.games import bot_match

TESTS = Path(__file__).resolve().parents[1]
REALMAT = TESTS.parents[1] / "shared" / "realmat"
REAL_FILES = sorted(path for path in REALMAT.rglob("*") if path.is_file() and path.name != "README.md")
DATA_FILES = sorted((TESTS / "data").glob("mat*/*.mat"))

# Generated matches: backgammon as the core's pass plays it (1-point, Crawford and not, money with
# Jacoby and beavers), and long nardi and another start, which the pure checker reads alone.
GENERATED_RULES = (
    RuleSet(match_length=1),
    RuleSet(match_length=5),
    RuleSet(match_length=7, crawford=False, cube_limit=1024),
    RuleSet(jacoby=True, beavers=True),
    RuleSet(variant="long-nardi", match_length=3),
    RuleSet(match_length=3, start="NACKGAMMON"),
)


@contextmanager
def with_the_core() -> Iterator[None]:
    """The engine with its compiled core, also in the pass on the pure engine (TAVLI_PURE=1)."""
    compiled = core.compiled
    core.compiled = importlib.import_module("tavli.engine._core")
    try:
        yield
    finally:
        core.compiled = compiled


def verdict(text: str) -> dict[str, Any] | str:
    """``check-match --json``'s object for the record by the reader and checker in Python (a
    ``MatFileError``'s words for a record that cannot be read), on the engine the pass runs."""
    try:
        checked = check_match_record(text)
    except MatFileError as error:
        return str(error)
    problems = [
        {"game": p.game, "move": p.move, "line": p.line, "side": p.side, "message": p.message}
        for p in checked.problems
    ]
    return {
        "file": "record",
        "match_length": checked.rules.match_length,
        "games": len(checked.games),
        "score": list(checked.score),
        "problems": problems,
        "players": checked.record.players,
    }


def summarized(text: str) -> dict[str, Any] | str:
    """The same object from :func:`summarize_record` with the compiled core, as ``check-match``
    prints it."""
    with with_the_core():
        try:
            summary = summarize_record(text)
        except MatFileError as error:
            return str(error)
    return report("record", summary) | {"players": summary.players}


def core_pass(text: str) -> Any:
    """What the core's one pass over the record's games answers (None: not for the whole record)."""
    lines = text.lstrip("\ufeff").splitlines()
    tags, length, start = read_header(lines)
    rules = rules_of(tags, length)
    with with_the_core():
        assert core.compiled is not None
        return core.compiled.check_mat_games(
            core.compiled.MatText(text.encode()),
            start,
            length,
            rules.crawford,
            rules.jacoby,
            rules.uses_cube,
            rules.highest_cube,
        )


def answered_by_the_core(text: str) -> bool:
    """Whether the core's one pass answered for the whole record."""
    return core_pass(text) is not None


def generated(*, beaver: float = 0.3, rules: tuple[RuleSet, ...] = GENERATED_RULES) -> list[str]:
    records = []
    for number, rule_set in enumerate(rules):
        for seed in range(3):
            match = bot_match(rule_set, 100 * number + seed, games=6, resign=0.05, beaver=beaver)
            records.append(export_mat(match, players=("Alice", "Bob")))
    return records


def spoiled(text: str, rng: random.Random, copies: int) -> list[str]:
    """Copies of ``text`` with one line spoiled each: a die, a point of a play, a result's or a
    cube's number changed, a line taken out, or two lines' sides swapped."""
    lines = text.splitlines()
    moves = [index for index, line in enumerate(lines) if re.match(r"\s*\d+\)", line)]
    results = [index for index, line in enumerate(lines) if re.search(r"Wins|Losses|Doubles", line)]
    made = []
    for _ in range(copies):
        spoilt = list(lines)
        index = rng.choice(results if results and rng.random() < 0.3 else moves)
        line = spoilt[index]
        how = rng.randrange(4)
        if how == 3:
            del spoilt[index]
        else:
            digits = [found.start() for found in re.finditer(r"\d", line[5:])]
            if not digits:
                continue
            at = 5 + rng.choice(digits)
            digit = str((int(line[at]) + rng.randint(1, 5)) % 10 or 1)
            spoilt[index] = line[:at] + digit + line[at + 1 :]
        made.append("\n".join(spoilt) + "\n")
    return made


def unrecorded(text: str, rng: random.Random, copies: int) -> list[str]:
    """Copies of ``text`` with one move or play not recorded, as real records write it: a roll's
    play written ``???``, a column's whole entry ``???``, ``???`` after a play, or a game's first
    move so."""
    lines = text.splitlines()
    moves = [index for index, line in enumerate(lines) if re.match(r"\s*\d+\) ", line)]
    made = []
    for _ in range(copies):
        index = rng.choice(moves[:3] if rng.random() < 0.2 else moves)
        line = lines[index]
        rolls = list(re.finditer(r"[1-6][1-6]: ?", line))
        how = rng.randrange(3)
        if rolls and how == 0:  # the play
            roll = rng.choice(rolls)
            rest = line[roll.end() :]
            gap = re.search(r"\s{2,}", rest)
            spoilt = (
                line[: roll.end()]
                + rng.choice(["???", "????", " ??? "])
                + (rest[gap.start() :] if gap else "")
            )
        elif rolls and how == 1:  # the whole entry
            roll = rng.choice(rolls)
            spoilt = line[: roll.start()] + "???" + line[roll.end() + 2 :]
        else:  # after what the line holds
            spoilt = line + rng.choice(["   ???", " ??"])
        made.append("\n".join([*lines[:index], spoilt, *lines[index + 1 :]]) + "\n")
    return made


def hostile(text: str) -> list[str]:
    """Copies of ``text`` with what a careless or hostile writer puts in a line: a very long line,
    more entries than a line holds, numbers of ten digits, other scripts' digits and spaces, a NUL,
    a play of five moves."""
    lines = text.splitlines()
    move = next(index for index, line in enumerate(lines) if re.match(r"\s*\d+\) \d\d: \S", line))
    line = lines[move]
    changed = [
        line + " " * 100_000 + "x",
        line + " 52: 13/8" * 100,
        line.replace(")", ")", 1).replace(line.split(")")[0], " 1234567890", 1),
        line.replace("1", "\u0661", 1),
        line.replace(" ", "\u00a0", 3),
        line.replace(" ", "\x00", 3),
        line.replace(":", ": 24/23 24/23 13/12 13/12 8/7", 1),
        line.replace("/", "/ /", 1),
        line + " Wins 1234567890 points",
    ]
    return ["\n".join([*lines[:move], spoilt, *lines[move + 1 :]]) for spoilt in changed]


def written_otherwise(text: str) -> list[str]:
    """Copies of ``text`` with what the core's pass reads from the record's bytes as the reader
    reads the text: every line break ``str.splitlines`` knows, byte-order marks, names in other
    scripts (the right column found by characters, not bytes), and other scripts' spaces where the
    reader's ``\\s`` skips them (in a score line, before a game's line)."""
    lines = text.splitlines()
    score = next(index for index, line in enumerate(lines) if re.match(r".*:\s*\d+\s.*:\s*\d+\s*$", line))
    game = next(index for index, line in enumerate(lines) if re.match(r"\s*Game \d+", line))
    names = re.sub(r"^(\s*)\S", r"\1Ünal Çelik ", lines[score])
    copies = ["\r\n".join(lines), "\r".join(lines) + "\r", "\ufeff\ufeff" + text, "\n\n".join(lines)]
    copies += [
        break_.join(lines) for break_ in ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
    ]
    for index, line in (
        (score, names),
        (score, re.sub(r"(\d+)(\s+)", "\\1\u00a0\\2", lines[score], count=1)),
        (score, re.sub(r":\s*", ":\u3000", lines[score], count=1)),
        (score, lines[score] + "\u2003"),
        (game, "\u00a0" + lines[game]),
        (game + 1, "\u00a0" + lines[game + 1]),
        (game + 2, "\u00a0"),
        (game + 2, lines[game + 2] + "\x1f"),
    ):
        copies.append("\n".join([*lines[:index], line, *lines[index + 1 :]]) + "\n")
    return copies


def test_the_core_splits_a_records_bytes_into_the_lines_of_its_text() -> None:
    texts = [
        "",
        "\n",
        "a",
        "a\n",
        "a\r\n\r\nb",
        "\ufeff\ufeffa\rb\n",
        "é\x85ü\u2028x\u2029\x1c\x1d\x1e\x0b\x0c",
    ]
    texts += written_otherwise(decode(REAL_FILES[0].read_bytes()))
    with with_the_core():
        assert core.compiled is not None
        split = [len(core.compiled.MatText(text.encode())) for text in texts]
    assert split == [len(text.lstrip("\ufeff").splitlines()) for text in texts]


def test_the_right_column_is_found_by_characters_in_a_name_of_another_script() -> None:
    """The left name's 14 characters are 28 bytes: the right column starts at the 19th character
    (its name's 25th less 6), and the first play and the result stand at the 20th, the right
    player's."""
    text = (
        " 1 point match\n\n Game 1\n"
        " ĞĞĞĞĞĞĞĞĞĞĞĞĞĞ : 0      Bob : 0\n"
        "  1)                42: 8/4 6/4\n"
        "  2) 31: 8/5 6/5\n"
        "  3)                Wins 1 point\n"
    )
    expected = verdict(text)
    assert isinstance(expected, dict)
    assert expected["score"] == [0, 1] and expected["problems"] == []
    assert answered_by_the_core(text)
    assert summarized(text) == expected


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any] | str]:
    """Every record to compare, with its verdict by the checker in Python."""
    texts = [decode(path.read_bytes()) for path in REAL_FILES + DATA_FILES] + generated()
    rng = random.Random(20261203)
    spoilt = [copy for text in texts for copy in spoiled(text, rng, 1)]
    texts += spoilt + [copy for text in texts for copy in unrecorded(text, rng, 1)] + hostile(texts[0])
    texts += [copy for text in texts[:3] + generated()[:2] for copy in written_otherwise(text)]
    return {text: verdict(text) for text in texts}


def test_the_core_answers_as_the_pure_checker_for_every_record(records: dict[str, Any]) -> None:
    assert len(records) >= 2 * len(REAL_FILES) + 50
    different = [
        (text[:300], summarized(text), expected)
        for text, expected in records.items()
        if summarized(text) != expected
    ]
    assert not different, different[:3]


def test_the_spoilt_records_have_problems(records: dict[str, Any]) -> None:
    """The spoilt copies are the records with problems the comparison above needs."""
    with_problems = [found for found in records.values() if isinstance(found, str) or found["problems"]]
    assert len(with_problems) >= len(records) // 4


def test_the_core_answers_for_clean_backgammon_records_in_one_pass(records: dict[str, Any]) -> None:
    backgammon = generated(beaver=0.0, rules=GENERATED_RULES[:4])
    assert all(verdict(text)["problems"] == [] for text in backgammon)  # type: ignore[index]
    assert all(answered_by_the_core(text) for text in backgammon)
    real = [decode(path.read_bytes()) for path in REAL_FILES]
    clean = [text for text in real if records[text]["problems"] == []]
    assert sum(map(answered_by_the_core, clean)) >= 0.95 * len(clean)


@pytest.mark.parametrize(
    ("written", "problem"),
    [
        ("???", "the play is not recorded ('???')"),
        (
            "Illegal play (21;0;1;0;1;Alice;Bob;0;3;5;1;0;0)",
            "a board dump ('Illegal play (...)') stands where the play should be",
        ),
    ],
)
def test_a_game_is_stopped_at_an_unrecorded_play_without_replaying_it_in_python(
    monkeypatch: pytest.MonkeyPatch, written: str, problem: str
) -> None:
    """The core finds the game plainly clean up to its play written ``???``, or a server's board
    dump in its place: the pure checker gives the reader's problem there without replaying the
    plays before it, and the games after it are taken up from their own score lines."""
    text = generated(beaver=0.0, rules=(RuleSet(match_length=7),))[0]
    lines = text.splitlines()
    game_2 = lines.index(" Game 2")
    move = next(
        index for index in range(game_2 + 4, len(lines)) if re.match(r"\s*\d+\) \d\d: \S", lines[index])
    )
    lines[move] = re.sub(
        r"(\d\d: ).*?(\s{2,}|$)", lambda found: found[1] + written + found[2], lines[move], count=1
    )
    spoilt = "\n".join(lines) + "\n"
    expected = verdict(spoilt)
    assert isinstance(expected, dict)
    assert [(found["game"], found["line"]) for found in expected["problems"]] == [(2, move + 1)]
    assert problem in expected["problems"][0]["message"]
    replayed = []
    original = checking._GameChecker.check

    def check(checker: Any, *arguments: Any) -> Any:
        replayed.append(checker.game.number)
        return original(checker, *arguments)

    monkeypatch.setattr(checking._GameChecker, "check", check)
    assert summarized(spoilt) == expected
    assert replayed == []


def two_games(first: str, second_score: str = " Alice : 0                      Bob : 0") -> str:
    """A 3-point match whose first game's move lines are ``first`` (Alice opens with 31, Bob answers
    42), and a second game from the score line ``second_score``, Bob winning it on a dropped double."""
    return (
        " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        f"{first}\n\n Game 2\n{second_score}\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 1 point\n"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (two_games("  2)  Doubles => 4"), "Doubles => 4: that turns the cube to 2"),
        (two_games("  2)  Doubles => 0"), "Doubles => 0: that turns the cube to 2"),
        (
            two_games("  2)                             Wins 4 points"),
            "worth at most 3 points with the cube at 1",
        ),
        (two_games("Wins 1 point"), "Wins 1 point: the result does not say who lost"),
        (
            two_games("  2)                             Wins 1 point and the match"),
            "Wins 1 point and the match: player 1 has 1 of the 3 points of the match: the match is not won",
        ),
        (two_games("  2)  ???"), "the move is not recorded ('???')"),
        (two_games("  2)                             64: 24/18 13/9"), "rolls 6-4: it is not your turn"),
        (two_games("  2)  64: 13/7 13/7"), "13/7 is 6 pips, which your 6-4 cannot make"),
        (two_games("  2)  64: 25/19 13/9"), "you have no checker on the bar"),
        (two_games("  2)  64: 013/9 13/7"), "cannot read '013/9'"),
        (two_games("  2)  64: ????"), "the play is not recorded ('????')"),
        (
            two_games("  2)  64: 24/18 13/9\n  3)                             Wins 1 point and the match"),
            "player 1 has 1 of the 3 points of the match",
        ),
    ],
)
def test_the_core_names_the_problems_it_finds_in_the_checkers_words(
    monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    """A cube turned to another value, a result worth more than any resignation, a result that does
    not say who lost, "and the match" short of the match, a move or play not recorded, a roll out of
    turn, an illegal play or one that cannot be read: the core's pass names each as the checker does
    (a play's words the engine's own), with no game replayed in Python, and takes the next game up
    from its own score line."""
    expected = verdict(text)
    assert isinstance(expected, dict)
    assert [found["game"] for found in expected["problems"]] == [1]
    assert message in expected["problems"][0]["message"]
    assert answered_by_the_core(text)
    records = (text, text[: text.index(" Game 2")])  # the problem in a game before another, or last
    expected_each = [verdict(record) for record in records]
    replayed = []
    original = checking._GameChecker.check

    def check(checker: Any, *arguments: Any) -> Any:
        replayed.append(checker.game.number)
        return original(checker, *arguments)

    monkeypatch.setattr(checking._GameChecker, "check", check)
    assert [summarized(record) for record in records] == expected_each
    assert replayed == []


def test_a_result_at_the_lines_start_takes_its_side_from_the_next_games_score_line() -> None:
    """With no other result line and the game not over, the next game's score line says who won:
    the core reads it there as the checker does, and names the problem where it credits neither."""
    credited = two_games("Wins 1 point", " Alice : 1                      Bob : 0")
    assert verdict(credited)["problems"] == []  # type: ignore[index]
    assert answered_by_the_core(credited)
    assert summarized(credited) == verdict(credited)
    neither = two_games("Wins 1 point", " Alice : 1                      Bob : 1")
    expected = verdict(neither)
    assert isinstance(expected, dict)
    assert [(found["game"], found["line"], found["side"]) for found in expected["problems"]] == [(1, 6, None)]
    assert "the result does not say who lost" in expected["problems"][0]["message"]
    assert answered_by_the_core(neither)
    assert summarized(neither) == expected


def test_a_play_the_core_cannot_find_but_the_engine_finds_legal_leaves_the_record_to_the_checker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hit marked where the play hits nothing: the core does not find the play, the engine reads
    it (the mark is only a mark), so the record is the checker's, and clean."""
    text = two_games("  2)  64: 24/14*")
    text = text[: text.index(" Game 2")]  # the record's last game, which may stop unfinished
    expected = verdict(text)
    assert isinstance(expected, dict) and expected["problems"] == []
    answer = core_pass(text)
    assert answer is not None and [found[0] for found in answer[3]] == ["play"]
    replayed = []
    original = checking._GameChecker.check

    def check(checker: Any, *arguments: Any) -> Any:
        replayed.append(checker.game.number)
        return original(checker, *arguments)

    monkeypatch.setattr(checking._GameChecker, "check", check)
    assert summarized(text) == expected
    assert replayed == [1]


@pytest.mark.parametrize("words", ["Cannot Move", "Cant move", "No play"])
def test_a_roll_written_as_no_move_where_a_play_exists_is_read_as_the_checker_reads_it(words: str) -> None:
    """Words that say no move was made, where a play exists, are no play yet, as the reader makes
    them: a resignation may follow, the core's pass names no problem the checker does not."""
    text = two_games(f"  2)  64: {words:<24}Wins 1 point", " Alice : 0                      Bob : 1")
    expected = verdict(text)
    assert isinstance(expected, dict) and expected["problems"] == []
    assert summarized(text) == expected
