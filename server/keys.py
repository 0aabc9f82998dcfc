"""The server's key: the one secret from which every seat token and every secret dice seed is
derived, so that none of them is ever stored.

A seat's token is an HMAC of the key, the game's name and the seat; the seed of a verifiable
game's n-th game an HMAC of the key, the game's name and n. The key lives in a file of its own
beside the database (``tavli.sqlite3.key``, readable by its owner alone) or where ``--key-file``
says (a PostgreSQL database has no file to keep it beside), so that a copy of the database gives
away no seat and no die; servers sharing a database share its key file.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from tavli.server.startup import StartupError

KEY_BYTES = 32


class ServerKey:
    def __init__(self, key: bytes) -> None:
        if len(key) < KEY_BYTES:
            raise ValueError(f"a server key holds at least {KEY_BYTES} bytes")
        self._key = key

    @classmethod
    def fresh(cls) -> ServerKey:
        """A key for a server whose games die with it (the memory store)."""
        return cls(secrets.token_bytes(KEY_BYTES))

    @classmethod
    def beside(cls, database: Path) -> ServerKey:
        """The key kept beside the SQLite file ``database``, made on first use.

        :raises StartupError: if the key file cannot be read or made.
        """
        return cls.in_file(database.with_name(database.name + ".key"))

    @classmethod
    def in_file(cls, path: Path) -> ServerKey:
        """The key kept in the file ``path``, made on first use.

        :raises StartupError: if the key file cannot be read or made.
        """
        try:
            return cls(_read_or_make(path))
        except (OSError, ValueError) as error:
            raise StartupError(f"cannot read or make the server key {path}: {error}") from None

    def seat_token(self, game: str, seat: int) -> str:
        """The secret token of ``seat`` at ``game``."""
        digest = self._mac(f"seat-token:{game}:{seat}")
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")

    def dice_seed(self, game: str, number: int) -> bytes:
        """The secret seed of game ``number`` of the match ``game``, with verifiable dice."""
        return self._mac(f"dice-seed:{game}:{number}")

    def api_key_hash(self, api_key: str) -> str:
        """What is stored of an account's API key: its HMAC under this key, in hex
        (:mod:`tavli.server.accounts` says why a keyed fast hash)."""
        return self._mac(f"api-key:{api_key}").hex()

    def _mac(self, message: str) -> bytes:
        return hmac.new(self._key, message.encode("utf-8"), hashlib.sha256).digest()


def same_token(token: str, expected: str) -> bool:
    """Whether ``token``, as a client sent it, is the token ``expected`` (compared in constant time)."""
    return hmac.compare_digest(token.encode("utf-8", "replace"), expected.encode("ascii"))


def _read_or_make(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    # Written aside, then linked into place: two servers starting at once agree on one key.
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(secrets.token_bytes(KEY_BYTES))
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass
    finally:
        temporary.unlink(missing_ok=True)
    return path.read_bytes()
