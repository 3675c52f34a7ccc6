"""The unlike-quantities caveats (ycsbctl.report.unlike) from values the test chose: which targets had no
server (the endpoint a folder recorded, else an older folder's protocol), and the caveat's words for one,
several and none of them embedded."""

from __future__ import annotations

from types import SimpleNamespace

from ycsbctl.report.unlike import embedded_note, endpoint_of, has_server, serverless_targets, standin_note


def _exp(servers: dict, docs: dict, targets: list[str], cannot: tuple = ()) -> SimpleNamespace:
    return SimpleNamespace(manifest=SimpleNamespace(servers=servers, cannot=list(cannot)), docs=docs, targets=targets)


def test_a_target_without_a_server_is_what_its_endpoint_says_else_its_protocol_in_an_older_folder():
    assert has_server(None) and has_server({}) and has_server({"protocol": "redis"})
    assert not has_server({"protocol": "sqlite"}) and has_server({"protocol": "sqlite", "has_server": True})
    assert not has_server({"protocol": "redis", "has_server": False})
    docs = {"r1": {"target": "a", "endpoint": None}, "r2": {"target": "b", "endpoint": {"protocol": "x"}},
            "r3": {"target": "a", "endpoint": {"protocol": "sqlite"}}}
    exp = _exp({}, docs, ["a", "b"])
    assert endpoint_of(exp, "a") == {"protocol": "sqlite"}  # the first run that recorded one
    assert endpoint_of(exp, "b") == {"protocol": "x"} and endpoint_of(exp, "c") is None
    # the manifest's server wins over a run's endpoint; a store that could not answer counts too
    exp = _exp({"b": {"has_server": False}}, docs, ["a", "b"], cannot=[SimpleNamespace(target="c")])
    assert serverless_targets(exp) == {"a", "b"}
    exp.docs["r4"] = {"target": "c", "endpoint": {"protocol": "basic"}}
    assert serverless_targets(exp) == {"a", "b", "c"}


def test_the_embedded_caveat_names_one_or_several_and_says_nothing_when_all_or_none_are():
    one = embedded_note(["pg", "sqlite", "sqlite"], {"sqlite"})
    assert one == " — unlike quantities: sqlite is embedded (no server), so it has no network round trip"
    two = embedded_note(["pg", "sqlite", "basic", "mysql"], {"sqlite", "basic"})
    assert two == (" — unlike quantities: sqlite and basic are embedded (no server), so they have no network "
                   "round trip")
    three = embedded_note(["a", "b", "c", "d"], {"a", "b", "c"})
    assert three.startswith(" — unlike quantities: a, b and c are embedded")
    assert embedded_note(["sqlite", "basic"], {"sqlite", "basic"}) == "" and embedded_note(["pg", "redis"],
                                                                                           {"sqlite"}) == ""
    assert standin_note("ferretdb", "redis", {"ferretdb": "mongodb"}) == (
        " — ferretdb stands in for mongodb: its numbers are not mongodb's")
