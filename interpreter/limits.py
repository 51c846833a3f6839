"""Limits on what untrusted input may ask for, shared by the loader, the expression language and the CLI."""

MAX_DIGITS = 15  # the longest whole number a rule file, an expression, a record or a prompt answer may write
