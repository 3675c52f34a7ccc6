"""The stand-in policy: when a target of the default plan cannot run here and its store declares a stand-in
(``ServerProtocol.stand_in``: FerretDB for ``mongodb``, a MongoDB-protocol server), the stand-in is measured
too — announced, recorded as a substitution, and labelled as itself (its numbers are never shown as the store's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ycsbctl.experiment.plan import DEFAULT_TARGETS, Plan
from ycsbctl.results.schema import Substitution
from ycsbctl.stores import registry
from ycsbctl.stores.base import StandIn

if TYPE_CHECKING:
    from ycsbctl.experiment.study import Study


def _declared(target: str) -> StandIn | None:
    """The stand-in the store named ``target`` declares (the default plan's targets are named as their stores)."""
    proto = registry.named(target)
    return proto.stand_in if proto is not None else None


def stand_in(study: Study, refused: str, targets: list[str]) -> Substitution | None:
    """The substitution for ``refused`` (a target that could not be provisioned), or None: only a default plan's
    target whose store declares a stand-in (``mongodb``) has one (resolved with the study:
    :attr:`Study.extra_targets`), and only once."""
    declared = _declared(refused)
    if declared is None or declared.target not in study.extra_targets or declared.target in targets:
        return None
    note = (f"{refused} could not be provisioned here; measuring {declared.target} as the {declared.speaks}-protocol "
            f"stand-in (its numbers are not {declared.speaks}'s)")
    return Substitution(wanted=refused, used=declared.target, note=note)


def stand_ins(plan: Plan) -> list[str]:
    """The targets :func:`stand_in` may add to ``plan`` (resolved with the plan's own)."""
    if list(plan.targets) != list(DEFAULT_TARGETS):
        return []
    return [s.target for t in plan.targets if (s := _declared(t)) is not None]
