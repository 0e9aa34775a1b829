import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bodyOf,
  charArbitrary,
  cutPositions,
  deliver,
  deliveryArbitrary,
  interleave,
} from "../providers/openai/test-utils/stream-arbitraries.js";
import { readSseEvents, type SseEvent } from "./read-sse-events.js";

// Random event streams (multi-line data, comments, `event:` / `id:` / unknown fields, LF / CRLF / CR line
// endings mixed, any Unicode) must parse to the events they encode, whole or cut anywhere: at any UTF-16
// position as text pieces, or at any byte (inside UTF-8 sequences) through the fetch transport's decoder.

type Eol = "\n" | "\r\n" | "\r";

/** One generated event: what it carries, and how it is written. */
interface GeneratedEvent {
  data: { value: string; form: "space" | "tight" | "bare" }[];
  event: string | undefined;
  id: string | undefined;
  /** Comment and ignored lines (`retry:`, unknown fields), mixed in anywhere. */
  other: string[];
  /** Which line comes next: a data line (kept in order) or another one. */
  picks: number[];
  eols: Eol[];
  /** Blank lines after the event (at least 1). */
  blankLines: Eol[];
}

const lineText = (maxLength: number) =>
  fc.string({ unit: charArbitrary.filter((c) => c !== "\n" && c !== "\r"), maxLength });
const eolArbitrary = fc.constantFrom<Eol>("\n", "\r\n", "\r");

const eventArbitrary: fc.Arbitrary<GeneratedEvent> = fc.record({
  // Zero data lines: an event that is never dispatched (only comments / fields).
  data: fc.array(
    fc.record({
      value: lineText(30),
      form: fc.constantFrom("space" as const, "tight" as const, "bare" as const),
    }),
    { maxLength: 4 },
  ),
  event: fc.option(
    lineText(12).filter((name) => name !== ""),
    { nil: undefined },
  ),
  id: fc.option(
    lineText(8).filter((id) => !id.includes("\0")),
    { nil: undefined },
  ),
  other: fc.array(
    fc.oneof(
      lineText(15).map((text) => `:${text}`),
      fc.constantFrom("retry: 1000", "retry: soon", "foo: bar", "x", ": ping", ":"),
    ),
    { maxLength: 3 },
  ),
  picks: fc.array(fc.nat(), { maxLength: 10 }),
  eols: fc.array(eolArbitrary, { minLength: 10, maxLength: 10 }),
  blankLines: fc.array(eolArbitrary, { minLength: 1, maxLength: 2 }),
});

const streamArbitrary = fc.record({
  /** A byte order mark opens the stream (the SSE spec ignores it; Node's UTF-8 decoder keeps it, TextDecoder drops it). */
  bom: fc.boolean(),
  leadingBlankLines: fc.array(eolArbitrary, { maxLength: 2 }),
  events: fc.array(eventArbitrary, { maxLength: 8 }),
  /** How the last event ends: with its blank lines, with only its line ending, or at the last character. */
  ending: fc.constantFrom("blank-line" as const, "eol" as const, "eof" as const),
});

type GeneratedStream = typeof streamArbitrary extends fc.Arbitrary<infer T> ? T : never;

function dataLine({ value, form }: GeneratedEvent["data"][number]): string {
  if (form === "bare" && value === "") return "data";
  // Without the space, a value starting with a space would lose it: the first space after the colon is eaten.
  if (form === "tight" && !value.startsWith(" ")) return `data:${value}`;
  return `data: ${value}`;
}

/** The stream's text and the events it encodes. */
function encode(stream: GeneratedStream): { text: string; expected: SseEvent[] } {
  const lines: { text: string; eol: Eol | "" }[] = stream.leadingBlankLines.map((eol) => ({ text: "", eol }));
  const expected: SseEvent[] = [];
  stream.events.forEach((event, index) => {
    const fields = [...event.other];
    if (event.event !== undefined) fields.push(`event: ${event.event}`);
    if (event.id !== undefined) fields.push(`id: ${event.id}`);
    const eventLines = interleave([event.data.map(dataLine), fields], event.picks);
    eventLines.forEach((text, i) => {
      lines.push({ text, eol: event.eols[i % event.eols.length]! });
    });
    const last = index === stream.events.length - 1;
    if (!last || stream.ending === "blank-line") {
      for (const eol of event.blankLines) lines.push({ text: "", eol });
    } else if (stream.ending === "eof" && lines.length > 0) {
      lines[lines.length - 1]!.eol = "";
    }
    if (event.data.length > 0) {
      expected.push({ id: event.id, event: event.event, data: event.data.map((d) => d.value).join("\n") });
    }
  });
  let text = stream.bom ? "\uFEFF" : "";
  let previous: Eol | "" = "";
  for (const line of lines) {
    // "\r" then an empty line ended by "\n" would read as one "\r\n": end that blank line with "\r\n" instead.
    const eol: Eol | "" = previous === "\r" && line.text === "" && line.eol === "\n" ? "\r\n" : line.eol;
    text += line.text + eol;
    previous = eol;
  }
  return { text, expected };
}

async function parse(body: AsyncIterable<string>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSseEvents(body))
    events.push({ id: event.id, event: event.event, data: event.data });
  return events;
}

describe("readSseEvents properties (random event streams)", () => {
  it("parses a whole stream to the events it encodes", async () => {
    await fc.assert(
      fc.asyncProperty(streamArbitrary, async (stream) => {
        const { text, expected } = encode(stream);
        expect(await parse(bodyOf([text]))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it("parses the same events when the stream is cut anywhere (text pieces, or bytes through the fetch decoder)", async () => {
    let cutsInsideCharacters = 0;
    await fc.assert(
      fc.asyncProperty(streamArbitrary, deliveryArbitrary, async (stream, delivery) => {
        const { text, expected } = encode(stream);
        if (delivery.bytes) {
          // Count the runs that cut the bytes inside a UTF-8 sequence (before a continuation byte).
          const bytes = new TextEncoder().encode(text);
          const inside = (at: number) => (bytes[at] ?? 0) >= 0x80 && (bytes[at] ?? 0) < 0xc0;
          if (cutPositions(delivery.cuts, bytes.length).some(inside)) cutsInsideCharacters++;
        }
        expect(await parse(deliver(text, delivery))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
    expect(cutsInsideCharacters).toBeGreaterThan(20);
  });
});
