"""The World boards of the Super Mario Bros. board game as data, and their validator.

The printed boards are not in the rule text, so each World is a directed path graph
(shared/RULINGS.md section 4) in a JSON file; the referee never hard-codes a board. A
board that a person traced by hand is checked before any game starts, and every problem
is named by World and space, because a wrong edge would silently change the rules.

File format (``"format": "smb-worlds/1"``; the bundled controller/games/data/smb_worlds.json
is a stand-in drawn from the rule text):

- ``cards``: card kind -> ``{"count": n}`` plus, for hazards, ``"tokens": n`` (the
  matching hazard tokens) and ``"world": w`` for a hazard playable only on World w.
  ``fireball`` is the only kind without tokens. The counts add up to 36.
- ``worlds``: four objects, World 1 to 4, each with
  - ``size``: [width, height] of the board's playing area in board units (mm); the
    camera's plane has the same proportions;
  - ``markers``: the four ArUco ids (DICT_4X4_50) at its corners, telling the boards apart;
  - ``blocks``: ``{"id", "kind": "question"|"coins"|"brick", "rect": [x0, y0, x1, y1]}``;
  - ``decor``: drawing-only shapes (pipe and cannon bodies), ``{"kind", "rect"}``;
  - ``spaces``: ``{"id", "colour": "red"|"yellow"|"none", "level", "at": [x, y],
    "features": [...], "next": [ids ahead], "on": block, "under": block}``.
    ``level`` is where the space is drawn (ground, pipe, block, cannon, platform);
    ``features`` are among FEATURES; ``next`` follows the big arrow; ``on``/``under`` name
    the block a space sits on or under. Ids are unique over all four Worlds.

Rules the validator enforces (each error: "World n, space id: what is wrong"):
exactly one START (colour "none"); every other space red or yellow; every space
reachable from START; ``next`` names spaces of the same World; the path only goes ahead
(no cycle); Worlds 1-3 end in two link spaces, one red and one yellow, with nothing after
them, and every other space there has a next red and a next yellow space ahead; World 4
has King Bowser (red) whose only next space is the Princess (yellow, the end) and no link;
water only on Worlds 2-3, fire bars only on World 4; a question-block or coins-inside
space lies under a block of that kind; no edge joins the space under a block and the
space on top of it (a block cannot be walked through); positions lie on the board.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ...i18n import N_, translator

FORMAT = "smb-worlds/1"
DEFAULT_PATH = Path(__file__).parents[1] / "data" / "smb_worlds.json"  # controller/games/data
COLOURS = ("red", "yellow")
FEATURES = ("start", "mushroom", "coins_inside", "coin_on_top", "question_block", "water",
            "fire_bar", "link", "king_bowser", "princess")
FEATURE_WORLDS = {"water": (2, 3), "fire_bar": (4,), "king_bowser": (4,), "princess": (4,),
                  "link": (1, 2, 3)}
BLOCK_FEATURE = {"question": "question_block", "coins": "coins_inside"}
# the words of the board, said through a game's translator (controller/i18n.py)
LEVEL_PLACES = {"pipe": N_("{kind} {label} on the pipe top"), "block": N_("{kind} {label} on top of a block"),
                "cannon": N_("{kind} {label} on the cannon top"), "platform": N_("{kind} {label} on the platform")}
FEATURE_NAMES = {"start": N_("START"), "link": N_("a link space"), "king_bowser": N_("King Bowser"),
                 "princess": N_("the Princess"), "water": N_("water"), "fire_bar": N_("a fire bar"),
                 "mushroom": N_("a mushroom"), "question_block": N_("under a question block"),
                 "coins_inside": N_("under a coin block"), "coin_on_top": N_("a coin")}
DECK_SIZE = 36


class BoardError(ValueError):
    """A board file that cannot be used; `problems` lists every error found."""

    def __init__(self, source: str, problems: list[str]):
        super().__init__(f"{source}: " + "; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Space:
    id: str
    world: int
    colour: str  # "red", "yellow" or "none" (START)
    level: str
    at: tuple[float, float]
    features: frozenset[str] = frozenset()
    next: tuple[str, ...] = ()
    on: str | None = None
    under: str | None = None

    def has(self, feature: str) -> bool:
        return feature in self.features

    @property
    def is_path(self) -> bool:
        """A red or yellow space, where Mario may land and hazard tokens may lie."""
        return self.colour in COLOURS

    @property
    def label(self) -> str:
        """What the page's drawing writes on the space (the printed boards number no
        space, so the page and the words share this one): START, or the number at the
        end of its id ("w1-04" -> "4")."""
        if self.has("start"):
            return "START"
        digits = re.search(r"(\d+)$", self.id)
        return str(int(digits[1])) if digits else self.id

    def name(self, _=None) -> str:
        """How the referee words the space, as the drawing labels it: 'space 4 on the
        pipe top', 'link space 33', 'START', 'the Princess space' (`_`: a translator,
        English by default)."""
        _ = _ or translator()
        if self.has("start"):
            return _("START")
        if self.has("princess"):
            return _("the Princess space")
        if self.has("king_bowser"):
            return _("the King Bowser space ({label})", label=self.label)
        kind = _("link space") if self.has("link") else _("space")
        if self.level == "ground":
            return f"{kind} {self.label}"
        if self.level in LEVEL_PLACES:
            return _(LEVEL_PLACES[self.level], kind=kind, label=self.label)
        return _("{kind} {label} on the {level}", kind=kind, label=self.label, level=self.level)


@dataclass(frozen=True)
class Step:
    """One way to answer a colour roll: the target space and the spaces passed over."""

    target: str
    passed: frozenset[str]


@dataclass
class World:
    number: int
    size: tuple[float, float]
    markers: tuple[int, ...]
    spaces: dict[str, Space]
    blocks: dict[str, dict]
    decor: list[dict]
    start: str
    _ahead: dict = field(default_factory=dict, repr=False)

    def ahead(self, space: str, colour: str) -> tuple[Step, ...]:
        """Every nearest space of `colour` ahead of `space` (RULINGS 4: no space of that
        colour in between), with the spaces passed on the way there. A token on any
        branch between Mario and the target counts as passed over."""
        key = (space, colour)
        if key not in self._ahead:
            self._ahead[key] = self._search(space, colour)
        return self._ahead[key]

    def _search(self, space: str, colour: str) -> tuple[Step, ...]:
        between: set[str] = set()  # spaces of another colour reachable from `space`
        targets: list[str] = []
        todo = list(self.spaces[space].next)
        while todo:
            s = todo.pop()
            if s in between or s in targets:
                continue
            if self.spaces[s].colour == colour:
                targets.append(s)
            else:
                between.add(s)
                todo.extend(self.spaces[s].next)
        steps = []
        for t in sorted(targets):
            back = {s for s in between if t in self.spaces[s].next}
            todo = list(back)
            while todo:
                s = todo.pop()
                for p in between:
                    if s in self.spaces[p].next and p not in back:
                        back.add(p)
                        todo.append(p)
            steps.append(Step(t, frozenset(back)))
        return tuple(steps)

    def with_feature(self, feature: str) -> list[str]:
        return [s.id for s in self.spaces.values() if feature in s.features]


@dataclass
class Worlds:
    """The four World boards and the card mix, as loaded from one file."""

    worlds: dict[int, World]
    cards: dict[str, dict]
    source: str
    spaces: dict[str, Space] = field(default_factory=dict)  # every World's spaces by id

    def __post_init__(self):
        self.spaces = {sid: sp for w in self.worlds.values() for sid, sp in w.spaces.items()}
        self.hazards = {k: v for k, v in self.cards.items() if "tokens" in v}
        # where a hazard token may ever lie: path spaces that are not link, start,
        # Princess or King Bowser spaces
        self.token_spaces = {n: tuple(s.id for s in w.spaces.values() if s.is_path and
                                      not s.features & {"link", "start", "princess", "king_bowser"})
                             for n, w in self.worlds.items()}

    def space(self, space_id: str) -> Space:
        return self.spaces[space_id]

    def world_of(self, space_id: str) -> int | None:
        sp = self.spaces.get(space_id)
        return sp.world if sp else None

    def deck(self) -> list[str]:
        """The 36 cards in a fixed order (the setup shuffles it)."""
        return [kind for kind, info in self.cards.items() for _ in range(info["count"])]


# --- loading -----------------------------------------------------------------------
def load_worlds(path: str | Path | None = None) -> Worlds:
    """Read and validate a board file; BoardError lists every problem."""
    path = Path(path) if path else DEFAULT_PATH
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BoardError(str(path), [f"cannot read it ({exc.strerror})"]) from exc
    except ValueError as exc:
        raise BoardError(str(path), [f"not JSON ({exc})"]) from exc
    return build_worlds(data, str(path))


_CACHE: dict[str, Any] = {}  # "bundled": Worlds; "data:<path>": the file's plain data


def bundled_worlds() -> Worlds:
    """The stand-in Worlds, loaded once per process (they are read-only)."""
    if "bundled" not in _CACHE:
        _CACHE["bundled"] = load_worlds(DEFAULT_PATH)
    return _CACHE["bundled"]


def world_data(world: int, path: str | Path | None = None) -> dict:
    """One World's plain data from a board file (the bundled one by default), for the
    camera's reader and the renderer, which take board data, not rules objects."""
    key = f"data:{path or DEFAULT_PATH}"
    if key not in _CACHE:
        _CACHE[key] = json.loads(Path(path or DEFAULT_PATH).read_text(encoding="utf-8"))
    found = [w for w in _CACHE[key]["worlds"] if w["world"] == world]
    if not found:
        raise BoardError(str(path or DEFAULT_PATH), [f"there is no World {world}"])
    return found[0]


def build_worlds(data: Any, source: str = "board data") -> Worlds:
    problems = validate(data)
    if problems:
        raise BoardError(source, problems)
    worlds = {}
    for w in data["worlds"]:
        n = w["world"]
        spaces = {s["id"]: Space(s["id"], n, s["colour"], s.get("level", "ground"),
                                 tuple(s["at"]), frozenset(s.get("features", ())),
                                 tuple(s.get("next", ())), s.get("on"), s.get("under"))
                  for s in w["spaces"]}
        start = next(s.id for s in spaces.values() if s.has("start"))
        worlds[n] = World(n, tuple(w["size"]), tuple(w.get("markers", ())), spaces,
                          {b["id"]: b for b in w.get("blocks", ())}, list(w.get("decor", ())), start)
    return Worlds(worlds, dict(data["cards"]), source)


# --- validating --------------------------------------------------------------------
def validate(data: Any) -> list[str]:
    """Every problem in a board file, worded with its World and space."""
    if not isinstance(data, Mapping):
        return ["the file must hold a JSON object"]
    problems: list[str] = []
    if data.get("format") != FORMAT:
        problems.append(f"\"format\" must be {FORMAT!r}, not {data.get('format')!r}")
    problems += _validate_cards(data.get("cards"))
    worlds = data.get("worlds")
    if not isinstance(worlds, list) or [w.get("world") if isinstance(w, Mapping) else None
                                        for w in worlds] != [1, 2, 3, 4]:
        return problems + ["\"worlds\" must list World 1, 2, 3 and 4 in that order "
                           "(objects with \"world\": 1 ... 4)"]
    seen_ids: dict[str, int] = {}
    for w in worlds:
        problems += _validate_world(w, seen_ids)
    return problems


def _validate_cards(cards: Any) -> list[str]:
    if not isinstance(cards, Mapping) or "fireball" not in cards:
        return ["\"cards\" must map card kinds to counts and include \"fireball\""]
    problems = []
    total = 0
    for kind, info in cards.items():
        if not isinstance(info, Mapping) or not isinstance(info.get("count"), int) or info["count"] < 0:
            problems.append(f"card {kind!r}: needs a whole \"count\"")
            continue
        total += info["count"]
        if kind != "fireball" and (not isinstance(info.get("tokens"), int) or info["tokens"] < 1):
            problems.append(f"hazard card {kind!r}: needs \"tokens\" (how many of its tokens)")
        if info.get("world") not in (None, 1, 2, 3, 4):
            problems.append(f"hazard card {kind!r}: \"world\" must be 1-4")
    if total != DECK_SIZE and not problems:
        problems.append(f"the cards add up to {total}, not {DECK_SIZE}")
    return problems


def _validate_world(w: Mapping, seen_ids: dict[str, int]) -> list[str]:
    n = w["world"]
    where = f"World {n}"
    problems: list[str] = []
    size = w.get("size")
    if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, (int, float)) and v > 0 for v in size)):
        return [f"{where}: \"size\" must be [width, height]"]
    blocks = {b.get("id"): b for b in w.get("blocks", ()) if isinstance(b, Mapping)}
    spaces: dict[str, Mapping] = {}
    for i, s in enumerate(w.get("spaces") or ()):
        sid = s.get("id") if isinstance(s, Mapping) else None
        if not isinstance(sid, str) or not sid:
            problems.append(f"{where}, space #{i + 1}: needs an \"id\"")
            continue
        if sid in seen_ids:
            problems.append(f"{where}, space {sid}: the id is already used on World {seen_ids[sid]}")
            continue
        seen_ids[sid] = n
        spaces[sid] = s
    if not spaces:
        return problems + [f"{where}: has no spaces"]
    for sid, s in spaces.items():
        problems += _validate_space(n, sid, s, spaces, blocks, size)
    starts = [sid for sid, s in spaces.items() if "start" in s.get("features", ())]
    if len(starts) != 1:
        problems.append(f"{where}: has no START space" if not starts else
                        f"{where}: has {len(starts)} START spaces ({', '.join(starts)}); one is needed")
        return problems
    if problems:
        return problems  # the graph checks below need well-formed spaces
    return _validate_path(n, starts[0], spaces)


def _validate_space(n: int, sid: str, s: Mapping, spaces: Mapping, blocks: Mapping, size) -> list[str]:
    where = f"World {n}, space {sid}"
    out = []
    feats = s.get("features", [])
    if not isinstance(feats, list):
        return [f"{where}: \"features\" must be a list"]
    for f in feats:
        if f not in FEATURES:
            out.append(f"{where}: unknown feature {f!r} (known: {', '.join(FEATURES)})")
        elif f in FEATURE_WORLDS and n not in FEATURE_WORLDS[f]:
            out.append(f"{where}: {FEATURE_NAMES[f]} belongs only on World "
                       f"{' or '.join(map(str, FEATURE_WORLDS[f]))}")
    colour = s.get("colour")
    if "start" in feats and colour != "none":
        out.append(f"{where}: START has colour \"none\", not {colour!r}")
    elif "start" not in feats and colour not in COLOURS:
        out.append(f"{where}: colour must be \"red\" or \"yellow\", not {colour!r}")
    at = s.get("at")
    if not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, (int, float)) for v in at)):
        out.append(f"{where}: \"at\" must be [x, y]")
    elif not (0 <= at[0] <= size[0] and 0 <= at[1] <= size[1]):
        out.append(f"{where}: \"at\" {at} lies off the {size[0]}x{size[1]} board")
    nxt = s.get("next", [])
    if not isinstance(nxt, list):
        return out + [f"{where}: \"next\" must be a list of space ids"]
    for t in nxt:
        if t not in spaces:
            out.append(f"{where}: \"next\" names {t!r}, which is not a space of World {n}")
        elif t == sid:
            out.append(f"{where}: leads to itself")
    for rel in ("on", "under"):
        b = s.get(rel)
        if b is not None and b not in blocks:
            out.append(f"{where}: \"{rel}\" names block {b!r}, which World {n} does not have")
    for kind, feat in BLOCK_FEATURE.items():
        if feat in feats:
            b = blocks.get(s.get("under"))
            if b is None or b.get("kind") != kind:
                out.append(f"{where}: {FEATURE_NAMES[feat]} needs \"under\" naming a {kind} block")
    under = s.get("under")
    for t in nxt:
        other = spaces.get(t, {})
        if under is not None and other.get("on") == under or \
                s.get("on") is not None and other.get("under") == s.get("on"):
            out.append(f"{where}: the step to {t} goes through block {under or s.get('on')} "
                       "(a block cannot be walked through)")
    return out


def _validate_path(n: int, start: str, spaces: Mapping[str, Mapping]) -> list[str]:
    where = f"World {n}"
    problems = []
    reach, todo = {start}, [start]
    while todo:
        for t in spaces[todo.pop()].get("next", []):
            if t not in reach:
                reach.add(t)
                todo.append(t)
    for sid in spaces:
        if sid not in reach:
            problems.append(f"{where}, space {sid}: cannot be reached from START")
    cycle = _on_cycle(spaces)
    if cycle:
        return problems + [f"{where}, space {cycle}: the path comes back to it (the path only goes ahead)"]
    feats = {sid: set(s.get("features", ())) for sid, s in spaces.items()}
    ends = [sid for sid, s in spaces.items() if not s.get("next")]
    if n < 4:
        links = [sid for sid in spaces if "link" in feats[sid]]
        colours = sorted(spaces[sid]["colour"] for sid in links)
        if colours != ["red", "yellow"]:
            problems.append(f"{where}: needs two link spaces at the end, one red and one yellow "
                            f"(found {', '.join(links) or 'none'})")
        for sid in links:
            if spaces[sid].get("next"):
                problems.append(f"{where}, space {sid}: a link space is the end of the World; "
                                "nothing may follow it")
        for sid in ends:
            if sid not in links:
                problems.append(f"{where}, space {sid}: the path ends here without a link to World {n + 1}")
        if not problems:
            world = _path_world(n, spaces)
            for sid in spaces:
                if "link" in feats[sid]:
                    continue
                for colour in COLOURS:
                    if not world.ahead(sid, colour):
                        problems.append(f"{where}, space {sid}: no {colour} space ahead "
                                        "(a link missing?)")
    else:
        bowser = [sid for sid in spaces if "king_bowser" in feats[sid]]
        princess = [sid for sid in spaces if "princess" in feats[sid]]
        if len(bowser) != 1 or len(princess) != 1:
            problems.append(f"{where}: needs one King Bowser space and one Princess space")
            return problems
        kb, pr = bowser[0], princess[0]
        if spaces[kb]["colour"] != "red" or spaces[pr]["colour"] != "yellow":
            problems.append(f"{where}: King Bowser is red and the Princess yellow")
        if spaces[kb].get("next") != [pr]:
            problems.append(f"{where}, space {kb}: King Bowser's only next space must be the Princess {pr}")
        for sid in ends:
            if sid != pr:
                problems.append(f"{where}, space {sid}: the path ends here, before the Princess")
    return problems


def _path_world(n: int, spaces: Mapping[str, Mapping]) -> World:
    """A World from checked spaces, for the validator's path questions."""
    built = {sid: Space(sid, n, s["colour"], s.get("level", "ground"), tuple(s["at"]),
                        frozenset(s.get("features", ())), tuple(s.get("next", ()))) for sid, s in spaces.items()}
    return World(n, (0, 0), (), built, {}, [], "")


def _on_cycle(spaces: Mapping[str, Mapping]) -> str | None:
    """A space that lies on a cycle, or None (depth-first search with colours)."""
    state: dict[str, int] = {}
    for root in spaces:
        if root in state:
            continue
        stack = [(root, iter(spaces[root].get("next", [])))]
        state[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return nxt
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(spaces[nxt].get("next", []))))
    return None


def main(argv: list[str] | None = None) -> int:
    """`python -m controller.games.smb.board FILE`: check a traced board file."""
    import sys
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m controller.games.smb.board WORLDS.json", file=sys.stderr)
        return 2
    try:
        worlds = load_worlds(args[0])
    except BoardError as exc:
        print(f"{args[0]}: {len(exc.problems)} problem(s)")
        for p in exc.problems:
            print(f"  {p}")
        return 1
    sizes = ", ".join(f"World {n}: {len(w.spaces)} spaces" for n, w in worlds.worlds.items())
    print(f"{args[0]}: ok ({sizes})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
