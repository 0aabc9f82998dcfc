"""The Python client sends a request that carries a request_id again when the server could not be
reached or a proxy reset the call's stream, and never when the server answered."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from tavli.clients import client as client_module
from tavli.clients.client import TavliServerError


class Refusal(grpc.RpcError):
    """A failed call as grpc raises it: a status code and its details."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        self._code, self._details = code, details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details

    def trailing_metadata(self) -> tuple[()]:
        return ()  # no rich status: the code and details are all there is


class Method:
    """A stub method that fails with each refusal in turn, then answers."""

    def __init__(self, *refusals: Refusal) -> None:
        self.refusals = list(refusals)
        self.calls = 0

    def __call__(self, request: Any, **kwargs: Any) -> str:
        self.calls += 1
        if self.refusals:
            raise self.refusals.pop(0)
        return f"answer to {request}"


@pytest.fixture(autouse=True)
def no_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client_module, "_RETRY_PAUSES", (0.0,) * 7)


@pytest.mark.parametrize(
    "refusal",
    [
        Refusal(grpc.StatusCode.UNAVAILABLE, "failed to connect to all addresses"),
        Refusal(grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded"),
        Refusal(grpc.StatusCode.INTERNAL, "Stream removed"),
        Refusal(grpc.StatusCode.INTERNAL, "Received RST_STREAM with code 2 (Internal server error)"),
    ],
    ids=["unavailable", "deadline", "stream removed", "rst_stream"],
)
def test_a_call_with_a_request_id_is_sent_again_after_the_server_or_a_proxy_dropped_it(
    refusal: Refusal,
) -> None:
    method = Method(refusal, refusal)
    assert client_module._call_again_while_unavailable(method, "roll") == "answer to roll"
    assert method.calls == 3


def test_an_internal_error_the_server_answered_is_not_sent_again() -> None:
    method = Method(Refusal(grpc.StatusCode.INTERNAL, "the server failed"))
    with pytest.raises(TavliServerError):
        client_module._call_again_while_unavailable(method, "roll")
    assert method.calls == 1


def test_a_refusal_is_not_sent_again() -> None:
    method = Method(Refusal(grpc.StatusCode.FAILED_PRECONDITION, "it is not your turn"))
    with pytest.raises(TavliServerError, match="not your turn"):
        client_module._call_again_while_unavailable(method, "roll")
    assert method.calls == 1


def test_a_server_that_stays_away_is_given_up_on_with_its_last_answer() -> None:
    method = Method(*[Refusal(grpc.StatusCode.UNAVAILABLE, "connection refused")] * 20)
    with pytest.raises(TavliServerError):
        client_module._call_again_while_unavailable(method, "roll")
    assert method.calls == len(client_module._RETRY_PAUSES) + 1


RESET = Refusal(
    grpc.StatusCode.INTERNAL, "Received RST_STREAM with code 2 triggered by internal client error"
)


def test_a_seat_stream_reset_under_it_is_joined_again_and_the_servers_own_internal_is_not() -> None:
    assert client_module._Lost(RESET).worth_joining_again
    assert client_module._Lost(Refusal(grpc.StatusCode.UNAVAILABLE, "Socket closed")).worth_joining_again
    assert not client_module._Lost(Refusal(grpc.StatusCode.INTERNAL, "the server failed")).worth_joining_again


def test_a_ladder_bot_waits_for_the_server_after_a_reset_and_gives_up_on_a_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tavli.clients.ladder_bot import LadderBot

    monkeypatch.setattr("tavli.clients.ladder_bot._RECONNECT_SECONDS", 0.0)
    bot = LadderBot("127.0.0.1:1", "key")  # never connects: only its waiting is tried
    try:
        bot._wait_for_the_server(TavliServerError.from_rpc_error(RESET))
        with pytest.raises(TavliServerError, match="revoked"):
            revoked = TavliServerError(grpc.StatusCode.UNAUTHENTICATED, "", "the key was revoked")
            bot._wait_for_the_server(revoked)
    finally:
        bot.client.close()
