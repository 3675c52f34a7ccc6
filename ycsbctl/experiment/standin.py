"""The stand-in policy: when the default plan's ``mongodb`` cannot run here, its MongoDB-protocol
stand-in is measured too — announced, recorded as a substitution, and labelled as itself (its
numbers are never shown as MongoDB's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ycsbctl.experiment.plan import DEFAULT_TARGETS, Plan
from ycsbctl.results.schema import Substitution

if TYPE_CHECKING:
    from ycsbctl.experiment.study import Study

MONGO_STAND_IN = "ferretdb"


def stand_in(study: Study, refused: str, targets: list[str]) -> Substitution | None:
    """The substitution for ``refused`` (a target that could not be provisioned), or None: only the
    default plan's ``mongodb`` has one (resolved with the study: :attr:`Study.extra_targets`), and only once."""
    if refused != "mongodb" or MONGO_STAND_IN not in study.extra_targets or MONGO_STAND_IN in targets:
        return None
    note = (f"mongodb could not be provisioned here; measuring {MONGO_STAND_IN} as the MongoDB-protocol "
            "stand-in (its numbers are not MongoDB's)")
    return Substitution(wanted="mongodb", used=MONGO_STAND_IN, note=note)


def stand_ins(plan: Plan) -> list[str]:
    """The targets :func:`stand_in` may add to ``plan`` (resolved with the plan's own)."""
    return [MONGO_STAND_IN] if list(plan.targets) == list(DEFAULT_TARGETS) else []
