"""The study file's shape, generated from the ``ycsbctl run`` command's own click parameters.

Every option of ``run`` is a key spelt as its long option without the dashes in front (``--target-rate`` →
``target-rate``, ``-P``/``--property-file`` → ``property-file``), taking what the option takes in the same
units; the workloads are the key ``workloads``, and ``--target``/``--targets`` are one key ``targets``, a list
of names, URLs or tables (:class:`TargetTable`). The pydantic model is built from the click command, so an
option added to ``run`` is a key of the file (and of the published JSON schema) without another edit.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import click
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    create_model,
    model_validator,
)

# click parameters that are not a key of the study file: the file itself, the targets (the key ``targets``
# below) and the action of writing one
NOT_KEYS = {"help", "save_study", "target", "targets"}
# parameters whose values are paths to files or folders that must exist (resolved from the study file's folder);
# besides these, an option whose metavar is FILE or DIR, or whose click type says the path exists
PATH_VALUES = {"binary": "NAME=PATH"}
# A value a string option takes: numbers too, as their text (threads = 32, budget = 600)
Text = StrictStr | StrictInt | StrictFloat
Setting = StrictStr | StrictInt | StrictFloat | StrictBool


class TargetTable(BaseModel):
    """One target: a catalogue ``name`` (redis, valkey, … or a label beginning with one) or the ``url`` of a
    server you run; a ``label`` to run a catalogue kind under another name; its server ``settings`` (as in its
    config file), a local ``binary`` to run and a Docker ``image``: ``--target``, ``--target-kind``,
    ``--server-config``, ``--binary`` and ``--image`` of the command line."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str | None = Field(None, description="A catalogue name (redis, valkey, mongodb, …), or a label beginning "
                                                "with one and '-' (redis-lazyfree)")
    url: str | None = Field(None, description="A server you run: redis://…, mongodb://…, basic://, … (used as it is)")
    label: str | None = Field(None, description="The name tables and comparisons use, when it is not `name`; "
                                                "`name` is then its server kind")
    settings: dict[str, Setting] = Field(default_factory=dict,
                                         description="Server settings, as in its config file (--server-config)")
    binary: str | None = Field(None, description="A local server build to run (--binary), absolute or relative to "
                                                 "the study file's folder")
    image: str | None = Field(None, description="The Docker image to start it from (--image)")

    @model_validator(mode="after")
    def _one_target(self) -> TargetTable:
        if (self.name is None) == (self.url is None):
            raise ValueError("give a catalogue name (name = \"redis\") or a URL (url = \"redis://…\"), one of them")
        if self.url is not None and (self.label or self.settings or self.binary):
            raise ValueError("a URL is a server you run: ycsbctl neither relabels nor configures it (drop label, "
                             "settings and binary)")
        if self.name is not None:
            from ycsbctl.errors import UserError
            from ycsbctl.provision.target_spec import catalogue_names, check_label, resolve_kind

            try:
                if self.label is not None:
                    check_label(self.label)
                    if self.name not in catalogue_names():
                        raise UserError(f"{self.name!r} is not a catalogue name: use one of "
                                        f"{', '.join(catalogue_names())}")
                else:
                    resolve_kind(self.name, {})
            except UserError as exc:
                raise ValueError(exc.message) from None
        return self

    @property
    def target(self) -> str:
        """What ``--target`` takes for it."""
        return self.url or self.label or str(self.name)


def key_of(param: click.Parameter) -> str:
    """The study file's key of a click parameter: its first long option without ``--``, else its name."""
    longs = [o for o in param.opts if o.startswith("--")]
    return longs[0][2:] if longs else str(param.name).replace("_", "-")


def file_params(command: click.Command) -> dict[str, click.Parameter]:
    """The click parameters of ``command`` that are keys of the study file, by key."""
    return {key_of(p): p for p in command.params if p.name not in NOT_KEYS}


def must_exist(param: click.Parameter) -> bool:
    """Whether ``param``'s value names a file or folder that must exist."""
    t = param.type
    return (param.name in PATH_VALUES or getattr(param, "metavar", None) in ("FILE", "DIR")
            or (isinstance(t, click.Path) and bool(t.exists)))


def _scalar(param: click.Parameter) -> Any:
    """The pydantic type of one value of ``param``, from its click type (ranges as bounds)."""
    t = param.type
    if isinstance(t, click.types.BoolParamType):
        return StrictBool
    if isinstance(t, click.Choice):
        return Literal[tuple(t.choices)]
    if isinstance(t, click.IntRange | click.FloatRange):
        bounds: dict[str, Any] = {("gt" if t.min_open else "ge"): t.min} if t.min is not None else {}
        bounds |= {("lt" if t.max_open else "le"): t.max} if t.max is not None else {}
        base = StrictInt if isinstance(t, click.IntRange) else StrictFloat | StrictInt
        return Annotated[base, Field(**bounds, allow_inf_nan=False) if base is not StrictInt else Field(**bounds)]
    if isinstance(t, click.types.IntParamType):
        return StrictInt
    if isinstance(t, click.types.FloatParamType):
        return StrictFloat | StrictInt
    return Text


def _field(param: click.Parameter) -> tuple[Any, Any]:
    one = _scalar(param)
    many = param.multiple or (param.nargs == -1)
    kind: Any = list[one] if many else one  # type: ignore[valid-type]
    if param.name == "props":  # -p as a table too: [property] recordcount = 1000
        kind = list[one] | dict[str, Setting]  # type: ignore[valid-type]
    help_text = getattr(param, "help", None) or ("The workloads: names from workloads/ (workload-b) or property "
                                                 "files" if param.name == "workloads" else "")
    metavar = getattr(param, "metavar", None)
    described = f"{help_text} ({metavar})" if metavar and help_text else help_text
    default = getattr(param, "default", None)
    if getattr(param, "show_default", False) and isinstance(default, bool | int | float | str):
        described += f" [default: {str(default).lower() if isinstance(default, bool) else default}]"
    return kind | None, Field(None, alias=key_of(param), description=" ".join(described.split()))


def study_model(command: click.Command) -> type[BaseModel]:
    """The pydantic model of a study file for ``command`` (``ycsbctl run``): one optional field per option,
    unknown keys refused."""
    fields: dict[str, Any] = {str(p.name): _field(p) for p in file_params(command).values()}
    fields["targets"] = (list[StrictStr | TargetTable] | None, Field(
        None, description="The targets in order: catalogue names or URLs (as --target takes them), or tables "
                          "with name or url, label, settings, binary and image"))
    return create_model("StudyFile", __config__=ConfigDict(extra="forbid", strict=True, populate_by_name=False,
                                                           title="ycsbctl study file"), **fields)


def study_schema(command: click.Command) -> dict[str, Any]:
    """The JSON schema of the study file (what the manual publishes)."""
    schema = study_model(command).model_json_schema(by_alias=True)
    schema["description"] = ("A ycsbctl study: `ycsbctl run FILE.toml`. Every key is a `ycsbctl run` option "
                             "(its long name without the leading dashes), in the option's units.")
    return schema


def run_command() -> click.Command:
    """``ycsbctl run``'s click command (its module loaded)."""
    from ycsbctl.cli import main

    command = main.get_command(click.Context(main), "run")
    assert command is not None
    return command

