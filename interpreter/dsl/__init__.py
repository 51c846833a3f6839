"""Trickbook's expression language: grammar, parser, compiler, builtins.

Text is parsed once (Lark, LALR) into a small AST carrying positions, checked
against the names the calling rule provides (resolve.py, checks.py) into typed
parts (ir.py, passes.py), and compiled into plain Python functions generated
from them (emit.py, codegen.py; see compiler.py). Rule text never reaches
``eval``/``exec``: only the source the compiler writes does.
"""
