// biome-ignore format: a compact table
const NAMED = new Map<string, string>(Object.entries({
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", ensp: " ", emsp: " ", thinsp: " ",
  shy: "", zwj: "", zwnj: "", lrm: "", rlm: "", copy: "©", reg: "®", trade: "™", hellip: "…", mdash: "—",
  ndash: "–", minus: "−", lsquo: "‘", rsquo: "’", sbquo: "‚", ldquo: "“", rdquo: "”", bdquo: "„", laquo: "«",
  raquo: "»", lsaquo: "‹", rsaquo: "›", bull: "•", middot: "·", deg: "°", plusmn: "±", times: "×",
  divide: "÷", frac12: "½", frac14: "¼", frac34: "¾", euro: "€", pound: "£", yen: "¥", cent: "¢",
  sect: "§", para: "¶", iexcl: "¡", iquest: "¿", larr: "←", rarr: "→", uarr: "↑", darr: "↓", harr: "↔",
  le: "≤", ge: "≥", ne: "≠", infin: "∞", check: "✓", hearts: "♥", dagger: "†", permil: "‰",
}));

/** Bounded quantifiers and no nesting: linear on any input. */
const REFERENCE = /&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([a-zA-Z][a-zA-Z0-9]{1,31}));/g;

/**
 * Decodes HTML character references: every numeric one (`&#233;`, `&#xE9;`; 0, surrogates and code points
 * past U+10FFFF become U+FFFD) and the common named ones (`&amp;`, `&nbsp;` as a space, `&mdash;`, ...).
 * Unknown names and references without the final `;` are left as they are.
 */
export function decodeHtmlEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(
    REFERENCE,
    (match: string, hex: string | undefined, decimal: string | undefined, name: string | undefined) => {
      if (name !== undefined) return NAMED.get(name) ?? NAMED.get(name.toLowerCase()) ?? match;
      const code = Number.parseInt(hex ?? decimal ?? "", hex === undefined ? 10 : 16);
      const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
      return valid ? String.fromCodePoint(code) : "\uFFFD";
    },
  );
}
