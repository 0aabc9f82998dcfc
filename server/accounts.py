"""Accounts and their API keys: made, proven and revoked.

A key is 32 random bytes (256 bits) in URL-safe base64 after the prefix ``tvk_``; only its
HMAC-SHA256 under the server's key (:meth:`ServerKey.api_key_hash`) is stored. A keyed fast hash,
not a password hash (bcrypt, Argon2): a password hash makes guessing a weak secret slow, but a key
of 256 random bits cannot be guessed however fast each guess is, so a password hash would only
make every call slower. Keyed, so that a copy of the database alone does not even let one test a
guess. A key is shown once, when it is made; it is never logged (the RPC log line names the
method, its status and the game, never metadata).

A call acts for an account by carrying a key in its metadata, ``authorization: Bearer KEY``.
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

import grpc

from tavli.server.errors import BadRequest, ServiceError
from tavli.server.keys import ServerKey
from tavli.server.ladder_records import AccountRecord, HandleTaken
from tavli.server.players import MOST_CHARACTERS
from tavli.server.sql_store import SqlStore

KEY_PREFIX = "tvk_"
SERVER_BOT_PREFIX = "server-"
"""How the handles of the accounts of the server's own bots begin; no other account's may."""
KINDS = ("human", "bot")
_HANDLE = re.compile(r"[a-z][a-z0-9_-]{2,23}")
_METADATA_KEY = "authorization"
_SCHEME = "bearer "


class MissingApiKey(ServiceError):
    status = grpc.StatusCode.UNAUTHENTICATED
    reason = "MISSING_API_KEY"


class UnknownApiKey(ServiceError):
    """A key the server never gave, or one revoked."""

    status = grpc.StatusCode.UNAUTHENTICATED
    reason = "UNKNOWN_API_KEY"


class AccountCreationClosed(ServiceError):
    status = grpc.StatusCode.PERMISSION_DENIED
    reason = "ACCOUNT_CREATION_CLOSED"


class HandleTakenError(ServiceError):
    status = grpc.StatusCode.ALREADY_EXISTS
    reason = "HANDLE_TAKEN"


class InvalidHandle(ServiceError):
    reason = "INVALID_HANDLE"


class AccountNotFound(ServiceError):
    status = grpc.StatusCode.NOT_FOUND
    reason = "ACCOUNT_NOT_FOUND"


class NotYourSeat(ServiceError):
    """An action on a ladder game's seat without the key of the account that plays it."""

    status = grpc.StatusCode.PERMISSION_DENIED
    reason = "NOT_YOUR_SEAT"


def handle_of(given: str) -> str:
    """The handle ``given`` names, in lower case (handles are compared without regard to case).

    :raises InvalidHandle: for one not of 3 to 24 letters, digits, '-' or '_' starting with a letter.
    """
    handle = given.lower()
    if not _HANDLE.fullmatch(handle) or not handle.isascii():
        raise InvalidHandle(
            f"{given[:40]!r} is not a handle: 3 to 24 letters, digits, '-' or '_', starting with a letter"
        )
    return handle


def display_name_of(given: str, handle: str) -> str:
    """The display name ``given`` (the handle if empty).

    :raises BadRequest: for one too long or holding a control character.
    """
    name = given.strip()
    if len(name) > MOST_CHARACTERS:
        raise BadRequest(f"a display name has at most {MOST_CHARACTERS} characters")
    if any(unicodedata.category(character) in ("Cc", "Zl", "Zp") for character in name):
        raise BadRequest("the display name holds a control character: write it without")
    return name or handle


def new_api_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def key_in(metadata: Iterable[tuple[str, Any]] | None) -> str | None:
    """The API key a call's ``metadata`` carries (``authorization: Bearer KEY``), or None."""
    for name, value in metadata or ():
        if name.lower() == _METADATA_KEY and isinstance(value, str) and value.lower().startswith(_SCHEME):
            return value[len(_SCHEME) :].strip()
    return None


class Accounts:
    """The accounts of a store, and the proof of who a call acts for."""

    def __init__(self, records: SqlStore, key: ServerKey, *, clock: Callable[[], float] = time.time) -> None:
        self.records = records
        self.key = key
        self.clock = clock

    def create(
        self, handle: str, display_name: str = "", kind: str = "human", *, server_bot: bool = False
    ) -> tuple[AccountRecord, str]:
        """Make an account and its first key; returns both (the key, to be shown once).
        ``server_bot``: the account of one of the server's own bots (its handle begins ``server-``).

        :raises InvalidHandle, BadRequest: for a handle or name that cannot be one.
        :raises HandleTakenError: if the handle is taken.
        """
        if kind not in KINDS:
            raise BadRequest(f"an account is one of {', '.join(KINDS)}")
        handle = handle_of(handle)
        if handle.startswith(SERVER_BOT_PREFIX) != server_bot:
            raise InvalidHandle(f"handles beginning {SERVER_BOT_PREFIX!r} are those of the server's own bots")
        account = AccountRecord(handle, display_name_of(display_name, handle), kind, False, self.clock())
        api_key = new_api_key()
        try:
            self.records.add_account(account, self.key.api_key_hash(api_key))
        except HandleTaken:
            raise HandleTakenError(f"the handle {handle!r} is taken: choose another") from None
        return account, api_key

    def new_key(self, handle: str) -> str:
        """Make another key for ``handle``.

        :raises AccountNotFound: if there is no such account.
        """
        account = self.get(handle)
        api_key = new_api_key()
        self.records.add_api_key(account.handle, self.key.api_key_hash(api_key), self.clock())
        return api_key

    def revoke(self, handle: str) -> int:
        """Revoke every key of ``handle``; returns how many were in force.

        :raises AccountNotFound: if there is no such account.
        """
        return self.records.revoke_api_keys(self.get(handle).handle, self.clock())

    def get(self, handle: str) -> AccountRecord:
        """:raises AccountNotFound: if there is no account ``handle``."""
        account = self.records.account(handle.lower())
        if account is None:
            raise AccountNotFound(f"there is no account {handle[:40]!r}")
        return account

    def holder_of(self, api_key: str | None) -> AccountRecord:
        """The account whose key in force ``api_key`` is.

        :raises MissingApiKey: for no key.
        :raises UnknownApiKey: for a key the server never gave, or one revoked.
        """
        if not api_key:
            raise MissingApiKey(
                "this call acts for an account: send its API key as the metadata `authorization: Bearer KEY`"
            )
        account = self.records.account_of_key(self.key.api_key_hash(api_key))
        if account is None:
            raise UnknownApiKey("that API key is not one in force: it was never given, or it was revoked")
        return account
