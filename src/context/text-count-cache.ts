/** Options of {@link TextCountCache}. */
export interface TextCountCacheOptions {
  /** The most texts kept (least recently used evicted first). Default 256. */
  maxEntries?: number;
  /**
   * The most characters (UTF-16 code units) of all kept texts together. Default 1,048,576 (about 2 MB). A text
   * longer than a quarter of this is never kept, so one huge text cannot flush the others.
   */
  maxChars?: number;
}

/**
 * Token counts of texts, keyed by the text itself, least recently used evicted first within
 * {@link TextCountCacheOptions} bounds. It holds what a per-object cache cannot: the texts that come back in
 * new message objects on every run (the system prompt, a recurring instruction, tool definitions). A hit
 * returns exactly the count the tokenizer gave for an equal string, so a cached count is never lower than
 * an uncached one.
 */
export class TextCountCache {
  private readonly counts = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private chars = 0;

  constructor(options: TextCountCacheOptions = {}) {
    this.maxEntries = Math.max(0, Math.floor(options.maxEntries ?? 256));
    this.maxChars = Math.max(0, Math.floor(options.maxChars ?? 1_048_576));
  }

  /** How many texts are kept. */
  get size(): number {
    return this.counts.size;
  }

  /** The count of `text`, computed with `count` on a miss (and kept when it fits the bounds). */
  count(text: string, count: (text: string) => number): number {
    const cached = this.counts.get(text);
    if (cached !== undefined) {
      // Most recently used last: re-insert (Map keeps insertion order).
      this.counts.delete(text);
      this.counts.set(text, cached);
      return cached;
    }
    const value = count(text);
    if (this.maxEntries === 0 || text.length > this.maxChars / 4) return value;
    this.counts.set(text, value);
    this.chars += text.length;
    while (this.counts.size > this.maxEntries || this.chars > this.maxChars) {
      const oldest = this.counts.keys().next();
      if (oldest.done === true) break;
      this.counts.delete(oldest.value);
      this.chars -= oldest.value.length;
    }
    return value;
  }
}
