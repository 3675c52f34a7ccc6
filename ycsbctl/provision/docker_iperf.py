"""An ``iperf3 -s`` container next to a server on another host's Docker engine, for the network baseline.

The image's entrypoint must be ``iperf3`` (``networkstatic/iperf3``, the default, or one built with
``infra/docker/build_local_images.py --only iperf3``; ``--image iperf3=IMAGE`` chooses). The
container runs on the server's engine with host networking when the daemon has no bridge, else
with port 5201 published on all of the engine host's addresses; it carries ycsbctl's labels (so
``down --all`` finds one a killed run left) and is removed when the baseline is measured.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ycsbctl.errors import UserError
from ycsbctl.processes import deferred_signals
from ycsbctl.provision import docker as docker_backend
from ycsbctl.provision.base import Endpoint

IPERF_IMAGE = "networkstatic/iperf3"
IPERF_PORT = 5201
LISTEN_TIMEOUT_S = 30.0
LISTENING = b"Server listening"  # what iperf3 -s prints once its socket is bound


@contextmanager
def iperf_server_beside(endpoint: Endpoint, image: str | None = None,
                        say: Callable[[str], None] = lambda m: None) -> Iterator[str]:
    """``HOST:PORT`` of an ``iperf3 -s`` container on ``endpoint``'s engine while the block runs.

    UserError (exit 1) when the engine does not answer, the image cannot be had or iperf3 does not
    listen within :data:`LISTEN_TIMEOUT_S` (its last log lines said)."""
    if not endpoint.host:
        raise UserError(f"{endpoint.target} runs on this host: its baseline needs no iperf3 container", exit_code=1)
    client = docker_backend.connect(timeout_s=30, host=endpoint.docker_host)
    image = image or IPERF_IMAGE
    if not docker_backend.image_present(client, image):
        docker_backend.pull(client, image, say)
    host_network = not docker_backend.has_bridge(client)
    labels = docker_backend.container_labels("iperf3", "iperf3", uuid.uuid4().hex)
    # --forceflush: without a tty iperf3 holds "Server listening" in its stdout buffer
    run: dict[str, Any] = {"command": ["-s", "-p", str(IPERF_PORT), "--forceflush"], "labels": labels, "detach": True,
                           "name": f"ycsbctl-iperf3-{uuid.uuid4().hex[:6]}"}
    if host_network:
        run["network_mode"] = "host"
    else:
        run["ports"] = {f"{IPERF_PORT}/tcp": ("0.0.0.0", None)}
    container = None
    try:
        with deferred_signals():  # started and kept for the finally below, or not there at all
            container = client.containers.run(image, **run)
        _wait_listening(container)
        port = IPERF_PORT
        if not host_network:
            container.reload()
            port = int(container.attrs["NetworkSettings"]["Ports"][f"{IPERF_PORT}/tcp"][0]["HostPort"])
        say(f"iperf3 -s runs next to {endpoint.target} on {endpoint.host}:{port} (container {container.name})")
        yield f"{endpoint.host}:{port}"
    finally:
        if container is not None:
            with deferred_signals():
                docker_backend.remove_container(container)


def _wait_listening(container: Any) -> None:
    deadline = time.monotonic() + LISTEN_TIMEOUT_S
    while LISTENING not in container.logs():
        container.reload()
        if container.status in ("exited", "dead") or time.monotonic() > deadline:
            tail = docker_backend.container_tail(container)
            raise UserError(f"iperf3 did not listen in container {container.name} ({container.status}): {tail}",
                            exit_code=1)
        time.sleep(0.1)  # poll interval: iperf3 binds within milliseconds of starting
