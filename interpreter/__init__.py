"""Trickbook: trick-taking card games written as data, run by one generic interpreter."""

__version__ = "0.1.0"
