"""The web port's HTTP/2 stream buffer holds its writer while the client's window is shut, and only
then (tavli.server.web_flow)."""

from __future__ import annotations

import asyncio

import pytest
from hypercorn.asyncio.worker_context import EventWrapper
from hypercorn.protocol.h2 import BUFFER_HIGH_WATER, BufferCompleteError

from tavli.server.web_flow import BoundedStreamBuffer

MESSAGE = b"m" * 1000


async def settle() -> None:
    """Let every ready task run until none can go on."""
    for _ in range(10):
        await asyncio.sleep(0)


class Watch:
    """A stream's writer pushing numbered messages into ``buffer`` as fast as it is let."""

    def __init__(self, buffer: BoundedStreamBuffer, messages: int) -> None:
        self.buffer = buffer
        self.pushed = 0
        self.task = asyncio.create_task(self._write(messages))

    async def _write(self, messages: int) -> None:
        for number in range(messages):
            await self.buffer.push(number.to_bytes(4, "big") + MESSAGE)
            self.pushed += 1


def test_a_writer_is_held_while_the_clients_window_is_shut() -> None:
    async def scenario() -> tuple[int, int]:
        buffer = BoundedStreamBuffer(EventWrapper)
        watch = Watch(buffer, 1000)
        for _ in range(100):  # the sending side tries again and again, its window at 0
            await buffer.pop(0)
            await settle()
        held = (watch.pushed, len(buffer.buffer))
        watch.task.cancel()
        return held

    pushed, queued = asyncio.run(scenario())
    assert queued < BUFFER_HIGH_WATER + len(MESSAGE) + 4
    assert pushed < 40, f"{pushed} messages were let in while nothing could go out"


def test_a_held_writer_goes_on_once_the_window_opens_and_nothing_is_lost() -> None:
    async def scenario() -> bytes:
        buffer = BoundedStreamBuffer(EventWrapper)
        watch = Watch(buffer, 300)
        sent = bytearray()
        while not watch.task.done() or buffer.buffer:
            sent += await buffer.pop(2**14)  # a frame at a time, as the window allows
            await settle()
        return bytes(sent)

    sent = asyncio.run(scenario())
    size = 4 + len(MESSAGE)
    numbers = [int.from_bytes(sent[at : at + 4], "big") for at in range(0, len(sent), size)]
    assert numbers == list(range(300))


def test_a_closed_stream_lets_its_held_writer_go_and_takes_nothing_more() -> None:
    async def scenario() -> tuple[bool, bool, str]:
        buffer = BoundedStreamBuffer(EventWrapper)
        watch = Watch(buffer, 1000)
        await settle()
        held = not watch.task.done()  # nothing goes out
        await buffer.close()  # the stream is reset or its connection lost
        await settle()
        ended = watch.task.done()
        refusal = type(watch.task.exception()).__name__ if ended else ""
        return held, ended, refusal

    assert asyncio.run(scenario()) == (True, True, BufferCompleteError.__name__)


@pytest.mark.parametrize("window", [0, 100])
def test_the_buffer_never_holds_more_than_its_bound_and_a_message(window: int) -> None:
    async def scenario() -> int:
        buffer = BoundedStreamBuffer(EventWrapper)
        watch = Watch(buffer, 2000)
        most = 0
        for _ in range(300):
            await buffer.pop(window)
            await settle()
            most = max(most, len(buffer.buffer))
        watch.task.cancel()
        return most

    assert asyncio.run(scenario()) < BUFFER_HIGH_WATER + len(MESSAGE) + 4
