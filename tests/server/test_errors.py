"""Every error of the service says its gRPC status as ``status`` and its stable reason as
``reason`` (tavli.server.errors)."""

from __future__ import annotations

import grpc
import pytest

import tavli.server.app  # noqa: F401 - every module that defines a service error
from tavli.server.errors import ServiceError


def every_service_error(cls: type[ServiceError] = ServiceError) -> list[type[ServiceError]]:
    found = [cls]
    for subclass in cls.__subclasses__():
        found += every_service_error(subclass)
    return found


@pytest.mark.parametrize("error", every_service_error(), ids=lambda error: error.__name__)
def test_each_service_error_has_a_status_and_a_stable_reason(error: type[ServiceError]) -> None:
    assert isinstance(error.status, grpc.StatusCode)
    assert error.status is not grpc.StatusCode.INTERNAL
    assert error.reason and error.reason == error.reason.upper().replace(" ", "_")


def test_a_service_error_naming_its_status_code_otherwise_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="its `status`"):

        class Misnamed(ServiceError):
            code = grpc.StatusCode.NOT_FOUND
