"""Provisioning: start the compared servers (docker, local binaries) or attach to URLs, and clean up.

The API the experiment uses: :func:`provision`, :func:`teardown`, :func:`provisioned`,
:func:`server_alive`, :func:`restart`, :func:`redact_url`, and ``catalog.TARGETS``.
"""

from ycsbctl.provision.auto import provision, provisioned, restart, server_alive, teardown
from ycsbctl.provision.base import Endpoint
from ycsbctl.provision.catalog import TARGETS
from ycsbctl.provision.external import redact_url

__all__ = ["TARGETS", "Endpoint", "provision", "provisioned", "redact_url", "restart", "server_alive", "teardown"]
