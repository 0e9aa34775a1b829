import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { JsonValue } from "../stores/session-store.js";
import { type Tool, tool } from "../tools/tool.js";

/** Options of {@link workingMemoryTools}. */
export interface WorkingMemoryOptions {
  /** At most this many facts are kept; remembering one more fails with a message to forget one. Default 50. */
  maxEntries?: number;
  /** Longest fact, in characters. Default 2,000. */
  maxValueChars?: number;
  /** The state key the facts live under. Default "memory". */
  stateKey?: string;
}

type Facts = { [key: string]: string };

/**
 * An opt-in pair of tools (plus `forget`) that let the agent keep key facts in its run state: `remember({ key,
 * value })`, `recall({ key? })` (one fact, or every fact when no key is given) and `forget({ key })`. With a
 * session the state is persisted, so the facts survive compaction (which only ever touches messages) and later
 * runs of the same session.
 */
export function workingMemoryTools(options: WorkingMemoryOptions = {}): Tool[] {
  const maxEntries = options.maxEntries ?? 50;
  const maxValueChars = options.maxValueChars ?? 2000;
  const stateKey = options.stateKey ?? "memory";
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new InvalidArgumentError({
      argument: "maxEntries",
      message: `expected a positive integer, got ${maxEntries}`,
    });
  }
  const read = (state: { get(key: string): JsonValue | undefined } | undefined): Facts => {
    const value = state?.get(stateKey);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Facts) : {};
  };
  const remember = tool<{ key: string; value: string }, string>({
    name: "remember",
    description:
      "Store a key fact in working memory so it is kept even when old messages are dropped from the context. " +
      "Use a short key; remembering an existing key replaces its value.",
    parameters: {
      type: "object",
      properties: {
        key: { type: "string", minLength: 1, maxLength: 100, description: "Short name of the fact" },
        value: { type: "string", minLength: 1, maxLength: maxValueChars, description: "The fact" },
      },
      required: ["key", "value"],
      additionalProperties: false,
    },
    execute: ({ key, value }, ctx) => {
      const facts = read(ctx.state);
      if (!(key in facts) && Object.keys(facts).length >= maxEntries) {
        throw new Error(`working memory is full (${maxEntries} facts): forget one first`);
      }
      facts[key] = value;
      ctx.state?.set(stateKey, facts);
      return `Remembered "${key}".`;
    },
  });
  const recall = tool<{ key?: string }, string>({
    name: "recall",
    description: "Read facts from working memory: one by key, or all of them when no key is given.",
    parameters: {
      type: "object",
      properties: { key: { type: "string", description: "The fact's key; omit to list every fact" } },
      additionalProperties: false,
    },
    execute: ({ key }, ctx) => {
      const facts = read(ctx.state);
      if (key !== undefined) return facts[key] ?? `Nothing remembered under "${key}".`;
      const entries = Object.entries(facts);
      return entries.length === 0
        ? "Working memory is empty."
        : entries.map(([k, v]) => `${k}: ${v}`).join("\n");
    },
  });
  const forget = tool<{ key: string }, string>({
    name: "forget",
    description: "Remove a fact from working memory.",
    parameters: {
      type: "object",
      properties: { key: { type: "string", minLength: 1 } },
      required: ["key"],
      additionalProperties: false,
    },
    execute: ({ key }, ctx) => {
      const facts = read(ctx.state);
      if (!(key in facts)) return `Nothing remembered under "${key}".`;
      delete facts[key];
      ctx.state?.set(stateKey, facts);
      return `Forgot "${key}".`;
    },
  });
  return [remember, recall, forget] as Tool[];
}
