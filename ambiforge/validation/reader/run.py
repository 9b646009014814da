"""Run read steps in the item's kitchen, checking each against the preconditions table
(``catalog/preconditions.yaml``) and the affordances: every step either can happen as written, or is a
problem naming the step and the reason."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ambiforge.catalog.preconditions import Preconditions, cached_preconditions
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.validation.reader.grammar import Step
from ambiforge.validation.reader.kitchen import WATER, Kitchen
from ambiforge.world import can

Problem = tuple[int, str]


class Runner:
    """Runs steps one by one on a :class:`Kitchen`; ``problems`` collects (step index, reason)."""

    def __init__(
        self,
        graph: SceneGraph,
        referent: tuple[str, list[str]] | None = None,
        rules: Preconditions | None = None,
    ) -> None:
        self.k = Kitchen.of(graph)
        self.referent = referent
        self.rules = rules or cached_preconditions()
        self.problems: list[Problem] = []
        self.resolved: list[dict[str, str | None]] = []
        #: What the robot holds when a free step ("Reheat the soup.") dealt with it: the step does not say
        #: where it went, so the next pick-up does not count it as still in hand.
        self.loose: str | None = None
        #: The object last picked up and where from, while no step but opening and closing came after.
        self.taken: tuple[str, str] | None = None
        #: The object last put down and where, while no step but opening and closing came after.
        self.dropped: tuple[str, str] | None = None

    # -- helpers ------------------------------------------------------------------------------------------

    def _bad(self, step: Step, reason: str) -> None:
        self.problems.append((step.index, reason))

    def _ref(self, step: Step, phrase: str | None) -> str | None:
        if phrase is None:
            return None
        ref = self.k.find(phrase, self.referent)
        if ref is None:
            self._bad(step, f"names {phrase!r}, which this kitchen does not have")
        return ref

    def _reach(self, step: Step, ref: str) -> bool:
        if ref == WATER or ref == self.k.holding:
            return True
        if ref in self.k.gone:
            self._bad(step, f"uses the {self.k.name(ref)}, already handed over")
            return False
        closed = self.k.blocked_by(ref)
        if closed is not None:
            self._bad(step, f"uses the {self.k.name(ref)} while it is in the closed {self.k.name(closed)}")
            return False
        return True

    def _holder(self, ref: str) -> bool:
        node = self.k.nodes.get(ref)
        if node is None:
            return False
        if node.type == "place":
            return node.id in self.rules.holders.places
        return bool(set(node.tags) & set(self.rules.holders.tags))

    def _tool_for(self, step: Step, verb: str, objs: Sequence[str], tool: str | None) -> None:
        """A tool verb needs a tool in hand that affords it, unless the object is done by hand."""
        action = self.rules.tool_verbs.get(verb)
        if action is None:
            return
        groups = set(self.rules.by_hand.get(verb, ()))
        if any(self.k.nodes[o].group in groups for o in objs if o in self.k.nodes):
            return
        tool = tool if tool is not None else self.k.holding
        node = self.k.nodes.get(tool) if tool else None
        if node is None or tool != self.k.holding:
            what = f"the {self.k.name(tool)}, which it is not holding" if tool else "no tool in hand"
            self._bad(step, f"{verb}s with {what}")
            return
        if not can(self.k.graph, node, action):
            self._bad(step, f"{verb}s with the {node.name}, which cannot {action}")

    def _heat(self, holder: str) -> None:
        for ref in [holder, *self.k.inside(holder)]:
            self.k.hot.add(ref)

    # -- steps --------------------------------------------------------------------------------------------

    def run(self, steps: Sequence[Step]) -> list[Problem]:
        for step in steps:
            if step.verb not in ("take", "put", "open", "close"):
                self.taken = self.dropped = None
            getattr(self, f"_{step.verb}")(step)
        return self.problems

    def _take(self, step: Step) -> None:
        ref = self._ref(step, step.obj)
        self.resolved.append({"obj": ref, "target": self._ref(step, step.target) if step.target else None})
        if ref is None or ref == WATER:
            return
        if self.k.holding is not None and self.k.holding == self.loose:
            self.k.location[self.k.holding] = "counter"  # a vague step dealt with it ("Put the milk away.")
        elif self.k.holding not in (None, ref):
            self._bad(step, f"picks up the {self.k.name(ref)} while holding the {self.k.name(self.k.holding)}")
        self.loose = None
        node = self.k.nodes[ref]
        if set(node.tags) & set(self.rules.used_in_place):
            self._bad(step, f"picks up the {node.name}, an appliance used where it stands (the food goes into it)")
        if not self._reach(step, ref):
            return
        if self.dropped is not None and self.dropped == (ref, self.k.location.get(ref)):
            said = self.k.name(self.dropped[1])
            self._bad(step, f"picks up the {self.k.name(ref)} just put down at the {said}: the put-down moves nothing")
        self.dropped = None
        where = self.k.location.pop(ref, None)
        self.taken = (ref, where) if where is not None else None
        self.k.holding = ref

    def _put(self, step: Step) -> None:
        ref, where = self._ref(step, step.obj), self._ref(step, step.target)
        self.resolved.append({"obj": ref, "target": where})
        if ref is None or where is None or WATER in (ref, where):
            return
        if self.taken == (ref, where):
            self._bad(step, f"puts the {self.k.name(ref)} back where it was picked up from: the task moves nothing")
        self.taken = None
        if self.k.holding != ref:
            self._bad(step, f"puts down the {self.k.name(ref)}, which it never fetched")
            if not self._reach(step, ref):
                return
        if self.k.open.get(where) is False:
            self._bad(step, f"puts the {self.k.name(ref)} in the closed {self.k.name(where)}")
        elif self.k.nodes[where].type == "object" and not self._reach(step, where):
            return
        if where in self.rules.not_after_wash and ref in self.k.washed:
            self._bad(step, f"washes the {self.k.name(ref)}, then puts it in the {self.k.name(where)}")
        node = self.k.nodes[ref]
        if where in self.rules.vessel_places and node.kind == "food":
            self._bad(step, f"puts the {node.name} in the {self.k.name(where)} loose, with no dish or tray")
        elif where in self.rules.heaters and node.kind == "food" and set(node.tags) & set(self.rules.liquid_tags):
            self._bad(step, f"heats the {node.name} in the {self.k.name(where)} in its carton, not in a mug or bowl")
        frozen = set(node.tags) & set(self.rules.frozen_tags)
        if frozen and where in self.rules.cold_places and self.rules.freezer not in self.k.nodes:
            self._bad(step, f"keeps the frozen {node.name} in the {self.k.name(where)}, and the kitchen has no freezer")
        elif frozen and self.k.nodes[where].type == "place" and where != self.rules.freezer:
            self._bad(step, f"leaves the frozen {node.name} out at the {self.k.name(where)}: it is kept in the freezer")
        self.k.location[ref] = where
        self.k.holding = None
        self.dropped = (ref, where)
        if where in self.k.switched_on and where in self.rules.heaters:
            self._heat(where)

    def _open(self, step: Step) -> None:
        ref = self._ref(step, step.obj)
        self.resolved.append({"obj": ref})
        if ref is not None:
            self.k.open[ref] = True

    def _close(self, step: Step) -> None:
        ref = self._ref(step, step.obj)
        self.resolved.append({"obj": ref})
        if ref is not None:
            self.k.open[ref] = False

    def _switch_on(self, step: Step) -> None:
        ref = self._ref(step, step.obj)
        self.resolved.append({"obj": ref})
        if ref is None:
            return
        self.k.switched_on.add(ref)
        if ref in self.rules.heaters:
            attribute = self.rules.heat_safe.get(ref)
            for inside in self.k.inside(ref) if attribute else []:
                node = self.k.nodes[inside]
                if getattr(node.attributes, attribute) is False:
                    said = attribute.replace("_", "-")
                    self._bad(step, f"switches on the {self.k.name(ref)} with the {node.name} in it, not {said}")
            self._heat(ref)

    def _switch_off(self, step: Step) -> None:
        ref = self._ref(step, step.obj)
        self.resolved.append({"obj": ref})
        if ref is not None:
            self.k.switched_on.discard(ref)

    def _pour(self, step: Step) -> None:
        ref, where = self._ref(step, step.obj), self._ref(step, step.target)
        self.resolved.append({"obj": ref, "target": where})
        if ref is None or where is None:
            return
        node = self.k.nodes.get(ref)
        if node is not None and node.type == "place":
            if ref not in self.k.filled or ref not in self.k.switched_on:
                self._bad(step, f"pours water from the {node.name}, which was never filled and switched on")
        elif ref != WATER and self.k.holding != ref:
            self._bad(step, f"pours the {self.k.name(ref)}, which it never fetched")
        if not self._holder(where):
            self._bad(step, f"pours into the {self.k.name(where)}, which cannot hold it (no cup, mug or pot)")
            return
        self._reach(step, where)
        if ref in self.rules.heaters or ref == WATER:
            self._heat(where)

    def _cut(self, step: Step) -> None:
        ref, tool = self._ref(step, step.obj), self._ref(step, step.tool)
        self.resolved.append({"obj": ref, "tool": tool})
        if ref is None or tool is None:
            return
        self._reach(step, ref)
        self._tool_for(step, "cut", [ref], tool)

    def _use(self, step: Step) -> None:
        ref, tool = self._ref(step, step.obj), self._ref(step, step.tool)
        onto = self._ref(step, step.target) if step.target else None  # spread the honey on the sourdough
        self.resolved.append({"obj": ref, "tool": tool, "target": onto})
        if ref is None or tool is None:
            return
        self._reach(step, ref)
        if onto is not None:
            self._reach(step, onto)
        verb = (step.how or "").split(" ")[0]
        if verb in self.rules.tool_verbs:
            self._tool_for(step, verb, [ref], tool)
        elif tool != self.k.holding:
            self._bad(step, f"{step.how}s with the {self.k.name(tool)}, which it never fetched")

    def _wash(self, step: Step) -> None:
        ref = self._ref(step, step.obj)
        self.resolved.append({"obj": ref})
        if ref is None or ref == WATER:
            return
        node = self.k.nodes[ref]
        if self.k.holding != ref:
            self._bad(step, f"washes the {node.name}, which it never fetched")
        if node.attributes.material in self.rules.disposable_materials:
            self._bad(step, f"washes the {node.name}, which is thrown away after use, not washed")
        self.k.washed.add(ref)

    def _fill(self, step: Step) -> None:
        ref = self._ref(step, step.obj)
        self.resolved.append({"obj": ref})
        if ref is not None and self._reach(step, ref):
            self.k.filled.add(ref)

    def _hand_over(self, step: Step) -> None:
        ref = self._ref(step, step.obj)
        self.resolved.append({"obj": ref})
        if ref is None:
            return
        if self.k.holding != ref:
            self._bad(step, f"hands over the {self.k.name(ref)}, which it never fetched")
        self.k.holding = None if self.k.holding == ref else self.k.holding
        self.k.location.pop(ref, None)
        self.k.gone.add(ref)

    def _wait(self, step: Step) -> None:
        self.resolved.append({})

    def _ask(self, step: Step) -> None:
        self.resolved.append({})

    def _free(self, step: Step) -> None:
        refs = self.k.mentions(step.text, self.referent)
        self.resolved.append({"objs": ",".join(refs)})
        for ref in refs:
            if self.k.nodes[ref].type == "object":
                self._reach(step, ref)
        verb = step.how or ""
        if verb in self.rules.pour_verbs and re.search(r"\b(?:over|into|onto|on)\b", step.text, re.IGNORECASE):
            targets = [r for r in refs if not self._holder(r)]
            if targets and not any(self._holder(r) for r in refs):
                self._bad(step, f"pours onto the {self.k.name(targets[-1])}, which cannot hold it (no cup, mug or pot)")
        if verb in self.rules.tool_verbs:
            objs = [r for r in refs if self.k.nodes[r].type == "object"]
            self._tool_for(step, verb, objs, None)
        if self.k.holding is not None and self.k.holding in refs:
            self.loose = self.k.holding
