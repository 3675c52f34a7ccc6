"""``registry.ask`` (a question by a capability's method): a store's word on a question is silence only where the
store does not declare that capability; a misspelt question and an error inside a store's answer propagate, and a server
that cannot be asked raises one of its store's ``admin_errors``, which the callers that ask a server around a point
catch (:func:`ycsbctl.experiment.point_runner.asked_server`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.servers import free_port
from ycsbctl.errors import UserError
from ycsbctl.experiment.point_runner import asked_server
from ycsbctl.stores import registry
from ycsbctl.stores.capabilities import ClientPauses, Replication, ServerUrls, StallCause


def test_a_misspelt_question_raises_naming_it():
    with pytest.raises(AttributeError, match="stall_casue"):
        registry.ask("basic://", StallCause.stall_casue, "basic://")  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="example"):  # a store's attribute, not a capability's question
        registry.ask("basic://", registry.examples)  # type: ignore[arg-type]
    with pytest.raises(AttributeError, match="replicsa"):  # the point's helper does not take it for a gone server
        asked_server("basic://", Replication.replicsa, "basic://")  # type: ignore[attr-defined]


def test_a_question_the_store_does_not_answer_is_silence():
    assert registry.ask("basic://", StallCause.stall_cause, "basic://") is None
    assert registry.ask("basic://", Replication.replicas, "basic://") is None
    assert registry.for_url("basic://").start_notes("basic://", {}) == []  # the core's answer: no note
    # Redis has no own lock wait (it lacks ClientPauses: silence, without asking a server: none listens there)
    url = f"redis://127.0.0.1:{free_port()}"
    assert registry.ask(url, ClientPauses.own_lock_wait, url, 4, 100) is None
    # basic:// servers are not started by ycsbctl: it lacks the capability (ServerUrls)
    assert registry.ask("basic://", ServerUrls.server_url, "127.0.0.1", 1) is None


def test_an_error_inside_a_store_s_answer_propagates(tmp_path: Path):
    """SQLite's pause cause reads the bindings' counts as integers: a count that is none is the caller's bug, and
    it reaches the caller (once it read as "the store has nothing to say")."""
    url = f"sqlite://{tmp_path / 'x.db'}"
    with pytest.raises(ValueError, match="many"):
        registry.ask(url, ClientPauses.pause_cause, url, {"sqlite_busy_long": "many"})
    with pytest.raises(ValueError, match="many"):  # no admin error: the point's helper lets it through too
        asked_server(url, ClientPauses.pause_cause, url, {"sqlite_busy_long": "many"})


def test_a_server_that_is_gone_raises_its_store_s_admin_error_which_the_point_s_helper_takes_as_silence():
    url = f"redis://127.0.0.1:{free_port()}"  # nothing listens: refused
    with pytest.raises(registry.admin_errors(url)) as raised:
        registry.ask(url, Replication.replicas, url)
    assert not isinstance(raised.value, OSError)  # redis-py's ConnectionError: why the store names its own errors
    assert asked_server(url, Replication.replicas, url) is None
    assert registry.admin_errors("basic://") == (OSError,)


def test_an_unknown_url_is_the_caller_s_error():
    with pytest.raises(UserError, match="unsupported target URL"):
        registry.ask("http://127.0.0.1/", Replication.replicas, "http://127.0.0.1/")
