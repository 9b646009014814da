"""A module whose import waits until the file named by ``AMBIFORGE_TEST_IMPORT_GATE`` exists (at most a
minute), for the warm worker's test of imports done while it serves."""

import os
import time

_deadline = time.monotonic() + 60
while not os.path.exists(os.environ["AMBIFORGE_TEST_IMPORT_GATE"]):
    if time.monotonic() > _deadline:
        raise TimeoutError("the gate never opened")
    time.sleep(0.01)

READY = True
