"""The services the server answers: ``tavli.v1``'s, on the native port and, with gRPC health, on
the web port (which passes each call on to the native port)."""

from __future__ import annotations

from typing import cast

from google.protobuf.descriptor import ServiceDescriptor
from grpc_health.v1 import health_pb2

from tavli.v1 import (
    analysis_service_pb2,
    bots_service_pb2,
    games_service_pb2,
    ladder_service_pb2,
    rules_service_pb2,
)

SERVICES = (
    rules_service_pb2.DESCRIPTOR.services_by_name["RulesService"],
    analysis_service_pb2.DESCRIPTOR.services_by_name["AnalysisService"],
    games_service_pb2.DESCRIPTOR.services_by_name["GamesService"],
    bots_service_pb2.DESCRIPTOR.services_by_name["BotsService"],
    ladder_service_pb2.DESCRIPTOR.services_by_name["LadderService"],
)
SERVICE_NAMES = tuple(service.full_name for service in SERVICES)

WEB_SERVICES = (
    *SERVICES,
    # (grpc's health package types its descriptor as protobuf's C class: the same object)
    cast(ServiceDescriptor, health_pb2.DESCRIPTOR.services_by_name["Health"]),
)
"""What the web port answers."""
