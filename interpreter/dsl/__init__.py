"""Trickbook's expression language: grammar, parser, compiler, builtins.

Text is parsed once (Lark, LALR) into a small AST carrying positions, checked
against the names the calling rule provides, and compiled into Python
closures. Rule text never reaches ``eval``/``exec``.
"""
