"""The named tables players know (International, Money, Israeli café, ...), as rule sets.

The presets are data, ``presets.json`` beside this module, shared with the web table, which reads
the same file when it is built: a preset's ``rules`` name the options of :class:`RuleSet` by
their field names, with the engine's values ("long-nardi", "WINNER_ROLLS_AGAIN", ...).

    >>> from tavli.engine.presets import PRESETS
    >>> PRESETS["money"].rule_set().beavers
    True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

from tavli.engine.rules import RuleSet

RULE_OPTIONS = frozenset(
    {
        "variant",
        "match_length",
        "cube",
        "crawford",
        "jacoby",
        "beavers",
        "automatic_doubles",
        "opening",
        "match_openings",
        "auto_play_forced",
    }
)
"""The options every preset names, so that choosing one sets every rule a player can see."""

OPTIONAL_RULE_OPTIONS = frozenset(
    {
        "backgammons",
        "start",
        "home_hit_and_run",
        "pinned_blocks_bear_off",
        "mother_exception",
        "mother_value",
        "first_checker",
        "fevga_primes",
        "fevga_quarter_test",
    }
)
"""Options a preset names only where it departs from the rule book's default."""


@dataclass(frozen=True, slots=True)
class Preset:
    """One named table: its key (``"israeli-cafe"``), its title and description in words, and the
    options of its rule set."""

    key: str
    title: str
    description: str
    rules: Mapping[str, Any]

    def rule_set(self) -> RuleSet:
        """The preset's rule set.

        :raises InvalidRuleSetError: if the preset's options contradict each other.
        """
        return RuleSet(**self.rules)


def presets_from_json(text: str) -> Mapping[str, Preset]:
    """The presets of a presets file's text, by key.

    :raises ValueError: for a preset that leaves out one of :data:`RULE_OPTIONS` or names an
        option no rule set has.
    """
    presets: dict[str, Preset] = {}
    for entry in json.loads(text)["presets"]:
        rules = dict(entry["rules"])
        missing = RULE_OPTIONS - rules.keys()
        unknown = rules.keys() - RULE_OPTIONS - OPTIONAL_RULE_OPTIONS
        if missing or unknown:
            raise ValueError(
                f"preset {entry['key']!r}: missing options {sorted(missing)}, unknown options "
                f"{sorted(unknown)}"
            )
        presets[entry["key"]] = Preset(
            key=entry["key"],
            title=entry["title"],
            description=entry["description"],
            rules=MappingProxyType(rules),
        )
    return MappingProxyType(presets)


PRESETS: Mapping[str, Preset] = presets_from_json(
    resources.files("tavli.engine").joinpath("presets.json").read_text(encoding="utf-8")
)
"""Every preset by its key, in the order the page offers them."""
