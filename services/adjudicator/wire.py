"""The gRPC messages and stubs, compiled from `proto/adjudicator.proto` when first imported.

grpcio-tools compiles the .proto in memory (`grpc.protos_and_services`), so nobody runs protoc by hand
and the stubs can never drift from the contract. `ADJUDICATOR_PROTO_DIR` points elsewhere if the
service is installed without the repository's `proto/` directory.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import grpc

PROTO_DIR = Path(os.environ.get("ADJUDICATOR_PROTO_DIR") or Path(__file__).resolve().parents[2] / "proto")


def _compile():
    if not (PROTO_DIR / "adjudicator.proto").exists():
        raise ImportError(f"adjudicator.proto not found in {PROTO_DIR}; set ADJUDICATOR_PROTO_DIR")
    sys.path.insert(0, str(PROTO_DIR))
    try:
        return grpc.protos_and_services("adjudicator.proto")
    finally:
        sys.path.remove(str(PROTO_DIR))


pb, rpc = _compile()
SERVICE_NAME = "starbase.adjudicator.v1.Adjudicator"
# A command sent on SubmitStream has a span of its own at both ends (the stream's span is nobody's
# command), named and described as unary Submit's call spans are, so a trace reads the same either way.
SUBMIT_SPAN = f"/{SERVICE_NAME}/Submit"
SUBMIT_SPAN_ATTRIBUTES = {"rpc.system": "grpc", "rpc.service": SERVICE_NAME, "rpc.method": "Submit",
                          "starbase.submit_stream": True}

# Commands over NATS (nats_door.py serves them, nats_link.py sends them): the subjects under the root
# ADJUDICATOR_SUBJECT names, and a replica's hello. Here, so a caller imports neither the server nor the
# service.
HELLO_EVERY = 2.0           # seconds between two hellos; callers forget a replica after three missed


def submit_subject(subject: str, replica: str) -> str:
    """Where `replica` takes commands ("any": every replica, as one queue group)."""
    return f"{subject}.submit.{replica}"


def call_subject(subject: str, replica: str) -> str:
    """Where `replica` takes the reads about one game (`CALLS`), so they meet the cache its commands keep."""
    return f"{subject}.call.{replica}"


# The reads a caller sends where the game's commands go (the method in the CALL header): on gRPC their
# ring-hash replica was not the one NATS placed the game's commands on, which then read back, for each
# of them, every envelope the other had appended meanwhile. Their replies: the gRPC method's reply, or,
# on failure, no body and the status and details in the STATUS and DETAILS headers.
CALL, CALL_STATUS, CALL_DETAILS = "Starbase-Call", "Starbase-Status", "Starbase-Details"
CALLS = {"ToAct": pb.ToActRequest, "LegalActions": pb.LegalActionsRequest, "GetView": pb.GetViewRequest}


def hello(replica: str, leaving: bool = False) -> bytes:
    return json.dumps({"replica": replica, "leaving": leaving}).encode()
