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
            if c.suffix not in RULE_SUFFIXES:  # so no error can show the content of another kind of file
                raise UnknownGame(f"{name_or_path} is not a rule file (a rule file's name ends in .yaml or .yml)")
            return c
    games = bundled_games()
    stem = p.name[:-5] if p.name.endswith(".yaml") else p.name
    if stem in games and (p.parent == Path(".") or relative_to is not None):
        return games[stem]
    known = ", ".join(games) or "none"
    raise UnknownGame(f"no rule file or bundled game named {name_or_path!r} (bundled games: {known})")


RULE_SUFFIXES = (".yaml", ".yml")


def resolve_reference(name: str, folder: Path, allow: tuple[Path, ...] = ()) -> Path:
    """The rule file a file names (``extends``, a record's rules): a bundled game, or a rule file under
    ``folder`` (the folder of the file that names it) or under one of the ``allow`` folders.

    Names from files are untrusted: an absolute path, ``..`` or a link that leads out of those folders is
    refused before anything is read, and so is a file that is not a rule file (``.yaml``/``.yml``), so no
    error can show the content of another kind of file.
    """
    p = Path(name)
    if not p.is_absolute() and ".." not in p.parts:
        for c in (folder / p, folder / (name + ".yaml")):
            if c.is_file() and c.suffix in RULE_SUFFIXES and _inside(c, (folder, *allow)):
                return c
        games = bundled_games()
        stem = p.name[:-5] if p.name.endswith(".yaml") else p.name
        if p.parent == Path(".") and stem in games:
            return games[stem]
    else:
        c = p if p.is_absolute() else folder / p
        if _inside(c, allow):  # nothing is looked at outside the allowed folders, not even whether it exists
            if c.is_file() and c.suffix in RULE_SUFFIXES:
                return c
            raise UnknownGame(f"no rule file {name!r}")
        raise UnknownGame(f"{name!r} is outside the folder of the file that names it: a file may name bundled "
                          f"games and rule files under its own folder (--allow-path DIR allows another folder)")
    if p.suffix and p.suffix not in RULE_SUFFIXES:
        raise UnknownGame(f"{name!r} is not a rule file (.yaml or .yml)")
    known = ", ".join(bundled_games()) or "none"
    raise UnknownGame(f"no rule file or bundled game named {name!r} beside the file that names it "
                      f"(bundled games: {known})")


def _inside(path: Path, folders: tuple[Path, ...]) -> bool:
    real = path.resolve()
    return any(real.is_relative_to(f.resolve()) for f in folders)

