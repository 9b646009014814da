"""Registers the AmbiK paper's five methods and the judge's two detectors (debate, dialogue)."""

from __future__ import annotations

from ambiforge.evaluation.methods.base import register
from ambiforge.evaluation.methods.debate import Debate
from ambiforge.evaluation.methods.dialogue import Dialogue
from ambiforge.evaluation.methods.direct import Binary, NoHelp
from ambiforge.evaluation.methods.knowno import KnowNo
from ambiforge.evaluation.methods.lap import LAP
from ambiforge.evaluation.methods.lofreecp import LofreeCP

for _cls in (KnowNo, LAP, LofreeCP, Binary, NoHelp, Debate, Dialogue):
    register(_cls.name, _cls)
