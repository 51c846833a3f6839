"""Loading rule files: safe YAML with positions, extends/overrides, schema."""
