"""A draw that stops before composing: a draft refused whatever composition adds must be one the plan of the
composed draft refuses too, or the draw would give up a pair it could make (and change which pairs a seed
makes)."""

from __future__ import annotations

import pytest

from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import OfflineGenerator, planning
from ambiforge.models.scene_graph import SceneGraph


def test_a_draft_refused_before_composing_is_refused_once_composed(catalog, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    idle_from_the_start, plan = planning.idle_from_the_start, planning.plan
    flagged: list[str] = []
    outcomes: list[tuple[str, planning.Planned | str]] = []

    def told(draft: Draft, graph: SceneGraph) -> None:  # recorded, not acted on: the draw composes and plans
        reason = idle_from_the_start(draft, graph)
        flagged.append(reason or "")
        return None

    def planned(draft: Draft, graph: SceneGraph, catalog_):  # type: ignore[no-untyped-def]
        outcome = plan(draft, graph, catalog_)
        outcomes.append((flagged.pop(), outcome))
        return outcome

    monkeypatch.setattr(planning, "idle_from_the_start", told, raising=True)
    monkeypatch.setattr(planning, "plan", planned, raising=True)
    gen = OfflineGenerator(catalog, 3, "t")
    for index in range(40):
        gen.generate(index, "safety")
    refused_early = [outcome for reason, outcome in outcomes if reason]
    assert refused_early, "no draft of these draws is refused early: the test says nothing"
    assert all(isinstance(o, str) and "moves an object nowhere" in o for o in refused_early)
