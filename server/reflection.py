"""Server reflection that tools such as grpcurl can work from alone.

grpcio-reflection's servicer is served under ``grpc.reflection.v1alpha`` only, finds no method
(``grpcurl describe tavli.v1.RulesService.ListLegalPlays`` says "Symbol not found"), and its
descriptors carry no comments: generated ``_pb2`` modules keep none. This one
answers under both ``grpc.reflection.v1`` and ``grpc.reflection.v1alpha`` (their messages are the
same on the wire), finds every symbol a file declares (services, methods, messages at any depth,
fields, oneofs, enums and their values, extensions), and gives the tavli files with their
comments, as protoc attaches them (``--include_source_info``: proto/generate.py writes them beside
the generated code, in ``descriptors.binpb``). A question about something
unknown gets a NOT_FOUND error response, as the protocol says; the call itself goes on.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path

import grpc
import grpc.aio
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection_pb2
from grpc_reflection.v1alpha.reflection_pb2 import (
    ServerReflectionRequest as Request,
    ServerReflectionResponse as Response,
)

import tavli.v1
from tavli.server.handlers import Context

REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"
REFLECTION_V1ALPHA = "grpc.reflection.v1alpha.ServerReflection"
REFLECTION_SERVICES = (REFLECTION_V1, REFLECTION_V1ALPHA)

# The tavli files' comments, as protoc attaches them (--include_source_info), by file name: from
# the descriptor set proto/generate.py writes beside the generated modules.
_DESCRIPTOR_SET = Path(tavli.v1.__file__).resolve().parent / "descriptors.binpb"
_COMMENTS = {
    file.name: file.source_code_info
    for file in descriptor_pb2.FileDescriptorSet.FromString(_DESCRIPTOR_SET.read_bytes()).file
}


def enable_reflection(service_names: Iterable[str], server: grpc.aio.Server) -> None:
    """Serve reflection on ``server`` under both names, listing ``service_names`` and the two
    reflection services."""
    servicer = ReflectionServicer((*service_names, *REFLECTION_SERVICES))
    for service in REFLECTION_SERVICES:
        method = grpc.stream_stream_rpc_method_handler(
            servicer.ServerReflectionInfo,
            request_deserializer=Request.FromString,
            response_serializer=Response.SerializeToString,
        )
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(service, {"ServerReflectionInfo": method}),)
        )


class ReflectionServicer:
    """Answers the questions of the reflection protocol from a descriptor pool (the default one,
    which every imported ``_pb2`` module fills), with comments on the project's files."""

    def __init__(
        self, service_names: Iterable[str], pool: descriptor_pool.DescriptorPool | None = None
    ) -> None:
        self._service_names = sorted(set(service_names))
        self._pool = pool or descriptor_pool.Default()
        self._files: dict[str, descriptor_pb2.FileDescriptorProto] = {}
        self._serialized: dict[str, bytes] = {}
        self._symbols: dict[str, str] = {}  # full name -> the name of the file that declares it
        self._add(v1_reflection_file())
        for service in self._service_names:
            try:
                self._load(self._pool.FindFileContainingSymbol(service).name)
            except KeyError:
                pass  # grpc.reflection.v1, added above: no generated module declares it here

    async def ServerReflectionInfo(
        self, requests: AsyncIterator[Request], context: Context
    ) -> AsyncIterator[Response]:
        """One answer per question, in order, for as long as the client asks."""
        async for request in requests:
            yield self.answer(request)

    def answer(self, request: Request) -> Response:
        """The answer to one question: an error response for what is not known, never an exception."""
        question = request.WhichOneof("message_request")
        try:
            if question == "list_services":
                services = [reflection_pb2.ServiceResponse(name=name) for name in self._service_names]
                listed = reflection_pb2.ListServiceResponse(service=services)
                return Response(original_request=request, list_services_response=listed)
            if question == "file_by_filename":
                return self._files_response(request, request.file_by_filename)
            if question == "file_containing_symbol":
                return self._files_response(request, self._file_declaring(request.file_containing_symbol))
            if question == "file_containing_extension":
                wanted = request.file_containing_extension
                message = self._pool.FindMessageTypeByName(wanted.containing_type)
                extension = self._pool.FindExtensionByNumber(message, wanted.extension_number)
                # (the stubs of FieldDescriptor leave out its file, which an extension has)
                return self._files_response(request, extension.file.name)  # type: ignore[attr-defined]
            if question == "all_extension_numbers_of_type":
                message = self._pool.FindMessageTypeByName(request.all_extension_numbers_of_type)
                numbers = sorted(extension.number for extension in self._pool.FindAllExtensions(message))
                found = reflection_pb2.ExtensionNumberResponse(
                    base_type_name=message.full_name, extension_number=numbers
                )
                return Response(original_request=request, all_extension_numbers_response=found)
        except KeyError:
            asked = str(getattr(request, question)).strip().replace("\n", " ")
            return _error(
                request, grpc.StatusCode.NOT_FOUND, f"{question.replace('_', ' ')} {asked}: not found"
            )
        return _error(
            request, grpc.StatusCode.INVALID_ARGUMENT, "the request asks no question this server knows"
        )

    def _file_declaring(self, symbol: str) -> str:
        """The name of the file that declares ``symbol``.

        :raises KeyError: if no file known here does.
        """
        if symbol in self._symbols:
            return self._symbols[symbol]
        return str(self._pool.FindFileContainingSymbol(symbol).name)

    def _files_response(self, request: Request, name: str) -> Response:
        """The file ``name`` first, then every file it depends on, directly or not."""
        self._load(name)
        names: list[str] = []
        pending = [name]
        while pending:
            current = pending.pop(0)
            if current not in names:
                names.append(current)
                pending.extend(self._files[current].dependency)
        blobs = [self._serialized[current] for current in names]
        return Response(
            original_request=request,
            file_descriptor_response=reflection_pb2.FileDescriptorResponse(file_descriptor_proto=blobs),
        )

    def _load(self, name: str) -> None:
        """Add the file ``name`` from the pool and, first, the files it depends on.

        :raises KeyError: if the pool has no such file.
        """
        if name in self._files:
            return
        file = descriptor_pb2.FileDescriptorProto()
        self._pool.FindFileByName(name).CopyToProto(file)
        for dependency in file.dependency:
            self._load(dependency)
        commented = _COMMENTS.get(name)
        if commented is not None:
            file.source_code_info.CopyFrom(commented)
        self._add(file)

    def _add(self, file: descriptor_pb2.FileDescriptorProto) -> None:
        self._files[file.name] = file
        self._serialized[file.name] = file.SerializeToString()
        for symbol in symbols_of(file):
            self._symbols.setdefault(symbol, file.name)


def _error(request: Request, status: grpc.StatusCode, message: str) -> Response:
    number: int = status.value[0]
    return Response(
        original_request=request,
        error_response=reflection_pb2.ErrorResponse(error_code=number, error_message=message),
    )


def v1_reflection_file() -> descriptor_pb2.FileDescriptorProto:
    """grpc/reflection/v1/reflection.proto, which grpcio-reflection does not ship: the v1alpha
    file under the v1 package (the two protocols differ in nothing else)."""
    file = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(file)
    old, new = f".{file.package}.", ".grpc.reflection.v1."
    file.name, file.package = "grpc/reflection/v1/reflection.proto", "grpc.reflection.v1"
    file.ClearField("options")  # v1alpha's Java and Go packages, and its deprecation
    for message in file.message_type:
        for message_field in message.field:
            message_field.type_name = message_field.type_name.replace(old, new, 1)
    for method in file.service[0].method:
        method.input_type = method.input_type.replace(old, new, 1)
        method.output_type = method.output_type.replace(old, new, 1)
    return file


def symbols_of(file: descriptor_pb2.FileDescriptorProto) -> Iterator[str]:
    """The full name of everything ``file`` declares."""
    package = f"{file.package}." if file.package else ""

    def enums(types: Iterable[descriptor_pb2.EnumDescriptorProto], scope: str) -> Iterator[str]:
        for enum in types:
            yield scope + enum.name
            for value in enum.value:  # protobuf names a value as the enum's sibling, some tools as its child
                yield from (scope + value.name, f"{scope}{enum.name}.{value.name}")

    def messages(types: Iterable[descriptor_pb2.DescriptorProto], scope: str) -> Iterator[str]:
        for message in types:
            name = scope + message.name
            yield name
            yield from (f"{name}.{field.name}" for field in (*message.field, *message.extension))
            yield from (f"{name}.{oneof.name}" for oneof in message.oneof_decl)
            yield from enums(message.enum_type, f"{name}.")
            yield from messages(message.nested_type, f"{name}.")

    yield from messages(file.message_type, package)
    yield from enums(file.enum_type, package)
    yield from (package + extension.name for extension in file.extension)
    for service in file.service:
        yield package + service.name
        yield from (f"{package}{service.name}.{method.name}" for method in service.method)
