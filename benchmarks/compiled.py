"""What a compiled build of the unchanged engine would give: mypyc against pure Python.

    .venv/bin/python -m benchmarks.compiled [--repeats 9] [--rounds 3]

Copies ``engine/`` to a temporary folder and compiles its move generators there with mypyc (the
compiler that comes with mypy; it needs a C compiler), changing nothing in the source. Then fresh
processes, each importing one build, check it against the corpora's play counts and time the
uncached ``generate_plays`` over both perft corpora and gnubg-nn's ``moves`` over the backgammon
one, alternately, keeping the fastest of ``--repeats``. The two builds' processes take turns,
``--rounds`` each, and the fastest timing of each is kept. Prints each build's speed as a fraction
of gnubg-nn's (measured in the same processes), and the compiled build's speed against the pure
one's. Nothing is installed, and the temporary folder is removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The move generators and their base class.
COMPILED = ["engine/backgammon.py", "engine/long_nardi.py", "engine/variant.py"]


def measure(repeats: int) -> dict[str, float]:
    """In this process: check the engine it imports against the perft counts, then time it."""
    import tavli.engine.backgammon
    from benchmarks.growth import corpus, engine_run, fastest, gnubg_run
    from tavli.engine import BACKGAMMON, LONG_NARDI

    backgammon, long_nardi = corpus("perft-backgammon.txt"), corpus("perft-long-nardi.txt")
    for variant, rows in ((BACKGAMMON, backgammon), (LONG_NARDI, long_nardi)):
        wrong = sum(len(variant.generate_plays(position, dice)) != count for position, dice, count in rows)
        if wrong:
            raise SystemExit(f"{variant.name}: {wrong} positions disagree with the perft counts")
    runs = [engine_run(BACKGAMMON, backgammon), engine_run(LONG_NARDI, long_nardi), gnubg_run(backgammon)]
    timings = dict(zip(("backgammon", "long-nardi", "gnubg-nn"), fastest(runs, repeats)))
    timings["compiled"] = float(not str(tavli.engine.backgammon.__file__).endswith(".py"))
    return timings


def child(root: Path, repeats: int) -> dict[str, float]:
    command = [sys.executable, "-m", "benchmarks.compiled", "--child", "--repeats", str(repeats)]
    # ``root``'s engine first, its Python code only: the Cython core is not what this measures.
    environment = {**os.environ, "PYTHONPATH": f"{root}:{REPO}", "TAVLI_PURE": "1"}
    done = subprocess.run(
        command, cwd=root, env=environment, capture_output=True, text=True, check=False, timeout=900
    )
    if done.returncode:
        raise SystemExit(f"the measuring process failed:\n{done.stderr}")
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


def build(folder: Path) -> None:
    shutil.copytree(REPO / "engine", folder / "engine")
    mypyc = Path(sys.executable).with_name("mypyc")
    done = subprocess.run(
        [str(mypyc), *COMPILED], cwd=folder, capture_output=True, text=True, check=False, timeout=600
    )
    if done.returncode:
        raise SystemExit(
            "mypyc failed (it needs mypy, from the 'bench' extra, and a C compiler):\n"
            + done.stdout
            + done.stderr
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--repeats", type=int, default=9, help="timings of each run; the fastest is kept (default 9)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="processes of each build, in turn (default 3)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        print(json.dumps(measure(arguments.repeats)))
        return
    with tempfile.TemporaryDirectory(prefix="tavli-mypyc-") as temporary:
        folder = Path(temporary)
        started = time.monotonic()
        build(folder)
        print(f"mypyc compiled {', '.join(COMPILED)} in {time.monotonic() - started:.0f} s")
        pure: dict[str, float] = {}
        compiled: dict[str, float] = {}
        for _ in range(arguments.rounds):  # the builds' processes in turn, so that load hits both alike
            for timings, root in ((pure, REPO), (compiled, folder)):
                for label, seconds in child(root, arguments.repeats).items():
                    timings[label] = min(timings.get(label, seconds), seconds)
    if not compiled["compiled"] or pure["compiled"]:
        raise SystemExit("the builds were not the ones meant: check PYTHONPATH")
    header = f"{'build':<9} {'backgammon vs gnubg-nn (same process)':>37} {'backgammon ms':>14}"
    header += f" {'long nardi ms':>14}"
    print(f"\n{header}")
    for name, timings in (("pure", pure), ("compiled", compiled)):
        print(
            f"{name:<9} {timings['gnubg-nn'] / timings['backgammon']:>36.3f}x"
            f" {timings['backgammon'] * 1000:>14.1f} {timings['long-nardi'] * 1000:>14.1f}"
        )
    for variant in ("backgammon", "long-nardi"):
        print(f"compiled vs pure, {variant} enumeration: {pure[variant] / compiled[variant]:.2f}x the speed")


if __name__ == "__main__":
    main()
