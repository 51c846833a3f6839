"""The plan: a rule file's sections read into plain frozen data, between the expression language (dsl) and the
engine's run time. Each top-level section is one entry of a keyword table (plan/sections.py, an entry's shape:
plan/section.py): its schema fragment, its reader, its checks and its words."""
