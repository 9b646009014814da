"""SG-CoT (``--method sgcot``): the seed's planner on the item's scene graph (:mod:`ambiforge.detectors.sgcot`).

It decides at once (no calibration): its one option is the step it acts on or the question it asks, and it
asks when it calls ``ask``. Its own figures (SR and CQR per type and per level, the cost table) come from
:func:`summarise`; AmbiK's metrics are computed on its rows like every method's, so one table shows both.

Settings (``[eval.methods.sgcot]`` or the command line): ``max_turns`` retrieval turns, the seed's ablations
(``ablation``: ``whole_graph`` puts the whole graph in the prompt with no retrieval, ``one_retrieval``
allows one call, ``no_edges`` queries the graph without its edges) and ``tool_mode``: ``tools`` (OpenAI
function calling), ``json`` (a JSON object in the reply, for servers without tool calling) or ``auto``
(tools, and JSON for the rest of the run once the server refuses them).
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, ClassVar, Literal

from pydantic import Field

from ambiforge import ambiguity
from ambiforge.detectors.methods.base import Detection, DirectDetector, MethodSettings
from ambiforge.detectors.model import EvalModel
from ambiforge.detectors.sgcot import scoring
from ambiforge.detectors.sgcot.loop import Plan, run_episode
from ambiforge.detectors.sgcot.tools import episode_graph, view_text
from ambiforge.detectors.tasks import EvalTask
from ambiforge.errors import LLMCallError
from ambiforge.llm.client import ToolsUnsupported

Ablation = Literal["none", "whole_graph", "one_retrieval", "no_edges"]


class SGCoTSettings(MethodSettings):
    max_turns: int = Field(default=5, ge=1, le=50, description="retrieval turns before the planner must conclude")
    ablation: Ablation = Field(default="none", description="the seed's ablations (none: the full method)")
    tool_mode: Literal["auto", "tools", "json"] = Field(default="auto", description="how calls are made")
    max_tokens: int = Field(default=256, ge=16, le=4096, description="per reply")


class SGCoT(DirectDetector):
    name: ClassVar[str] = "sgcot"
    order: ClassVar[int] = 20  # after AmbiK's methods, the debate and the dialogue
    Settings: ClassVar[type[MethodSettings]] = SGCoTSettings
    needs_logprobs: ClassVar[bool] = False
    sequential_calls: ClassVar[int] = 6  # max_turns + 1 at the default
    #: the models (one per eval run) whose server refused tools: ``auto`` uses JSON for them from then on
    _no_tools: ClassVar[weakref.WeakSet[Any]] = weakref.WeakSet()
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def _plan(self, settings: SGCoTSettings, model: EvalModel) -> Plan:
        mode = settings.tool_mode
        if mode == "auto":
            with self._lock:
                refused = model in self._no_tools
            mode = "json" if refused or not callable(getattr(model, "chat", None)) else "tools"
        whole = settings.ablation == "whole_graph"
        return Plan(
            mode=mode,
            turns=0 if whole else 1 if settings.ablation == "one_retrieval" else settings.max_turns,
            max_calls=1 if settings.ablation == "one_retrieval" else None,
            whole_graph=whole,
            edges=settings.ablation != "no_edges",
            max_tokens=settings.max_tokens,
            with_plan=settings.with_plan,
            seed=settings.seed,
        )

    def detect(self, task: EvalTask, model: EvalModel, settings: MethodSettings) -> Detection:
        assert isinstance(settings, SGCoTSettings)
        graph = episode_graph(task.world, task.ambiguous, edges=settings.ablation != "no_edges")
        if graph is None:
            return Detection([], [], None, None, error="the item has no scene graph (world)")
        definition = ambiguity.get(task.ambiguity_type)
        tags = ambiguity.names()
        plan = self._plan(settings, model)
        try:
            episode = run_episode(task, model, graph, plan, tags, view_text(task.world, task.ambiguous))
        except ToolsUnsupported as exc:
            if settings.tool_mode != "auto":
                return Detection([], [], None, None, error=f"{exc} (try --tool-mode json)")
            with self._lock:
                self._no_tools.add(model)
            episode = run_episode(
                task, model, graph, self._plan(settings, model), tags, view_text(task.world, task.ambiguous)
            )
        except LLMCallError as exc:  # a call failed after its retries: the episode counts as failed
            return Detection([], [], None, None, error=str(exc))
        details: dict[str, Any] = {
            "mode": episode.mode,
            "ablation": settings.ablation,
            "level": scoring.level(task),
            "retrievals": episode.retrievals,
            "input_tokens": episode.input_tokens,
            "output_tokens": episode.output_tokens,
        }
        answer = episode.answer
        if answer is None or episode.error:
            return Detection([], [], None, None, episode.calls, episode.cached, details, episode.error)
        succeeded = scoring.success(task, answer, definition.good_agent, graph)
        details |= {
            "answer": answer.to_record(),
            "success": succeeded,
            "sr": succeeded,
            "cqr": scoring.correct_question(task, answer),
            "grounded_cqr": scoring.grounded_question(task, answer),
        }
        option = answer.question if answer.kind == "ask" else answer.step
        return Detection([option], [1.0], [0], answer.kind == "ask", episode.calls, episode.cached, details)

    def summarise(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        return scoring.summarise(rows)
