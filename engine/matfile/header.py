"""The rules a .mat file's header names, both ways: the rule set its tags (``; [Jacoby "On"]``) and
match length name, and the tags that write a rule set's options a .mat file does not assume."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TypeVar

from tavli.engine.backgammon import START_VALUES, Backgammon, HomeHitAndRun
from tavli.engine.matfile.problems import RulesUnknown
from tavli.engine.rules import (
    MOVE_OPTION_VALUES,
    TAVLI,
    Backgammons,
    InvalidRuleSetError,
    MatchOpenings,
    RuleSet,
)
from tavli.engine.variant import Variant
from tavli.engine.variants import VARIANTS

TAVLI_VARIATION = "Tavli"
"""The ``Variation`` tag of a Greek tavli match (tavli's own: GNU Backgammon plays none of it)."""

OPTION_TAGS = {
    "pinned_blocks_bear_off": "PinnedBlocksBearOff",
    "mother_exception": "MotherException",
    "first_checker": "FirstChecker",
    "fevga_primes": "FevgaPrimes",
    "fevga_quarter_test": "FevgaQuarterTest",
}
"""The header tags of Plakoto's and Fevga's options (with ``MotherValue``), written only where an
option is not the rule book's default: ``; [FirstChecker "IntoStartQuarter"]``."""


def option_word(value: object) -> str:
    """An option's value as its header tag writes it: ``On``/``Off``, or the engine's name in
    capitalized words run together (``START_QUARTER_AND_UNBLOCK``: ``StartQuarterAndUnblock``)."""
    if isinstance(value, bool):
        return "On" if value else "Off"
    return "".join(word.capitalize() for word in str(value).split("_"))


def time_loss_tag(number: int) -> str:
    """The header tag that says game ``number`` was lost on time: ``Game 3 Time``."""
    return f"Game {number} Time"


OPENING_WORDS = {"PLAY_OPENING_DICE": "Played", "WINNER_ROLLS_AGAIN": "WinnerRollsAgain"}
"""The ``OpeningThrow`` tag's words for the opening rules a .mat file does not assume."""

MATCH_OPENINGS_WORDS: dict[MatchOpenings, str] = {
    "EVERY_GAME": "EveryGame",
    "WINNER_OPENS": "WinnerOpens",
    "ALTERNATE": "Alternate",
}
"""The ``MatchOpenings`` tag's words: a .mat file assumes the variant's own (the opening throw before
every game, but in Plakoto and Fevga, whose matches are opened by the last winner)."""

BACKGAMMONS_WORDS: dict[Backgammons, str] = {"COUNTED": "Counted", "AS_GAMMON": "AsGammon"}
"""The ``Backgammons`` tag's words: a .mat file assumes backgammons are counted (3 times the cube)."""

HOME_HIT_AND_RUN_WORDS: dict[HomeHitAndRun, str] = {"ALLOWED": "Allowed", "FORBIDDEN": "Forbidden"}
"""The ``HomeHitAndRun`` tag's words: a .mat file assumes a hitter may run on."""


def rule_headers(rules: RuleSet) -> list[tuple[str, str]]:
    """The header lines for the rule options that differ from what a .mat file is assumed to mean."""
    default = RuleSet(variant=rules.variant, match_length=rules.match_length)
    headers = []
    variation = TAVLI_VARIATION if rules.variant == TAVLI else rules.rules.mat_variation
    if variation is not None:
        headers.append(("Variation", variation))
    if rules.is_match and not rules.crawford:
        headers.append(("Crawford", "Off"))
    if rules.jacoby:
        headers.append(("Jacoby", "On"))
    if rules.beavers:
        headers.append(("Beaver", "On"))
    if rules.cube != default.cube:
        headers.append(("Cube", "On" if rules.cube else "Off"))
    if rules.cube_limit != default.cube_limit:
        headers.append(("CubeLimit", str(rules.cube_limit)))
    if rules.automatic_doubles:
        headers.append(("AutomaticDoubles", str(rules.automatic_doubles_limit)))
    if rules.opening != default.opening:
        headers.append(("OpeningThrow", OPENING_WORDS[rules.opening or "PLAY_OPENING_DICE"]))
    if rules.match_openings != default.match_openings:
        headers.append(("MatchOpenings", MATCH_OPENINGS_WORDS[rules.match_openings or "EVERY_GAME"]))
    if rules.backgammons != default.backgammons:
        headers.append(("Backgammons", BACKGAMMONS_WORDS[rules.backgammons or "COUNTED"]))
    if rules.home_hit_and_run != default.home_hit_and_run:
        headers.append(("HomeHitAndRun", HOME_HIT_AND_RUN_WORDS[rules.home_hit_and_run]))
    if rules.mother_value != default.mother_value:
        headers.append(("MotherValue", str(rules.mother_value)))
    for option, tag in OPTION_TAGS.items():
        if getattr(rules, option) != getattr(default, option):
            headers.append((tag, option_word(getattr(rules, option))))
    return headers


_OPENING_RULES = {word.lower(): rule for rule, word in OPENING_WORDS.items()}


# The header tags that name rules: the only ones :func:`rules_of` reads.
RULE_TAGS = frozenset(
    {
        "Variation",
        "Variant",
        "Crawford",
        "Jacoby",
        "Beaver",
        "Cube",
        "CubeLimit",
        "AutomaticDoubles",
        "OpeningThrow",
        "MatchOpenings",
        "Backgammons",
        "HomeHitAndRun",
        "MotherValue",
        *OPTION_TAGS.values(),
    }
)


def rules_of(tags: Mapping[str, str], length: int) -> RuleSet:
    """The rule set a header's tags and match length name (only its :data:`RULE_TAGS` count).

    :raises RulesUnknown: for a variant tavli does not play or tags that do not go together.
    """
    named = tuple(sorted((key, value) for key, value in tags.items() if key in RULE_TAGS))
    return _rules_named(named, length)


# An archive's records name the same few rule sets again and again: each is made once.
@lru_cache(maxsize=256)
def _rules_named(named: tuple[tuple[str, str], ...], length: int) -> RuleSet:
    tags = dict(named)

    def on(key: str) -> bool | None:
        value = tags.get(key)
        return None if value is None else value.strip().lower() in ("on", "yes", "true", "1")

    options: dict[str, object] = {"match_length": length}
    variation = tags.get("Variation", tags.get("Variant"))
    if variation is not None and variation.strip().lower() == TAVLI_VARIATION.lower():
        options["variant"] = TAVLI
    elif variation is not None:
        variant = _variant_named(variation)
        options["variant"] = variant.name
        if isinstance(variant, Backgammon):
            options["start"] = variant.start
    if length and on("Crawford") is False:
        options["crawford"] = False
    if not length:
        for key, option in (("Jacoby", "jacoby"), ("Beaver", "beavers")):
            if on(key):
                options[option] = True
    if on("Cube") is not None:
        options["cube"] = on("Cube")
    for key, option in (("CubeLimit", "cube_limit"), ("AutomaticDoubles", "automatic_doubles_limit")):
        if key in tags:
            try:
                options[option] = int(tags[key])
            except ValueError:
                raise RulesUnknown(f"the header's {key} is a number, not {tags[key]!r}") from None
    if "AutomaticDoubles" in tags:
        options["automatic_doubles"] = True
    if "OpeningThrow" in tags:
        options["opening"] = _OPENING_RULES.get(tags["OpeningThrow"].lower(), tags["OpeningThrow"])
    if "MatchOpenings" in tags:
        words = tags["MatchOpenings"]
        options["match_openings"] = _option_named("MatchOpenings", words, MATCH_OPENINGS_WORDS)
    if "Backgammons" in tags:
        options["backgammons"] = _option_named("Backgammons", tags["Backgammons"], BACKGAMMONS_WORDS)
    if "HomeHitAndRun" in tags:
        words = tags["HomeHitAndRun"]
        options["home_hit_and_run"] = _option_named("HomeHitAndRun", words, HOME_HIT_AND_RUN_WORDS)
    if "MotherValue" in tags:
        try:
            options["mother_value"] = int(tags["MotherValue"])
        except ValueError:
            raise RulesUnknown(f"the header's MotherValue is 2 or 3, not {tags['MotherValue']!r}") from None
    for option, tag in OPTION_TAGS.items():
        if tag in tags:
            values = {value: option_word(value) for value in MOVE_OPTION_VALUES[option]}
            options[option] = _option_named(tag, tags[tag], values)
    try:
        return RuleSet(**options)  # type: ignore[arg-type]
    except InvalidRuleSetError as error:
        raise RulesUnknown(f"the header's rules do not go together: {error}") from None


_Option = TypeVar("_Option")


def _option_named(tag: str, words: str, options: Mapping[_Option, str]) -> _Option:
    """The option value a header tag names (``Backgammons "AsGammon"``: ``AS_GAMMON``), in any case.

    :raises RulesUnknown: for other words.
    """
    for option, word in options.items():
        if words.strip().lower() == word.lower():
            return option
    choices = " or ".join(options.values())
    raise RulesUnknown(f"the header's {tag} is {choices}, not {words!r}")


def _variant_named(variation: str) -> Variant:
    """The variant a ``Variation`` tag names, with backgammon's start (nackgammon, hypergammon, as
    GNU Backgammon names them: ``NackGammon``, ``HyperGammon (2)``); without one, a .mat file is
    backgammon's."""

    def plain(name: str) -> str:
        return re.sub(r"[\s_()-]", "", name.lower())

    other_starts = (RuleSet(start=start).rules for start in START_VALUES if start != "STANDARD")
    candidates = [*VARIANTS.values(), *other_starts]
    for variant in candidates:
        if plain(variation) in {plain(variant.title), plain(variant.mat_variation or variant.title)}:
            return variant
    *others, last = [variant.title for variant in candidates]
    raise RulesUnknown(f"tavli plays {', '.join(others)} and {last}, not {variation!r}")


__all__ = [
    "BACKGAMMONS_WORDS",
    "HOME_HIT_AND_RUN_WORDS",
    "MATCH_OPENINGS_WORDS",
    "OPENING_WORDS",
    "OPTION_TAGS",
    "RULE_TAGS",
    "TAVLI_VARIATION",
    "option_word",
    "rule_headers",
    "rules_of",
    "time_loss_tag",
]
