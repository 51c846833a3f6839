"""What a ``choose`` step says: its options' labels, its choices in the narration (hidden from those who may not
see them), why a card may not be chosen, the choices made so far, and every action it may offer (its domain)."""

from __future__ import annotations

from typing import Any

from interpreter.dsl.types import VALUE, Type
from interpreter.engine.card_tables import hashable
from interpreter.engine.card_values import card_kinds, card_texts, readable, value_kind
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.action_types import Pass, Stop
from interpreter.engine.steps.choose_labels import label_of
from interpreter.engine.steps.choose_reading import ChooseReading, Choosing
from interpreter.engine.steps.words import Words, show, third_person
from interpreter.errors import GameError


class ChooseWords(Words[ChooseReading]):
    """The words of a choose step, read from its resolved options."""

    def refusal(self, game: GameView, state: State, card: int) -> str | None:
        """Why a card may not be chosen now: the step's conditions in words (which options may be chosen, and
        the obligation among them); None when this step offers no cards or sets no condition."""
        step = self.step
        if step.option_type.kind != "card":
            return None
        from interpreter.dsl.words import condition_words

        said = ([f"only {condition_words(step.allowed.text, 'value', noun='card')}"] if step.allowed is not None
                else []) + ([f"{condition_words(step.must.text, 'value', noun='card')}, while you have one"]
                            if step.must is not None else [])
        if not said:
            return f"{game.cards.labels[card]} is not among the cards to {step.verb} now"
        return f"you may {step.verb} " + "; and ".join(said)

    def action_entries(self, game: GameView) -> list[tuple[str, Any, Any, str]]:
        """A pass and a stop when the step has them, then each value of its domain (``domain``): its kind is the
        options' type (a card, a seat, a list...), or, for options of no one kind, the value's own."""
        step = self.step
        t = step.option_type
        out: list[tuple[str, Any, Any, str]] = []
        if step.pass_action is not None:
            out.append(("pass", "pass", None, step.pass_action.label))
        if step.stop_action is not None:
            out.append(("stop", "stop", None, step.stop_action.label))
        kind = t.kind if t.kind != "value" else t.plain
        for v in self._domain(game):
            value = tuple(v) if isinstance(v, list) else v
            out.append((kind or value_kind(v), self._key(game, t, v), value, show(game, t, v)))
        return out

    def shown(self, game: GameView, kind: str, value: Any) -> Any:
        return None if kind in ("pass", "stop") else readable(game, self.step.option_type, value)

    def action_key(self, game: GameView, action: Any) -> Any:
        cls = type(action)
        if cls is Pass:
            return "pass"
        if cls is Stop:
            return "stop"
        return self._key(game, self.step.option_type, action.value)

    def _key(self, game: GameView, t: Type, v: Any) -> Any:
        """A value as the key of its action: a card as its kind, a list as the tuple of its items' keys."""
        if t.kind == "card":
            return game.cards.kinds[v]
        if isinstance(v, (list, tuple)):
            element = t.element if t.kind == "list" and t.element else VALUE
            return tuple(self._key(game, element, x) for x in v)
        if isinstance(v, dict):
            return hashable(v)
        return ("truth", v) if isinstance(v, bool) else v

    def _domain(self, game: GameView) -> list[Any]:
        step = self.step
        if step.domain is not None:
            return list(step.domain)
        part = step.options_expr.part
        if part is not None and part.const:
            return list(part.value)
        t = step.option_type
        if t.kind == "card":
            return card_kinds(game)
        if t.kind == "seat":
            return list(range(game.players))
        if t.kind != "value":
            raise GameError(f"{step.where}: error: the options of step {step.name!r} are {t}s, whose possible "
                            "values the engine cannot list: give the step a domain: (every value it may offer, "
                            "known before play) to give its actions ids")
        out: list[Any] = []
        if t.plain in ("text", ""):
            out += _texts(game, part)
        if t.plain in ("number", ""):
            out += range(len(game.deck) + 1)
        if t.plain == "truth":
            out += [False, True]
        return out

    def label_of(self, state: Any, seat: int | None, value: Any) -> str:
        """How option ``value`` is shown to ``seat`` choosing it: by the step's label, else as people read it."""
        step = self.step
        return label_of(step.label_expr, step.option_type, step.env(state), seat, value)

    def verb_said(self) -> str:
        """The step's verb as a seat's choice is told: 'discard' -> 'discards'."""
        return third_person(self.step.verb)

    def pass_said(self) -> str:
        """How a pass is told (when the step narrates passes): 'pass' -> 'passes', a phrase as it is."""
        label = self.step.pass_label
        return third_person(label) if " " not in label else label

    def secret(self) -> bool:
        """Whether a seat's choice is hidden from the other seats (the step's choices are not shown to all, or are
        made together)."""
        return self.step.visible != "all" or self.step.simultaneous

    def describe(self, game: GameView, state: State, d: Decision | None, action: Any, viewer: int | None = None,
                 seat: int | None = None) -> str | None:
        if seat is None:
            seat = d.actor if d is not None else None
        return self._said(state, action, seat, viewer is not None and viewer != seat and self.secret())

    def describe_public(self, game: GameView, state: State, d: Decision, action: Any) -> str | None:
        return self._said(state, action, d.actor, self.secret())

    def _said(self, state: State, action: Any, seat: int | None, hidden: bool) -> str | None:
        """The choice ``action`` of ``seat`` as told: what was chosen, or only that something was (``hidden``)."""
        step = self.step
        if isinstance(action, Stop):
            return None
        if isinstance(action, Pass):
            return self.pass_said() if step.narrate_pass else None
        if hidden:
            return f"{third_person(step.verb)} {'a card' if step.option_type.kind == 'card' else 'something'}"
        if step.describe_expr is not None:
            env = step.env(state)
            env["seat"], env["value"] = seat, action.value
            return str(step.describe_expr(env))
        return f"{self.verb_said()} {action.label}"

    def public(self, game: GameView, state: State, p: Choosing, viewer: int | None = None) -> dict[str, Any]:
        names = game.seat_names
        shown = []
        for h in p.history:
            if h.get("passed"):  # a final pass (pass_is_final), shown by its label
                shown.append([names[h["seat"]], self.step.pass_label])
                continue
            hidden = self.secret() and viewer != h["seat"]
            shown.append([names[h["seat"]], "(hidden)" if hidden else
                          self.label_of(state, h["seat"], h["value"])])
        return {"choices": shown} if shown else {}


def _texts(game: GameView, part: Any) -> list[str]:
    """The texts options may hold when the engine cannot list them: those written in the options and the
    texts of the cards' attributes, each once, in that order."""
    out: dict[str, None] = {}
    todo = [part] if part is not None else []
    while todo:
        p = todo.pop()
        if p.const and isinstance(p.value, str):
            out[p.value] = None
        elif p.const and isinstance(p.value, (list, tuple)):
            out.update((v, None) for v in p.value if isinstance(v, str))
        todo.extend(reversed(p.kids))
    out.update(dict.fromkeys(card_texts(game)))
    return list(out)

