"""The web table as committed: its built files are the build of its source, its TypeScript API
code is what protoc-gen-es makes of the .proto files, its own unit tests pass, and the server
serves it with the headers that keep it to itself."""

from __future__ import annotations

import filecmp
import http.client
import shutil
import subprocess
from pathlib import Path

import pytest

from tavli.server.web import PAGES
from tests.server_play import running_server

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
NPX = shutil.which("npx")


def _npx(*arguments: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    if NPX is None:
        pytest.fail("npx is missing: the web table's checks need Node.js 20 or later with npm")
    if not (WEB / "node_modules").is_dir():
        pytest.fail("clients/web/node_modules is missing: ./run test installs it (npm ci)")
    return subprocess.run(
        [NPX, "--no-install", *arguments],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _differences(made: Path, committed: Path) -> list[str]:
    """The files that differ between two folders, or are only in one of them."""
    comparison = filecmp.dircmp(made, committed)
    found = [*comparison.left_only, *comparison.right_only]
    found += [
        name
        for name in comparison.common_files
        if not filecmp.cmp(made / name, committed / name, shallow=False)
    ]
    for folder in comparison.common_dirs:
        found += [f"{folder}/{name}" for name in _differences(made / folder, committed / folder)]
    return sorted(found)


def test_the_committed_page_is_the_build_of_its_source(tmp_path: Path) -> None:
    checked = _npx("tsc", "--noEmit")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    built = _npx("vite", "build", "--outDir", str(tmp_path / "dist"), "--emptyOutDir", "--logLevel", "warn")
    assert built.returncode == 0, built.stdout + built.stderr
    assert _differences(tmp_path / "dist", WEB / "dist") == [], (
        "clients/web/dist is stale: cd clients/web && npm run build"
    )


def test_the_typescript_api_is_generated_from_the_protos(tmp_path: Path) -> None:
    template = (WEB / "buf.gen.yaml").read_text().replace("out: src/gen", f"out: {tmp_path / 'gen'}")
    (tmp_path / "buf.gen.yaml").write_text(template)
    made = _npx("buf", "generate", "../../proto", "--template", str(tmp_path / "buf.gen.yaml"))
    assert made.returncode == 0, made.stdout + made.stderr
    assert _differences(tmp_path / "gen", WEB / "src" / "gen") == [], (
        "src/gen is stale: cd clients/web && npm run generate"
    )


def test_the_front_ends_own_unit_tests_pass() -> None:
    ran = _npx("vitest", "run", "--reporter=dot")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert " passed" in ran.stdout and " failed" not in ran.stdout


def test_the_page_is_served_with_headers_that_keep_it_to_itself() -> None:
    assert (PAGES / "index.html").is_file(), "clients/web/dist is not built: cd clients/web && npm run build"
    with running_server(web_port=0) as running:
        for path in ("/", "/index.html"):
            connection = http.client.HTTPConnection("127.0.0.1", running.web_port, timeout=30)
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read()
            connection.close()
            assert response.status == 200
            assert b"<html" in body.lower()
            assert "default-src 'self'" in (response.getheader("content-security-policy") or "")
            assert response.getheader("referrer-policy") == "no-referrer"
            assert response.getheader("x-content-type-options") == "nosniff"
        connection = http.client.HTTPConnection("127.0.0.1", running.web_port, timeout=30)
        connection.request("GET", "/../../pyproject.toml")
        response = connection.getresponse()
        response.read()
        connection.close()
        assert response.status == 404
