"""Idle connections cannot lock other clients out: the server takes every descriptor the system
allows it, whatever soft limit it was started with."""

from __future__ import annotations

import os
import resource
import socket

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.server_play import stop_process, tavli_serve
from tests.supervision import wait_for

IDLE_CONNECTIONS = 1_100
SOFT_LIMIT = 1_024  # a common default: fewer descriptors than the idle connections need


def test_eleven_hundred_idle_connections_do_not_lock_out_a_new_client() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < IDLE_CONNECTIONS + 200:
        raise AssertionError(f"this machine allows only {hard} descriptors a process: the test needs more")
    resource.setrlimit(resource.RLIMIT_NOFILE, (SOFT_LIMIT, hard))
    try:
        served = tavli_serve("--db", ":memory:")  # started with the low soft limit
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, IDLE_CONNECTIONS + 200), hard))
    idle: list[socket.socket] = []
    try:
        for _ in range(IDLE_CONNECTIONS):
            idle.append(socket.create_connection(("127.0.0.1", served.port), timeout=5))
        # The server has accepted them all: a descriptor each.
        wait_for(
            f"the server holding a descriptor for each of the {IDLE_CONNECTIONS} idle connections",
            lambda: len(os.listdir(f"/proc/{served.process.pid}/fd")) > IDLE_CONNECTIONS,
        )
        with grpc.insecure_channel(served.address) as channel:
            answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
        assert answer.status == health_pb2.HealthCheckResponse.SERVING
    finally:
        for connection in idle:
            connection.close()
        stop_process(served.process)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
