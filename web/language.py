"""Which language a page speaks, and the texts it carries (controller/i18n.py).

Each browser chooses its own: a language picked on the page (the `referee-lang` cookie,
or `?lang=` in a link), else the browser's own (Accept-Language, which is
navigator.language's list), else the app's (`LANGUAGE`: the table's `[table] language`,
or the hall's English). Templates call `_()` in that language; the page's scripts get
the same catalogue's texts in the `texts` JSON of base.html (web/static/i18n.js).
"""
from __future__ import annotations

from flask import Flask, current_app, g, request

from controller.i18n import DEFAULT, LANGUAGES, best, language, page_texts, translator

COOKIE = "referee-lang"


def page_language() -> str:
    """This request's language (the choice, the browser's, the app's), once per request."""
    if "lang" not in g:
        fallback = current_app.config.get("LANGUAGE", DEFAULT)
        chosen = None
        for candidate in (request.args.get("lang"), request.cookies.get(COOKIE)):
            try:
                chosen = language(candidate)
                break
            except ValueError:  # none, or a language the referee does not speak: the next
                continue
        g.lang = chosen or best(request.headers.get("Accept-Language"), fallback)
    return g.lang


def install(app: Flask, fallback: str = DEFAULT) -> None:
    """Templates of `app` get `_` (this request's translator), `lang`, `languages` and
    `texts` (what the scripts need)."""
    app.config["LANGUAGE"] = fallback

    @app.context_processor
    def texts():
        lang = page_language()
        return {"_": translator(lang), "lang": lang, "languages": LANGUAGES, "texts": page_texts(lang)}
