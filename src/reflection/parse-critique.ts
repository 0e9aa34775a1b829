/**
 * Reads a critic's answer: a JSON object `{ score, feedback }` (also inside a code fence or prose), else a
 * `score: N` / `N/10` pattern. The score is clamped to 0–10; an unreadable answer scores 0 with the whole text
 * as feedback.
 */
export function parseCritique(text: string): { score: number; feedback: string } {
  const clamp = (n: number) => Math.min(10, Math.max(0, n));
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start >= 0 && end > start) {
    try {
      const parsed = JSON.parse(text.slice(start, end + 1)) as { score?: unknown; feedback?: unknown };
      const score = typeof parsed.score === "string" ? Number(parsed.score) : parsed.score;
      if (typeof score === "number" && Number.isFinite(score)) {
        return { score: clamp(score), feedback: typeof parsed.feedback === "string" ? parsed.feedback : "" };
      }
    } catch {
      // Not JSON after all: fall through to the patterns.
    }
  }
  const match = /score\D{0,5}(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*\/\s*10/i.exec(text);
  const value = match === null ? undefined : Number(match[1] ?? match[2]);
  if (value !== undefined && Number.isFinite(value)) return { score: clamp(value), feedback: text.trim() };
  return { score: 0, feedback: text.trim() };
}
