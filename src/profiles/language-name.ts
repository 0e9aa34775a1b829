/** English names of the language codes a {@link Profile} spells out; other codes are used as they are. */
const LANGUAGE_NAMES: Readonly<Record<string, string>> = Object.freeze({
  zh: "Chinese",
  en: "English",
  fr: "French",
  de: "German",
  es: "Spanish",
  ja: "Japanese",
});

/**
 * The base subtag of a language code, lower-cased: `"zh-CN"` → `"zh"`, `"EN_us"` → `"en"`. Used wherever a
 * profile's language selects a name or localised text.
 */
export function baseLanguage(code: string): string {
  return (code.split(/[-_]/)[0] ?? code).toLowerCase();
}

/**
 * The English name of a language code (`"zh"` → `"Chinese"`, `"en-GB"` → `"English"`), matched on the base
 * subtag; `undefined` for codes it does not know (zh, en, fr, de, es and ja are known).
 */
export function languageName(code: string): string | undefined {
  const base = baseLanguage(code);
  return Object.hasOwn(LANGUAGE_NAMES, base) ? LANGUAGE_NAMES[base] : undefined;
}
