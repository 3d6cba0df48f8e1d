"""The referee's languages: English, French and German, from gettext catalogues.

Every text a person reads or hears is an English message id looked up in the catalogue
of a language: `controller/locales/<lang>/LC_MESSAGES/referee.po`, one per language,
edited with any gettext tool and kept current from the code by
`python -m controller.i18n update` (Babel's extractor reads the Python, the page's
templates and its scripts). The .po sources are read at run time with Babel, so there is
no compiled .mo to build or to forget; a message a catalogue lacks says the English.

- Python: `tr = translator("fr")`, then `tr("{who} to move", who=name)` (str.format
  placeholders by name) and `tr.n("{n} coin", "{n} coins", n)` for a count.
  A game holds the translator of its table's language as `self._` (controller/games/base.py).
- The pages: templates call `_()`; scripts call `T()` / `Tn()` (web/static/i18n.js) on
  the texts of `page_texts(lang)`, embedded in each page (the same catalogue).
- tests/controller/test_languages.py fails on a message any catalogue lacks.
docs/languages.md says how to add a language.
"""
from __future__ import annotations

import copy
import gettext
import re
import sys
from functools import cache
from pathlib import Path

LANGUAGES = {"en": "English", "fr": "Français", "de": "Deutsch"}  # code -> its own name
DEFAULT = "en"
DOMAIN = "referee"
ROOT = Path(__file__).resolve().parents[1]
LOCALES = Path(__file__).resolve().parent / "locales"
# where the messages are, relative to ROOT, and how each kind of file is read: Jinja's
# extractor for the templates; ours for the Python and the scripts, which also find a
# message inside another's arguments (`_("{a}", a=_("b"))`: Babel's own skip it)
SOURCES = [("controller/**.py", "python"), ("web/**.py", "python"), ("vision/**.py", "python"),
           ("web/templates/**.html", "jinja2"), ("web/static/**.js", "javascript")]
# the functions whose string arguments are messages (gettext's, the translator's, the page's)
KEYWORDS = {"_": None, "n": (1, 2), "N_": None, "T": None, "Tn": (1, 2)}


def N_(msgid: str) -> str:
    """Marks a text said later through a translator (a class's title, a table of names):
    the extractor finds it here; it stays English until looked up."""
    return msgid


class Said(Exception):
    """An error whose words are a catalogue message: str() is the English (for the log),
    `said(_)` the words in the language of the translator `_`. A parameter that is itself
    such an error (a config key's bad time control) is worded in the same language.
    Subclassed with the kind of error it is (`class ConfigError(Said)`, `class
    ControlError(Said, ValueError)`); the message is marked with `N_` for the extractor."""

    def __init__(self, message: str, **params):
        super().__init__(message.format(**params) if params else message)  # a text without values may hold braces
        self.message, self.params = message, params

    def said(self, _) -> str:
        return worded(self.message, self.params, _)


class Phrase:
    """A piece of a sentence worded later, like a `Said` (a place in a file: "chess setup
    item 2", a kind of value: "a whole number"), a parameter of one: str() is the
    English, `said(_)` the words in the language of `_`."""

    def __init__(self, message: str, **params):
        self.message, self.params = message, params

    def __str__(self) -> str:
        return self.message.format(**self.params) if self.params else self.message

    def said(self, _) -> str:
        return worded(self.message, self.params, _)


def worded(message: str, params: dict, _) -> str:
    """`message` in the language of `_`, each value that is itself an error or a Phrase
    worded in it too."""
    return _(message, **{k: said(v, _) if isinstance(v, (BaseException, Phrase)) else v for k, v in params.items()})


def said(error: BaseException | Phrase, _) -> str:
    """An error's words in the language of `_`: a `Said`'s (or a `Phrase`'s) translated,
    and so is one of a module that may not import this one but words its own the same way
    (vision's CornersError: `said(_)`); any other's as it is."""
    wording = getattr(error, "said", None)
    return wording(_) if callable(wording) else str(error)


class Wrong(Said, ValueError):
    """A value that is not one (a game's setting, a die, a USB id, a board's corners, a
    setup's shape), worded from the catalogue: a ValueError to its callers, said in the
    listener's language where it is quoted (`said(error, _)`)."""


class LanguageError(Said, ValueError):
    """A language this version does not speak."""


def language(code: str | None, what: str = "language") -> str:
    """A supported language's code from 'fr', 'FR', 'fr-CH' or 'de_DE'; LanguageError (a
    ValueError) naming `what` (a key, an option) and the languages there are otherwise."""
    text = str(code or "").strip().replace("_", "-").split("-")[0].lower()
    if text not in LANGUAGES:
        raise LanguageError(N_("{what} is {code!r}; expected one of {codes} ({names})"), what=what, code=code,
                            codes=", ".join(LANGUAGES), names=", ".join(f"{k}: {v}" for k, v in LANGUAGES.items()))
    return text


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog(lang: str):
    """The Babel Catalog of `lang`'s .po file."""
    from babel.messages.pofile import read_po

    with open(po_path(lang), "rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


class Translator:
    """The texts of one language: `tr(msgid, **params)`, `tr.n(singular, plural, count,
    **params)` (`{n}` is the count). A message missing from the catalogue (or still
    fuzzy) reads in English, never as a key."""

    def __init__(self, lang: str):
        self.lang = language(lang)
        cat = catalog(self.lang)
        self._plural = gettext.c2py(cat.plural_expr)
        self.messages: dict[str, str | list[str]] = {}
        for m in cat:
            if not m.id or m.fuzzy:
                continue
            key = m.id[0] if isinstance(m.id, (tuple, list)) else m.id
            if isinstance(m.string, (tuple, list)):
                if all(m.string):
                    self.messages[key] = list(m.string)
            elif m.string:
                self.messages[key] = m.string
        self.plural_expr = cat.plural_expr

    def gettext(self, msgid: str) -> str:
        text = self.messages.get(msgid, msgid)
        return text if isinstance(text, str) else msgid

    def __call__(self, msgid: str, **params) -> str:
        text = self.gettext(msgid)
        return text.format(**params) if params else text

    def n(self, singular: str, plural: str, count: int, **params) -> str:
        forms = self.messages.get(singular)
        if isinstance(forms, list):
            text = forms[min(self._plural(count), len(forms) - 1)]
        else:
            text = singular if count == 1 else plural
        return text.format(n=count, **params)


@cache
def translator(lang: str = DEFAULT) -> Translator:
    """The translator of `lang` (one per language, shared: it holds no state)."""
    return Translator(lang)


@cache
def page_texts(lang: str) -> dict:
    """What the page's scripts need of `lang`'s catalogue (the messages found in
    web/static): {"lang", "plural" (the catalogue's C plural expression), "messages"}."""
    tr = translator(lang)
    used = {m.id[0] if isinstance(m.id, (tuple, list)) else m.id
            for m in catalog(tr.lang) if any(path.startswith("web/static/") for path, _ in m.locations)}
    return {"lang": tr.lang, "plural": tr.plural_expr,
            "messages": {k: v for k, v in tr.messages.items() if k in used}}


def best(accept: str | None, fallback: str = DEFAULT) -> str:
    """The first supported language of an Accept-Language header ('de-CH,de;q=0.9,en;q=0.5'),
    by quality; `fallback` when it names none."""
    ranked = []
    for i, part in enumerate((accept or "").split(",")):
        code, _, q = part.strip().partition(";q=")
        try:
            quality = float(q) if q else 1.0
        except ValueError:
            continue
        ranked.append((-quality, i, code))
    for _, _, code in sorted(ranked):
        try:
            return language(code)
        except ValueError:
            continue
    return fallback


# --- keeping the catalogues current (`python -m controller.i18n update`) --------------
def extract():
    """Every message in the code, as a Babel Catalog (with where each is used)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    cat = Catalog(domain=DOMAIN, project="tabletop-referee")
    methods = {"python": extract_python, "javascript": extract_javascript, "jinja2": "jinja2"}
    method_map = [(pattern, methods[method]) for pattern, method in SOURCES]
    for path, line, message, _comments, _ctx in extract_from_dir(str(ROOT), method_map, keywords=KEYWORDS):
        cat.add(message, None, [(path, line)])
    return cat


def extract_python(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for Python, by the syntax tree: every call of a keyword
    (`_`, `self._`, `self._.n`, `N_`) with literal texts, nested ones too."""
    import ast

    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name not in keywords:
            continue
        spec = KEYWORDS.get(name) or (1,)
        args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
        texts = [args[i - 1] if i - 1 < len(args) else None for i in spec]
        if all(texts):
            yield node.lineno, name, texts[0] if len(texts) == 1 else tuple(texts), []


_JS_TEXT = r'"((?:[^"\\\n]|\\.)*)"'  # one double-quoted literal, its escapes kept
_JS_CALL = re.compile(r"\b(Tn?)\(\s*" + _JS_TEXT + r"(?:\s*,\s*" + _JS_TEXT + ")?")


def extract_javascript(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for the page's scripts: T("...") and Tn("...", "...", n),
    each text one double-quoted literal (nested calls found too)."""
    import json

    text = fileobj.read().decode("utf-8")
    for m in _JS_CALL.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        first = json.loads(f'"{m[2]}"')
        if m[1] == "Tn" and m[3] is not None:
            yield line, "Tn", (first, json.loads(f'"{m[3]}"')), []
        elif m[1] == "T":
            yield line, "T", first, []


def translated(message) -> bool:
    """Whether a catalogue's message has its text (every plural form), and is not fuzzy."""
    text = message.string
    return not message.fuzzy and bool(text if isinstance(text, str) or text is None else all(text))


def update() -> list[str]:
    """Merge the messages of the code into each .po: new ones are added (English's take
    their id; the others empty, for a translator), gone ones dropped. Returns, per
    language, what is still to translate."""
    from babel.messages.pofile import write_po

    template = extract()
    todo = []
    for lang in LANGUAGES:
        cat = catalog(lang)
        fresh = copy.deepcopy(template)  # update adopts the template's messages: one copy each
        fresh.creation_date = cat.creation_date  # no churn in the header when nothing changed
        cat.update(fresh, no_fuzzy_matching=True)
        cat.obsolete.clear()
        for m in cat:
            if m.id and lang == DEFAULT:  # English says its ids
                m.string = m.id
                m.flags.discard("fuzzy")
            if m.id and not translated(m):
                todo.append(f"{lang}: {m.id if isinstance(m.id, str) else m.id[0]!r}")
        with open(po_path(lang), "wb") as f:
            write_po(f, cat, width=100, sort_output=False, include_previous=False)
        catalog.cache_clear()
        page_texts.cache_clear()
    return todo


if __name__ == "__main__":
    if sys.argv[1:] != ["update"]:
        print("usage: python -m controller.i18n update", file=sys.stderr)
        sys.exit(2)
    left = update()
    print("\n".join(left) or "every message is translated")
    print(f"{len(left)} to translate", file=sys.stderr)
