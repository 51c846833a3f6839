"""Finding rule files: by path, or by the name of a bundled game."""

from __future__ import annotations

import difflib
import errno
import os
import stat
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


def bundled_name(path: Path) -> str | None:
    """The file name of a bundled game's file as Trickbook finds it (in the bundled folder), else None: errors
    name a bundled file by its file name (the game's name and .yaml), never by the installation's path."""
    if path.suffix != ".yaml" or path.parent != _bundled_dir():
        return None
    return path.name


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
        if _is_file(c, name_or_path):
            # so no error can show the content of another kind of file (nor a link's to one)
            if c.suffix not in RULE_SUFFIXES or _real(c).suffix not in RULE_SUFFIXES:
                raise UnknownGame(f"{_shown(name_or_path)} is not a rule file (a rule file's name ends in .yaml or "
                                  ".yml)")
            return c
    games = bundled_games()
    stem = p.name[:-5] if p.name.endswith(".yaml") else p.name
    if stem in games and (p.parent == Path(".") or relative_to is not None):
        return games[stem]
    known = ", ".join(games) or "none"
    near = difflib.get_close_matches(stem.lower(), list(games), n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]}?" if near else ""
    raise UnknownGame(f"no rule file or bundled game named {_shown(name_or_path)!r}{hint} (bundled games: {known})")


RULE_SUFFIXES = (".yaml", ".yml")


def resolve_reference(name: str, folder: Path, allow: tuple[Path, ...] = ()) -> Path:
    """The rule file a file names (``extends``, a record's rules): a bundled game, or a rule file under
    ``folder`` (the folder of the file that names it) or under one of the ``allow`` folders.

    Names from files are untrusted: an absolute path, ``..`` or a link that leads out of those folders is
    refused before anything is read, and so is a file that is not a rule file (``.yaml``/``.yml``), so no
    error can show the content of another kind of file. Links are followed first: the file they lead to is
    the one that must be inside and be a rule file. A path that cannot be followed (a loop of links, too
    long) is refused in words.
    """
    p = Path(name)
    if not p.is_absolute() and ".." not in p.parts:
        for c in (folder / p, folder / (name + ".yaml")):
            if c.suffix in RULE_SUFFIXES and _inside(c, (folder, *allow)) and _is_file(c, name):
                _check_rule_file(c, name)
                return c
        games = bundled_games()
        stem = p.name[:-5] if p.name.endswith(".yaml") else p.name
        if p.parent == Path(".") and stem in games:
            return games[stem]
    else:
        c = p if p.is_absolute() else folder / p
        if _inside(c, allow):  # nothing is looked at outside the allowed folders, not even whether it exists
            if c.suffix in RULE_SUFFIXES and _is_file(c, name):
                _check_rule_file(c, name)
                return c
            raise UnknownGame(f"no rule file {_shown(name)!r}")
        raise UnknownGame(f"{_shown(name)!r} is outside the folder of the file that names it: a file may name "
                          f"bundled games and rule files under its own folder (--allow-path DIR allows another "
                          f"folder)")
    if p.suffix and p.suffix not in RULE_SUFFIXES:
        raise UnknownGame(f"{_shown(name)!r} is not a rule file (.yaml or .yml)")
    known = ", ".join(bundled_games()) or "none"
    raise UnknownGame(f"no rule file or bundled game named {_shown(name)!r} beside the file that names it "
                      f"(bundled games: {known})")


def _real(path: Path) -> Path:
    """``path`` with every symbolic link on it followed, as far as they lead (never an error: a loop or a path
    too long is left as it is, for :func:`_is_file` to word)."""
    try:
        return Path(os.path.realpath(path))
    except ValueError:  # a NUL character: no file has that name
        return Path(path)


def _inside(path: Path, folders: tuple[Path, ...]) -> bool:
    """Whether the file ``path`` leads to (links followed) lies under one of ``folders``."""
    real = _real(path)
    return any(real.is_relative_to(_real(f)) for f in folders)


def _is_file(path: Path, name: str) -> bool:
    """Whether ``path`` leads to a file; a path that cannot lead anywhere (a loop of links, too long, not
    readable) is refused in Trickbook's words, naming the path as written (``name``)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return False
        raise UnknownGame(f"cannot read {_shown(name)!r}: {_why(exc)}") from None
    except ValueError:  # a NUL character in the path
        return False


def _check_rule_file(path: Path, name: str) -> None:
    """Refuse a link named like a rule file that leads to another kind of file (its suffix is the target's)."""
    if _real(path).suffix not in RULE_SUFFIXES:
        raise UnknownGame(f"{_shown(name)!r} is not a rule file: it is a link to a file whose name does not end in "
                          ".yaml or .yml")


def _why(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "the path is a loop of symbolic links"
    if exc.errno == errno.ENAMETOOLONG:
        return "the path is too long"
    if exc.errno == errno.EACCES:
        return "permission denied"
    return (exc.strerror or "the path cannot be followed").lower()


SHOWN_NAME = 200  # characters of a name an error shows: a 5,000-character path is shown cut


def _shown(name: str) -> str:
    """A name as an error shows it: a very long one cut in the middle."""
    return name if len(name) <= SHOWN_NAME else f"{name[:SHOWN_NAME - 60]}...{name[-40:]}"

