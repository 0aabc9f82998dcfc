"""Generate the Python code of the tavli.v1 API next to its .proto files; the output is committed.

    python proto/generate.py            # write proto/tavli/v1/*_pb2*.py(i) and descriptors.binpb
    python proto/generate.py --out DIR  # write into DIR instead (the staleness test compares)

Compiled with ``-I proto`` so that the generated modules import each other as ``tavli.v1``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from grpc_tools import protoc

PROTO_ROOT = Path(__file__).resolve().parent
SOURCES = sorted((PROTO_ROOT / "tavli" / "v1").glob("*.proto"))
DESCRIPTOR_SET = "descriptors.binpb"  # every tavli.v1 file's descriptor, comments included


def generate(out: Path) -> None:
    """Compile every tavli.v1 .proto file into ``out`` (a folder that holds ``tavli/v1``)."""
    (out / "tavli" / "v1").mkdir(parents=True, exist_ok=True)
    well_known = Path(protoc.__file__).resolve().parent / "_proto"
    arguments = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"-I{well_known}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *(str(source.relative_to(PROTO_ROOT)) for source in SOURCES),
    ]
    if protoc.main(arguments) != 0:
        sys.exit("protoc failed")
    # The same files as descriptors with their comments (the generated modules keep none), for
    # server reflection to serve (server/reflection.py).
    descriptors = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"-I{well_known}",
        "--include_source_info",
        f"--descriptor_set_out={out / 'tavli' / 'v1' / DESCRIPTOR_SET}",
        *(str(source.relative_to(PROTO_ROOT)) for source in SOURCES),
    ]
    if protoc.main(descriptors) != 0:
        sys.exit("protoc failed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PROTO_ROOT)
    generate(parser.parse_args().out)


if __name__ == "__main__":
    main()
