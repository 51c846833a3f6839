"""Conformance: the battery of checks every game must pass (battery.py), the drivers whose records must agree
(drivers.py), and runs of many games on several processes (runs.py, ``trickbook conformance``)."""
