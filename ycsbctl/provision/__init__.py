"""Provisioning: start the compared servers (docker, local binaries) or attach to URLs, and clean up.

The API the experiment uses: :func:`provision`, :func:`teardown`, :func:`provisioned`,
:func:`server_alive`, :func:`restart`, and ``catalog.TARGETS``.
"""

from ycsbctl.provision.auto import provision, provisioned, restart, server_alive, server_lost, teardown
from ycsbctl.provision.base import Endpoint
from ycsbctl.provision.catalog import TARGETS

__all__ = ["TARGETS", "Endpoint", "provision", "provisioned", "restart", "server_alive", "server_lost", "teardown"]
