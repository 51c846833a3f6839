"""``python -m interpreter``: the same program as the ``trickbook`` command."""

from interpreter.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
