"""The committed generated code is what proto/generate.py makes from the .proto files now.

A .proto file changed without regenerating (or generated code edited by hand) fails here, with
the command that fixes it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "proto" / "tavli" / "v1"
GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py")
DESCRIPTOR_SET = "descriptors.binpb"  # every file's descriptor with its comments, for reflection


def generated_files(folder: Path) -> dict[str, bytes]:
    return {
        path.name: path.read_bytes()
        for path in sorted(folder.iterdir())
        if path.name.endswith(GENERATED_SUFFIXES) or path.name == DESCRIPTOR_SET
    }


def test_the_committed_generated_code_is_up_to_date(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, str(REPO / "proto" / "generate.py"), "--out", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, f"proto/generate.py failed:\n{completed.stdout}{completed.stderr}"
    fresh = generated_files(tmp_path / "tavli" / "v1")
    committed = generated_files(COMMITTED)
    protos = sorted(path.stem for path in COMMITTED.glob("*.proto"))

    expected = [f"{stem}{suffix}" for stem in protos for suffix in GENERATED_SUFFIXES] + [DESCRIPTOR_SET]
    assert sorted(fresh) == sorted(expected)
    assert sorted(committed) == sorted(fresh), "generated files without a .proto, or a .proto never generated"
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert not stale, f"stale generated code: {stale}; run `python proto/generate.py` and commit the result"
