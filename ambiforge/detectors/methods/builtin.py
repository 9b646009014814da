"""Registers the AmbiK paper's five methods and the judge's two detectors (debate, dialogue)."""

from __future__ import annotations

from ambiforge.detectors.methods.base import register
from ambiforge.detectors.methods.debate import Debate
from ambiforge.detectors.methods.dialogue import Dialogue
from ambiforge.detectors.methods.direct import Binary, NoHelp
from ambiforge.detectors.methods.knowno import KnowNo
from ambiforge.detectors.methods.lap import LAP
from ambiforge.detectors.methods.lofreecp import LofreeCP

for _cls in (KnowNo, LAP, LofreeCP, Binary, NoHelp, Debate, Dialogue):
    register(_cls.name, _cls)
