// The page's texts come from the server's message catalogue (GET /api/i18n/<lang>,
// one file per language in src/pyramide/locales/): this module keeps no text of its
// own. Card naming takes rank and suit words from the catalogue too (naming is not
// rules — the browser never decides what a card can do).

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const catalogues = {};

/** Fetch a language's catalogue once; true when it is there to use. */
export async function loadLanguage(lang) {
  if (!catalogues[lang]) {
    try {
      const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`, { headers: { accept: "application/json" } });
      if (response.ok) catalogues[lang] = await response.json();
    } catch { /* offline: the keys themselves are shown */ }
  }
  return Boolean(catalogues[lang]);
}

/** The languages the server has a catalogue for: [{code, name}]. */
export async function languages() {
  try {
    const response = await fetch("/api/i18n", { headers: { accept: "application/json" } });
    if (response.ok) return await response.json();
  } catch { /* offline */ }
  return Object.keys(catalogues).map((code) => ({ code, name: catalogues[code]._language || code }));
}

/** Split "10H" into {rank: "10", suit: "H"}; a two-deck game's mark ("KD'") is
 * part of the code only, not of the card's face or name. */
export function parseCard(code) {
  const plain = code.replace(/'+$/, "");
  return { rank: plain.slice(0, -1), suit: plain.slice(-1) };
}

/** The corner index in the UI language (the catalogue's index.<value>: Т К Д В in
 * Russian, A K Q J in English). */
export function cardIndex(code, lang) {
  const { rank } = parseCard(code);
  const table = catalogues[lang] || {};
  return table[`index.${RANKS.indexOf(rank) + 1}`] || rank;
}

/** The full name for screen readers (the catalogue's card.name): "дама треф",
 * "queen of clubs". */
export function cardName(code, lang) {
  const { rank, suit } = parseCard(code);
  return translate(lang, "card.name", {
    rank: translate(lang, `rank.${RANKS.indexOf(rank) + 1}`),
    suit: translate(lang, `suit.${suit}`),
  });
}

export function isRed(code) {
  const { suit } = parseCard(code);
  return suit === "H" || suit === "D";
}

export function isFace(code) {
  const { rank } = parseCard(code);
  return rank === "J" || rank === "Q" || rank === "K";
}

/** Look a text up and fill {placeholders}; a text that depends on a number {n} is
 * chosen by the language's plural rule (the CLDR categories, as on the server). */
export function translate(lang, key, vars = {}) {
  const table = catalogues[lang] || catalogues.en || {};
  let text = table[key] ?? (catalogues.en || {})[key] ?? key;
  if (typeof text === "object") {
    const form = new Intl.PluralRules(lang).select(Number(vars.n) || 0);
    text = text[form] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}

/** Seconds → "m:ss" or "h:mm:ss". */
export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
