"""External servers: a ``redis://`` or ``mongodb://`` URL the user runs; no lifecycle."""

from __future__ import annotations

from ycsbctl.errors import UserError, short_error
from ycsbctl.provision import probe
from ycsbctl.provision.base import Endpoint, Provisioner, UpOptions
from ycsbctl.stores import registry
from ycsbctl.urls import redact_text, redact_url, without_credentials

PING_TIMEOUT_S = 5.0  # how long an external server has to answer its first ping


class ExternalProvisioner(Provisioner):
    """Attaches to a running server: checks it answers, reads its version and config."""

    name = "external"

    def up(self, target: str, options: UpOptions | None = None) -> Endpoint:
        proto = registry.for_url(target)
        protocol = proto.name
        shown = redact_url(target)
        if not proto.has_server:
            return Endpoint(target=shown, protocol=protocol, url=target, backend="external",
                            server_name=proto.describe(target).name)
        try:
            probe.ping(protocol, target, timeout_s=PING_TIMEOUT_S)
        except UserError:  # the store's own line (a database the server does not have)
            raise
        except Exception as exc:  # noqa: BLE001 - any failure means "not usable"
            slow = probe.too_slow(exc, silent_too=False)
            if slow is not None:
                raise slow from None
            why = short_error(exc)
            if any(w in why.lower() for w in ("auth", "password", "noperm", "wrongpass")):
                bare = without_credentials(target)
                if bare is not None and proto.open_without_credentials(bare):
                    raise UserError(f"{shown} has no authentication: it answers without credentials and refused the "
                                    f"ones in the URL ({why})", fix="drop USER:PASSWORD@ from the URL",
                                    exit_code=1) from None
                where = proto.password_hint or proto.example
                raise UserError(f"{shown} refused our credentials ({why})",
                                fix=f"put the right password in the URL: {where}", exit_code=1) from None
            raise (probe.cancelled(target, redact_text(why), "our ping")
                   or probe.unanswered(protocol, target, redact_text(why), PING_TIMEOUT_S)) from None
        facts = probe.describe(protocol, target, expected="")
        return Endpoint(target=shown, protocol=protocol, url=target, backend="external",
                        server_name=facts.name, server_version=facts.version, config=facts.config,
                        traits=facts.traits, notes=["external server: not started or stopped by ycsbctl"])

    def down(self, endpoint: Endpoint) -> None:
        """Nothing to stop: we never own an external server."""

