"""The questions the expressions' builtins ask a state about teams (``team()``, ``opponents()``, ``same_team()``,
``known_team()``...), answered once for any state that holds its teams: today's ``State`` (engine/state.py) and the
compact layout's (runtime/slots.py) both take them from here."""

from __future__ import annotations

from collections.abc import Sequence


class TeamQueries:
    """Team questions over what a state holds: ``teams`` (each seat's team), ``team_known`` (per seat, the bits of
    the seats whose team it was told; None: the teams are public), ``team_counted`` (the teams' sizes are public)
    and ``players``."""

    __slots__ = ()

    players: int  # what a state holds of its teams: its own attributes, or properties of the slots holding them
    teams: Sequence[int]
    team_known: list[int] | None
    team_counted: bool

    def team_members(self, seat: int) -> list[int]:
        teams = self.teams
        t = teams[seat]
        return [s for s in range(self.players) if teams[s] == t]

    def opponents(self, seat: int) -> list[int]:
        teams = self.teams
        t = teams[seat]
        return [s for s in range(self.players) if teams[s] != t]

    def same_team(self, a: int, b: int) -> bool:
        teams = self.teams
        return teams[a] == teams[b]

    def known_teams(self, viewer: int | None) -> list[int | None]:
        """The team of each seat as ``viewer`` knows it (None: not known to it; viewer None: a spectator, who
        knows what everyone was told). A seat knows the teams of the seats it was told of (known_teams' bits);
        when the teams' sizes are public it also counts: when only one team still has room, every seat whose
        team it does not know is on that team."""
        known = self.team_known
        teams = list(self.teams)
        if known is None:
            return list(teams)
        n = self.players
        if viewer is None:
            mask = (1 << n) - 1
            for m in known:
                mask &= m
        else:
            mask = known[viewer]
        out: list[int | None] = [teams[s] if mask >> s & 1 else None for s in range(n)]
        if self.team_counted and None in out:
            room = [t for t in set(teams) if out.count(t) < teams.count(t)]
            if len(room) == 1:
                out = [room[0] if t is None else t for t in out]
        return out

    def known_team(self, viewer: int, seat: int) -> list[int]:
        """The seats ``viewer`` knows to be on ``seat``'s team (none when it does not know ``seat``'s team)."""
        view = self.known_teams(viewer)
        t = view[seat]
        return [] if t is None else [s for s in range(self.players) if view[s] == t]

    def known_opponents(self, viewer: int, seat: int) -> list[int]:
        """The seats ``viewer`` knows to be on another team than ``seat`` (none when it does not know ``seat``'s)."""
        view = self.known_teams(viewer)
        t = view[seat]
        return [] if t is None else [s for s in range(self.players) if view[s] is not None and view[s] != t]
