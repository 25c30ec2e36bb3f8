// Every text the page shows, in the reader's language (issue 17). The server names the
// language in <html lang> (its cookie, else the browser's Accept-Language) and serves the
// catalog made from the same gettext catalogs as the Python code (/i18n/<lang>.json), so
// there is no second, hand-kept list. Messages are written in English in the code:
//   t("Pass"), t("{name} to move", { name }), nt("{count} token", "{count} tokens", n),
//   pt("command", "end")   (a context tells translators a short word's meaning).
// Values are inserted after translation, as text: a player's name is shown as typed.

export const lang = document.documentElement.lang || "en";

let catalog = { messages: {}, pseudo: false };
try {
  const response = await fetch("/i18n/" + encodeURIComponent(lang) + ".json");
  if (response.ok) catalog = await response.json();
} catch { /* no catalog: the English of the code */ }

const plurals = new Intl.PluralRules(lang === "qps" ? "en" : lang);

function fill(message, values) {
  return values ? message.replace(/\{([A-Za-z_]\w*)\}/g, (m, k) => (k in values ? String(values[k]) : m)) : message;
}
function found(key, fallback) {
  const text = catalog.messages[key];
  if (catalog.pseudo) return "⟦" + fallback + "⟧";
  return typeof text === "string" && text ? text : fallback;
}

// A message in the reader's language, its {placeholders} filled from values.
export function t(message, values) { return fill(found(message, message), values); }

// A message with a singular and a plural, chosen by count ({count} is filled with it).
// Every language offered has two forms: Intl's "one" is the first, all else the second.
export function nt(singular, plural, count, values) {
  const index = plurals.select(count) === "one" ? 0 : 1;
  const forms = catalog.messages[singular];
  const english = index === 0 && count === 1 ? singular : plural;
  let text = Array.isArray(forms) && forms[index] ? forms[index] : (count === 1 ? singular : plural);
  if (catalog.pseudo) text = "⟦" + english + "⟧";
  return fill(text, { count, ...values });
}

// A short message whose meaning a context gives translators.
export function pt(context, message, values) {
  return fill(found(context + "\u0004" + message, message), values);
}

// The languages offered, each named in itself (the switch on every page).
// (from the server, where they are listed once: mathable/i18n)
export const LANGUAGES = catalog.languages || { en: "English" };

// Choose a language: kept a year in a cookie, the page drawn again in it.
export function chooseLanguage(code) {
  document.cookie = "lang=" + encodeURIComponent(code) + "; path=/; max-age=31536000; SameSite=Lax";
  location.reload();
}
