"""The long nardi reference generator agrees with every shared long nardi rule vector."""

from __future__ import annotations

import json

import pytest

from tests.conftest import SHARED_VECTORS as VECTORS

from .long_nardi_reference import decode, encode, legal_results

VECTOR_FILES = ("long-nardi.jsonl", "long-nardi-six-in-a-row.jsonl")


def _load_vectors() -> list[pytest.param]:
    params = []
    for name in VECTOR_FILES:
        lines = (VECTORS / name).read_text().splitlines()
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            row = json.loads(line)
            label = f"{name}:{number}:{row['position_id']}:{row['dice'][0]}{row['dice'][1]}"
            params.append(pytest.param(row, id=label))
    return params


VECTOR_ROWS = _load_vectors()


def test_every_vector_file_is_present_and_non_empty() -> None:
    assert len(VECTOR_ROWS) > 0
    for name in VECTOR_FILES:
        assert (VECTORS / name).stat().st_size > 0


def test_start_position_decodes_to_fifteen_on_each_head() -> None:
    player = [0] * 26
    player[24] = 15
    position_id = encode(player, list(player))
    assert decode(position_id) == (player, player)


@pytest.mark.parametrize("row", VECTOR_ROWS)
def test_position_id_round_trips(row: dict) -> None:
    player, opponent = decode(row["position_id"])
    assert encode(player, opponent) == row["position_id"]
    assert player[25] == opponent[25] == 0  # no bar in nardi


@pytest.mark.parametrize("row", VECTOR_ROWS)
def test_legal_results_match_vector(row: dict) -> None:
    player, opponent = decode(row["position_id"])
    got = sorted(legal_results(player, opponent, tuple(row["dice"])))
    assert got == row["expected"]
