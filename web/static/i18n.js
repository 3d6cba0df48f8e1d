// The page's words in its language: T("{name} wins", {name}) and Tn(singular, plural, n)
// look the English text up in the catalogue the server embedded (the `texts` JSON of
// base.html, built from controller/locales/<lang>/LC_MESSAGES/referee.po); a text the
// catalogue lacks reads in English. The language picker sets the `referee-lang` cookie
// (each phone its own choice) and reloads the page in that language.
"use strict";

(function () {
  const node = document.getElementById("texts");
  const texts = node ? JSON.parse(node.textContent) : {lang: "en", plural: "(n != 1)", messages: {}};
  const messages = texts.messages || {};
  const plural = {"(n != 1)": (n) => (n !== 1 ? 1 : 0), "(n > 1)": (n) => (n > 1 ? 1 : 0)}[texts.plural] ||
    ((n) => (n !== 1 ? 1 : 0));

  function format(text, params) {
    return params ? String(text).replace(/\{(\w+)\}/g, (all, key) => (key in params ? params[key] : all)) : text;
  }

  window.T = function (msgid, params) {
    const text = messages[msgid];
    return format(typeof text === "string" ? text : msgid, params);
  };

  window.Tn = function (singular, pluralText, n, params) {
    const forms = messages[singular];
    const text = Array.isArray(forms) ? forms[Math.min(plural(n), forms.length - 1)] : (n === 1 ? singular : pluralText);
    return format(text, Object.assign({n}, params || {}));
  };

  window.pageLang = texts.lang;

  // this script runs in the head, before the picker exists
  document.addEventListener("DOMContentLoaded", () => {
    const picker = document.getElementById("lang");
    if (!picker) return;
    picker.addEventListener("change", () => {
      document.cookie = "referee-lang=" + picker.value + "; path=/; max-age=31536000; SameSite=Lax";
      const url = new URL(location.href);
      url.searchParams.delete("lang");
      location.replace(url.toString());
    });
  });
})();
