import type { Tool } from "../tools/tool.js";

/** BM25 term-frequency saturation. */
const K1 = 1.2;
/** BM25 length normalisation. */
const B = 0.75;
/** A tool's name counts this many times in its document (a name match says more than a description match). */
const NAME_WEIGHT = 2;

const STOPWORDS = new Set(
  (
    "a an and are as at be by can could do does for from get give how i in is it me my of on or please " +
    "show tell that the this to use what when where which who why will with would you your"
  ).split(" "),
);

const CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}";
/** A run of CJK characters, or a run of other letters and digits. */
const WORDS = new RegExp(`[${CJK}]+|(?:(?![${CJK}])[\\p{L}\\p{N}])+`, "gu");
const CJK_RUN = new RegExp(`^[${CJK}]+$`, "u");

/**
 * Splits text into search terms: camelCase and snake_case are split, letters lower-cased, English stopwords
 * and one-letter words dropped, plurals made singular (`cities` → `city`, `forecasts` → `forecast`); runs of
 * Chinese/Japanese/Korean characters, which have no spaces, become overlapping character pairs (`天气预报` →
 * `天气`, `气预`, `预报`; a single character stays itself).
 */
export function tokenize(text: string): string[] {
  const spaced = text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2");
  const terms: string[] = [];
  for (const match of spaced.toLowerCase().matchAll(WORDS)) {
    const word = match[0];
    if (CJK_RUN.test(word)) {
      const chars = [...word];
      if (chars.length === 1) terms.push(word);
      for (let i = 0; i + 1 < chars.length; i++) terms.push(`${chars[i]}${chars[i + 1]}`);
      continue;
    }
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    terms.push(singular(word));
  }
  return terms;
}

/** A crude English singular: `cities` → `city`, `forecasts` → `forecast`; `class`, `gas` and `bus` stay. */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us"))
    return word.slice(0, -1);
  return word;
}

function counts(terms: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const term of terms) map.set(term, (map.get(term) ?? 0) + 1);
  return map;
}

/** Options of {@link rankTools}. */
export interface RankToolsOptions {
  /** What the user asked. */
  query: string;
  /** The candidate tools. */
  tools: readonly Tool[];
  /** Keep at most this many (all when there are no more than this). */
  limit: number;
}

/**
 * The `limit` tools most relevant to `query`, most relevant first. Relevance is BM25 (k1 = 1.2, b = 0.75) of
 * the query's terms (see {@link tokenize}) over each tool's name (counted twice) and description; ties keep
 * the tools' order. Deterministic and offline: no embeddings. When there are no more tools than `limit`,
 * every tool is returned in its original order.
 */
export function rankTools({ query, tools, limit }: RankToolsOptions): Tool[] {
  if (tools.length <= limit) return [...tools];
  const documents = tools.map((tool) => {
    const nameTerms = tokenize(tool.name);
    const terms = [...Array<string[]>(NAME_WEIGHT).fill(nameTerms).flat(), ...tokenize(tool.description)];
    return { tool, length: terms.length, frequencies: counts(terms) };
  });
  const averageLength = documents.reduce((sum, d) => sum + d.length, 0) / documents.length || 1;
  const queryTerms = [...new Set(tokenize(query))];
  const idf = new Map<string, number>();
  for (const term of queryTerms) {
    const containing = documents.filter((d) => d.frequencies.has(term)).length;
    idf.set(term, Math.log(1 + (documents.length - containing + 0.5) / (containing + 0.5)));
  }
  const scored = documents.map((d, index) => {
    let score = 0;
    for (const term of queryTerms) {
      const tf = d.frequencies.get(term) ?? 0;
      if (tf === 0) continue;
      score += ((idf.get(term) ?? 0) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / averageLength));
    }
    return { tool: d.tool, score, index };
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((s) => s.tool);
}
