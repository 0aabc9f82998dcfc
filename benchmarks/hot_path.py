"""Where a running server spends its time: py-spy's samples of a process, summed by function.

Used by ``benchmarks.load --profile KIND``; on its own, for any process of yours:

    .venv/bin/python -m benchmarks.hot_path PID [--seconds 5]

Records with ``py-spy record --format raw --nonblocking`` (the process is not paused, so the
profile barely slows it) and prints the functions holding the most samples: "total" counts the
samples a function was anywhere on the stack, "self" those where it was running itself. Needs
py-spy (the ``bench`` extra) and permission to read the process's memory (root, or ptrace).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

_LINE_NUMBER = re.compile(r":\d+\)$")


def py_spy() -> str:
    found = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(found).exists():
        raise RuntimeError("py-spy is not installed: pip install -e '.[bench]'")
    return found


def start_recording(pid: int, seconds: float, output: Path, *, rate: int = 250) -> subprocess.Popen[bytes]:
    """Start sampling ``pid`` for ``seconds``; wait on the returned process before reading ``output``."""
    command = [
        py_spy(),
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(max(1, round(seconds))),
        "--rate",
        str(rate),
        "--format",
        "raw",
        "--output",
        str(output),
        "--nonblocking",
        "--gil",
    ]
    return subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def summarize(raw: Path, *, top: int = 25) -> list[str]:
    """The ``top`` functions by total samples, with their self samples, as lines to print."""
    total: Counter[str] = Counter()
    own: Counter[str] = Counter()
    samples = 0
    for line in raw.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        # The first frame names the process or thread when py-spy adds one; frames are "function (file:line)".
        frames = [_LINE_NUMBER.sub(")", frame) for frame in stack.split(";") if "(" in frame]
        if not frames:
            continue
        samples += count
        for frame in set(frames):
            total[frame] += count
        own[frames[-1]] += count
    lines = [f"{samples} samples; total% = on the stack, self% = running itself"]
    for frame, count in total.most_common(top):
        lines.append(
            f"  total {100 * count / samples:5.1f}%  self {100 * own[frame] / samples:5.1f}%  {_short(frame)}"
        )
    lines.append("the most self time:")
    for frame, count in own.most_common(12):
        lines.append(f"  self {100 * count / samples:5.1f}%  {_short(frame)}")
    return lines


def _short(frame: str) -> str:
    return re.sub(r"\(/[^)]*?/(site-packages|python3\.\d+|main)/", "(", frame)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pid", type=int)
    parser.add_argument("--seconds", type=float, default=5.0)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "profile.txt"
        recorder = start_recording(arguments.pid, arguments.seconds, output)
        _, errors = recorder.communicate(timeout=arguments.seconds + 30)
        if recorder.returncode:
            raise SystemExit(f"py-spy failed: {errors.decode(errors='replace').strip()}")
        print("\n".join(summarize(output)))


if __name__ == "__main__":
    main()
