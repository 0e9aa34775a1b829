/** `12 ms`, `1.24 s`, `2 min 5 s`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** `$0.000054` (6 decimals below a cent), `$1.23`. */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return "$?";
  return usd >= 0.01 || usd === 0 ? `$${usd.toFixed(usd === 0 ? 2 : 4)}` : `$${usd.toFixed(6)}`;
}

/** `1,234`. */
export function formatCount(count: number): string {
  return Number.isFinite(count) ? Math.round(count).toLocaleString("en-US") : "?";
}

/** A value as JSON (indented when `pretty`), cut at `maxChars` with a note of the full length. */
export function formatJson(value: unknown, { pretty = false, maxChars = 4000 } = {}): string {
  let text: string;
  try {
    text =
      typeof value === "string"
        ? value
        : (JSON.stringify(value, null, pretty ? 2 : undefined) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}… (${formatCount(text.length)} chars)` : text;
}

/** A time of day, `14:05:09`. */
export function formatClock(at: number): string {
  return new Date(at).toLocaleTimeString("en-GB", { hour12: false });
}

/** How long ago `at` was: `just now`, `5 min ago`, `3 h ago`, or a date. */
export function formatAgo(at: number, now = Date.now()): string {
  const seconds = Math.round((now - at) / 1000);
  if (seconds < 45) return "just now";
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(at).toISOString().slice(0, 10);
}
