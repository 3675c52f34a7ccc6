"""MkDocs hook: the study file's keys and JSON schema, generated from ``ycsbctl run``'s click command
(:func:`ycsbctl.cli.study_model.study_schema`) where a page holds the marker lines below, so the manual's schema is
the code's and an option added to ``run`` appears in it without an edit of the page."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = str(Path(__file__).resolve().parents[1])

KEYS = "<!-- study-file-keys -->"
SCHEMA = "<!-- study-file-schema -->"


def on_config(config: Any) -> Any:
    """This checkout's ycsbctl, whichever one the environment installed (mkdocs-click's reference page reads it
    too): mkdocs restores ``sys.path`` after loading a hook, so it is put first here."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    return config


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if KEYS not in markdown and SCHEMA not in markdown:
        return markdown
    from ycsbctl.cli.study_model import run_command, study_schema

    schema = study_schema(run_command())
    text = json.dumps(schema, indent=2, ensure_ascii=False)
    return markdown.replace(KEYS, keys_table(schema)).replace(SCHEMA, f"```json\n{text}\n```")


def on_post_build(config: Any) -> None:
    """The schema as a file of the site too (``study-file.schema.json`` at its root), for an editor's ``#:schema``."""
    from ycsbctl.cli.study_model import run_command, study_schema

    out = Path(config["site_dir"]) / "study-file.schema.json"
    out.write_text(json.dumps(study_schema(run_command()), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def keys_table(schema: dict[str, Any]) -> str:
    """One row per key: its name, what it takes (from the schema), what it means (the option's help)."""
    rows = ["| key | takes | what it is |", "|---|---|---|"]
    for key, prop in schema["properties"].items():
        said = (prop.get("description") or "").replace("|", "\\|")
        rows.append(f"| `{key}` | {takes(prop, schema).replace(' | ', ' or ')} | {said} |")
    return "\n".join(rows)


def takes(prop: dict[str, Any], schema: dict[str, Any]) -> str:
    """A schema fragment in words: ``integer ≥ 1``, ``list of text``, ``one of auto, split, off``."""
    if "$ref" in prop:
        return "a target table"
    if "anyOf" in prop:
        kinds = list(dict.fromkeys(takes(p, schema) for p in prop["anyOf"] if p.get("type") != "null"))
        if "number" in kinds and "integer" in kinds:
            kinds.remove("integer")
        if "text" in kinds and "number" in kinds:  # a text option takes a number as its text (threads = 32)
            kinds.remove("number")
        return " | ".join(kinds)
    if "enum" in prop:
        return "one of " + ", ".join(f"`{v}`" for v in prop["enum"])
    if "const" in prop:
        return f"`{prop['const']}`"
    kind = prop.get("type")
    if kind == "array":
        return f"list of {takes(prop.get('items', {}), schema)}"
    if kind == "object":
        return "table"
    bounds = [f"{sign} {prop[k]}" for k, sign in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"),
                                                   ("exclusiveMaximum", "<")) if k in prop]
    words = {"integer": "integer", "number": "number", "string": "text", "boolean": "true/false"}
    return " ".join([words.get(str(kind), str(kind)), *bounds]) if kind else "any"
