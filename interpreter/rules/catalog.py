"""Finding rule files: by path, or by the name of a bundled game."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from interpreter.errors import UnknownGame


def _bundled_dir() -> Path:
    """The folder of bundled games: installed package data, or the source checkout."""
    try:
        installed = resources.files("interpreter") / "bundled" / "games"
        if installed.is_dir():
            return Path(str(installed))
    except (ModuleNotFoundError, FileNotFoundError):  # pragma: no cover
        pass
    return Path(__file__).resolve().parents[2] / "games"


def bundled_games() -> dict[str, Path]:
    """Bundled game name -> file, for every playable game (fragments excluded)."""
    folder = _bundled_dir()
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))} if folder.is_dir() else {}


def schema_path() -> Path:
    try:
        installed = resources.files("interpreter") / "bundled" / "schema" / "game.schema.json"
        if installed.is_file():
            return Path(str(installed))
    except (ModuleNotFoundError, FileNotFoundError):  # pragma: no cover
        pass
    return Path(__file__).resolve().parents[2] / "schema" / "game.schema.json"


def resolve(name_or_path: str, relative_to: Path | None = None) -> Path:
    """A path to an existing file, or the bundled game of that name."""
    candidates = []
    p = Path(name_or_path)
    if relative_to is not None and not p.is_absolute():
        candidates += [relative_to / p, relative_to / (name_or_path + ".yaml")]
    candidates += [p]
    for c in candidates:
        if c.is_file():
            return c
    games = bundled_games()
    stem = p.name[:-5] if p.name.endswith(".yaml") else p.name
    if stem in games and (p.parent == Path(".") or relative_to is not None):
        return games[stem]
    known = ", ".join(games) or "none"
    raise UnknownGame(f"no rule file or bundled game named {name_or_path!r} (bundled games: {known})")
