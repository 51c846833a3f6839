"""The commands of ``trickbook`` (interpreter/cli.py runs them), a module each concern:

- arguments.py: the command line of every command (argparse), as ``--help`` tells it;
- common.py: the bounds of the numbers, the usage error, the arguments several commands read alike;
- output.py: standard output, --record and --report files and standard error, each failing as it should;
- rule_files.py: validate, list, explain, schema;
- play.py: play, replay;
- simulate.py: simulate, compare (and their progress line and report);
- conformance.py: conformance;
- serve.py: serve (the web table).

Each command imports the modules it alone needs (the harness, the web) when it runs, so that ``validate`` and
``list`` start without them. Nothing is imported here: cli.py imports each module while it holds Ctrl-C.
"""
