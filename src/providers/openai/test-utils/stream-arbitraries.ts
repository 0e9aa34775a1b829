import fc from "fast-check";
import { createFetchHttpClient } from "../../../http/http-client.js";
import { createToolCall, type Message } from "../../../models/message.js";

// Shared fast-check arbitraries and helpers for the property tests of the stream readers and the message
// converters (OpenAI Chat, OpenAI Responses, Anthropic).

/** One "character" of generated text: any code point, or one of the characters parsers get wrong. */
export const charArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "é", // 2 bytes in UTF-8
      "€", // 3 bytes
      "😀", // 4 bytes, a surrogate pair in UTF-16
      "👩‍👩‍👧", // a ZWJ sequence
      "中",
      '"',
      "\\",
      "/",
      "\n",
      "\r",
      "\t",
      "\u2028",
      "\u0000",
      "\uFEFF",
      ":",
      " ",
    ),
  },
);

/** Text of 0–`maxLength` characters of {@link charArbitrary}. */
export const textArbitrary = (maxLength = 20): fc.Arbitrary<string> =>
  fc.string({ unit: charArbitrary, maxLength });

/**
 * A random JSON object (tool arguments): unicode keys and values, nested up to 3 levels. Passed through JSON once,
 * since `fc.jsonValue` also generates `-0`, which JSON text cannot carry (it reads back as `0`).
 */
export const jsonObjectArbitrary: fc.Arbitrary<Record<string, unknown>> = fc
  .dictionary(
    fc.string({ unit: charArbitrary, maxLength: 8 }),
    fc.jsonValue({ maxDepth: 3, stringUnit: charArbitrary }),
    { maxKeys: 5 },
  )
  .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);

/** How tool arguments are written as JSON text. */
export type JsonStyle = "compact" | "pretty" | "escaped";

export const jsonStyleArbitrary: fc.Arbitrary<JsonStyle> = fc.constantFrom("compact", "pretty", "escaped");

/**
 * JSON text of `value`: compact, pretty-printed, or with every non-ASCII character, `/` and control character
 * written as an escape (`\u00e9`, `\/`), so that fragment boundaries fall inside escape sequences.
 */
export function encodeJson(value: unknown, style: JsonStyle): string {
  if (style === "compact") return JSON.stringify(value);
  if (style === "pretty") return JSON.stringify(value, null, 2);
  return JSON.stringify(value)
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replaceAll("/", "\\/");
}

/** A tool call to stream: its id, name, argument object and the exact argument text sent. */
export interface GeneratedCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  raw: string;
}

/** 1–`maxCalls` tool calls with unique ids, random names and random JSON arguments. */
export const callsArbitrary = (maxCalls = 4): fc.Arbitrary<GeneratedCall[]> =>
  fc
    .uniqueArray(
      fc.record({
        id: fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/),
        name: fc.string({ unit: charArbitrary, minLength: 1, maxLength: 12 }),
        args: jsonObjectArbitrary,
        style: jsonStyleArbitrary,
      }),
      { minLength: 1, maxLength: maxCalls, selector: (call) => call.id },
    )
    .map((calls) =>
      calls.map(({ id, name, args, style }) => ({
        id: `call_${id}`,
        name,
        args,
        raw: encodeJson(args, style),
      })),
    );

/**
 * Where to cut a text into pieces: random fractions of its length (duplicates give empty pieces), or every
 * `size` units.
 */
export type Cuts = { kind: "at"; fractions: number[] } | { kind: "every"; size: number };

export const cutsArbitrary = (maxCuts = 40): fc.Arbitrary<Cuts> =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("at" as const),
        fractions: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: maxCuts }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("every" as const), size: fc.integer({ min: 1, max: 7 }) }),
    },
  );

/** The cut positions in `[0, length]`, sorted (may repeat). */
export function cutPositions(cuts: Cuts, length: number): number[] {
  if (cuts.kind === "every") {
    const positions: number[] = [];
    for (let at = cuts.size; at < length; at += cuts.size) positions.push(at);
    return positions;
  }
  return cuts.fractions.map((f) => Math.floor(f * length)).sort((a, b) => a - b);
}

/** Cuts a string (at UTF-16 code unit positions, possibly inside a surrogate pair) or bytes into pieces. */
export function cut<T extends string | Uint8Array>(whole: T, cuts: Cuts): T[] {
  const pieces: T[] = [];
  let start = 0;
  for (const at of cutPositions(cuts, whole.length)) {
    pieces.push(whole.slice(start, at) as T);
    start = at;
  }
  pieces.push(whole.slice(start) as T);
  return pieces;
}

/** The pieces as an async text body, as a transport hands it to a stream reader. */
export async function* bodyOf(pieces: readonly string[]): AsyncGenerator<string> {
  for (const piece of pieces) yield piece;
}

/**
 * The text body the fetch transport (`createFetchHttpClient`, a real streaming `TextDecoder`) makes of a response
 * whose bytes arrive in exactly these chunks: UTF-8 sequences split across chunks are decoded here.
 */
export async function* bodyOfByteChunks(chunks: readonly Uint8Array[]): AsyncGenerator<string> {
  const fetchImpl = async (): Promise<Response> =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
    );
  const client = createFetchHttpClient(fetchImpl);
  const response = await client({ url: "http://stream.test/", method: "POST", headers: {} });
  yield* response.body;
}

/** How a generated SSE text reaches the reader: as text pieces, or as UTF-8 byte chunks through the fetch transport. */
export type Delivery = { bytes: boolean; cuts: Cuts };

export const deliveryArbitrary: fc.Arbitrary<Delivery> = fc.record({
  bytes: fc.boolean(),
  cuts: cutsArbitrary(),
});

/** Delivers `text` cut as `delivery` says. */
export function deliver(text: string, delivery: Delivery): AsyncGenerator<string> {
  if (!delivery.bytes) return bodyOf(cut(text, delivery.cuts));
  return bodyOfByteChunks(cut(new TextEncoder().encode(text), delivery.cuts));
}

/**
 * Interleaves per-source sequences: `picks` chooses, step by step, which source (among those with items left)
 * gives its next item. Each source's items keep their order.
 */
export function interleave<T>(sources: readonly (readonly T[])[], picks: readonly number[]): T[] {
  const positions = sources.map(() => 0);
  const result: T[] = [];
  let step = 0;
  for (;;) {
    const open = sources.map((_, i) => i).filter((i) => positions[i]! < sources[i]!.length);
    if (open.length === 0) return result;
    const source = open[(picks[step++ % Math.max(1, picks.length)] ?? 0) % open.length]!;
    result.push(sources[source]![positions[source]!++]!);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Histories for the converters.

interface GeneratedRoundCall {
  name: string;
  /** Argument object, or a raw text that is not valid JSON (`parseError`). */
  args: { json: Record<string, unknown>; style: JsonStyle } | { invalid: string };
  result: string;
  isError: boolean;
}

type Step =
  | { kind: "user"; content: string }
  | { kind: "system"; content: string }
  | { kind: "answer"; content: string }
  | { kind: "tools"; content: string; calls: GeneratedRoundCall[] };

const roundCallArbitrary: fc.Arbitrary<GeneratedRoundCall> = fc.record({
  name: fc.string({ unit: charArbitrary, minLength: 1, maxLength: 10 }),
  args: fc.oneof(
    { weight: 5, arbitrary: fc.record({ json: jsonObjectArbitrary, style: jsonStyleArbitrary }) },
    {
      weight: 1,
      arbitrary: fc
        .record({ json: fc.jsonValue({ maxDepth: 1 }), style: jsonStyleArbitrary })
        .map(({ json, style }) => ({ json: json as Record<string, unknown>, style })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom("{", '{"a":', "not json", "{'a':1}", "[1,]").map((invalid) => ({ invalid })),
    },
  ),
  result: textArbitrary(30),
  isError: fc.boolean(),
});

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: textArbitrary(30).map((content): Step => ({ kind: "user", content })) },
  { weight: 1, arbitrary: textArbitrary(30).map((content): Step => ({ kind: "system", content })) },
  { weight: 2, arbitrary: textArbitrary(30).map((content): Step => ({ kind: "answer", content })) },
  {
    weight: 4,
    arbitrary: fc
      .record({
        content: fc.oneof(fc.constant(""), textArbitrary(20)),
        calls: fc.array(roundCallArbitrary, { minLength: 1, maxLength: 4 }),
      })
      .map((round): Step => ({ kind: "tools", ...round })),
  },
);

/**
 * A random valid history with rich content: 0–2 leading system messages, a first user message, then user
 * messages, system messages (e.g. a running summary), plain answers and tool rounds (an assistant message with
 * 1–4 calls — random names, random JSON arguments in any style, sometimes invalid JSON — followed by all their
 * results, some flagged as errors). An assistant message never directly follows another one. Texts may be empty.
 */
export const richHistoryArbitrary: fc.Arbitrary<Message[]> = fc
  .tuple(
    fc.array(textArbitrary(20), { maxLength: 2 }),
    textArbitrary(20),
    fc.array(stepArbitrary, { maxLength: 12 }),
  )
  .map(([systems, firstUser, steps]) => {
    const messages: Message[] = systems.map((content) => ({ role: "system", content }));
    messages.push({ role: "user", content: firstUser });
    let callId = 0;
    for (const step of steps) {
      if (step.kind === "user" || step.kind === "system") {
        messages.push({ role: step.kind, content: step.content });
        continue;
      }
      if (messages.findLast((m) => m.role !== "system")?.role === "assistant") {
        messages.push({ role: "user", content: "continue" });
      }
      if (step.kind === "answer") {
        messages.push({ role: "assistant", content: step.content });
        continue;
      }
      const toolCalls = step.calls.map((call) =>
        createToolCall({
          id: `call_${callId++}`,
          name: call.name,
          rawArguments:
            "invalid" in call.args ? call.args.invalid : encodeJson(call.args.json, call.args.style),
        }),
      );
      messages.push({ role: "assistant", content: step.content, toolCalls });
      step.calls.forEach((call, index) => {
        messages.push({
          role: "tool",
          toolCallId: toolCalls[index]!.id,
          toolName: call.name,
          content: call.result,
          ...(call.isError && { isError: true }),
        });
      });
    }
    return messages;
  });
