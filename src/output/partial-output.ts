/** Parses incomplete JSON text into the value so far (partial-json's `parse` with every type allowed). */
export type PartialJsonParser = (text: string) => unknown;

let loading: Promise<PartialJsonParser> | undefined;

/**
 * Loads the maintained `partial-json` parser once, on first use (only streamed typed answers need it, so the
 * root entry does not load it).
 */
export function loadPartialJsonParser(): Promise<PartialJsonParser> {
  loading ??= import("partial-json").then(
    ({ parse, Allow }) =>
      (text: string) =>
        parse(text, Allow.ALL),
  );
  return loading;
}

/**
 * Turns the JSON text of a typed answer, as it streams, into partial objects (with the maintained
 * `partial-json` parser, see {@link loadPartialJsonParser}). Parsing re-reads the whole text, so it is done at geometrically spaced lengths (each
 * parse at least 1/16 more text than the last, and at least one character): the total work stays linear in the
 * answer's length, and small answers are parsed at every fragment. A partial value is reported only when it
 * differs from the last one reported.
 */
export class PartialOutput {
  constructor(private readonly parser: PartialJsonParser) {}

  private text = "";
  private parsedAt = 0;
  private last: string | undefined;

  /** Adds a fragment; returns the new partial value when there is one to report, else `undefined`. */
  add(fragment: string): { partial: unknown } | undefined {
    this.text += fragment;
    const length = this.text.length;
    if (length - this.parsedAt < Math.max(1, this.parsedAt >> 4)) return undefined;
    return this.parse();
  }

  /** The partial value of all the text so far, when it changed since the last report (call at the end). */
  flush(): { partial: unknown } | undefined {
    return this.parsedAt === this.text.length ? undefined : this.parse();
  }

  private parse(): { partial: unknown } | undefined {
    this.parsedAt = this.text.length;
    const start = this.text.search(/[[{]/);
    if (start < 0) return undefined;
    let partial: unknown;
    try {
      partial = this.parser(this.text.slice(start));
    } catch {
      return undefined; // malformed so far: the final check reports it
    }
    if (partial === undefined || typeof partial !== "object" || partial === null) return undefined;
    const key = JSON.stringify(partial);
    if (key === this.last) return undefined;
    this.last = key;
    return { partial };
  }
}
