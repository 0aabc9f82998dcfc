"""``tavli accounts``: create prints the key as its last line, list, revoke, key; only a keyed
hash of a key is stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tavli.clients.cli import main
from tavli.server.accounts import Accounts, UnknownApiKey
from tavli.server.keys import ServerKey
from tavli.server.sqlite_store import SqliteStore


def tavli(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(list(arguments))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_create_prints_the_new_accounts_key_as_its_last_line_and_stores_only_its_hash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "tavli.sqlite3"
    status, out, _ = tavli(
        capsys, "accounts", "create", "Gnu-Bot", "--bot", "--name", "Gnu Bot", "--db", str(db)
    )
    assert status == 0
    key = out.splitlines()[-1]
    assert key.startswith("tvk_") and len(key) > 40
    store = SqliteStore(db)
    try:
        account = Accounts(store, ServerKey.beside(db)).holder_of(key)
        assert (account.handle, account.display_name, account.kind) == ("gnu-bot", "Gnu Bot", "bot")
    finally:
        store.close()
    stored = db.read_bytes() + b"".join(path.read_bytes() for path in tmp_path.glob("*-wal"))
    assert key.encode() not in stored
    with sqlite3.connect(db) as connection:
        (key_hash,) = connection.execute("SELECT key_hash FROM api_keys").fetchone()
    assert key_hash == ServerKey.beside(db).api_key_hash(key) and key not in key_hash


def test_list_revoke_and_another_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "tavli.sqlite3")
    first = tavli(capsys, "accounts", "create", "alice", "--db", db)[1].splitlines()[-1]
    tavli(capsys, "accounts", "create", "bob", "--bot", "--db", db)
    status, out, _ = tavli(capsys, "accounts", "list", "--db", db)
    assert status == 0 and out.splitlines() == ["alice\thuman\talice", "bob\tbot\tbob"]
    status, out, _ = tavli(capsys, "accounts", "revoke", "ALICE", "--db", db)
    assert status == 0 and out.strip() == "revoked 1 key(s) of alice"
    second = tavli(capsys, "accounts", "key", "alice", "--db", db)[1].strip()
    store = SqliteStore(Path(db))
    try:
        accounts = Accounts(store, ServerKey.beside(Path(db)))
        with pytest.raises(UnknownApiKey):
            accounts.holder_of(first)
        assert accounts.holder_of(second).handle == "alice"
    finally:
        store.close()


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (("create", "alice"), "the handle 'alice' is taken"),
        (("create", "1st"), "is not a handle"),
        (("create", "ab"), "is not a handle"),
        (("create", "server-random", "--bot"), "those of the server's own bots"),
        (("revoke", "nobody"), "there is no account 'nobody'"),
    ],
)
def test_refusals_are_one_line_and_change_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: tuple[str, ...], words: str
) -> None:
    db = str(tmp_path / "tavli.sqlite3")
    tavli(capsys, "accounts", "create", "alice", "--db", db)
    status, out, err = tavli(capsys, "accounts", *arguments, "--db", db)
    assert status == 1 and out == "" and words in err and len(err.splitlines()) == 1
    assert tavli(capsys, "accounts", "list", "--db", db)[1].splitlines() == ["alice\thuman\talice"]


def test_accounts_names_the_database_and_the_key_in_serves_own_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def options_help(*command: str) -> str:
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        return text[text.index("--db DB ") : text.index("(default: the SQLite file's name with .key;")]

    serve = options_help("serve")
    assert "postgresql://" in serve and "--key-file KEY_FILE" in serve
    for action in ("create", "list", "revoke", "key"):
        assert options_help("accounts", action) == serve
