import type { PlanStep } from "./plan-step.js";

/** What {@link parsePlan} returns: the steps, or why the text is not a plan. Never thrown. */
export type ParsePlanResult = { ok: true; steps: PlanStep[] } | { ok: false; error: string };

/** At most this many `[` / `{` positions are tried when the JSON is embedded in prose. */
const MAX_START_POSITIONS = 64;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The text of each fenced code block (```json ... ``` or ``` ... ```), in order. */
function fencedBlocks(text: string): string[] {
  const blocks: string[] = [];
  for (const match of text.matchAll(/```[\w-]*[^\S\n]*\n?([\s\S]*?)```/g)) {
    if (match[1] !== undefined && match[1].trim() !== "") blocks.push(match[1].trim());
  }
  return blocks;
}

/** The end (exclusive) of the balanced JSON array/object starting at `start`, or -1. Strings are skipped. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "[" || char === "{") depth++;
    else if (char === "]" || char === "}") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** JSON values found in `text`: the whole text when it parses, else each balanced `[...]` / `{...}` that does. */
function* jsonValues(text: string): Generator<unknown> {
  try {
    yield JSON.parse(text);
    return;
  } catch {
    // Not JSON as a whole: look for JSON inside.
  }
  let tried = 0;
  for (let i = 0; i < text.length && tried < MAX_START_POSITIONS; i++) {
    if (text[i] !== "[" && text[i] !== "{") continue;
    tried++;
    const end = balancedEnd(text, i);
    if (end < 0) continue;
    try {
      yield JSON.parse(text.slice(i, end));
      i = end - 1;
    } catch {
      // Not JSON: try the next opening bracket.
    }
  }
}

function normaliseArguments(value: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (value === undefined || value === null) return { ok: true, value: {} };
  if (typeof value !== "string") return { ok: true, value };
  try {
    return { ok: true, value: value.trim() === "" ? {} : JSON.parse(value) };
  } catch {
    return { ok: false, error: "arguments is a string that is not JSON" };
  }
}

/** One step, forgivingly: `type` may be left out, `tool` may stand for `name` and `args` for `arguments`. */
function normaliseStep(
  value: unknown,
  index: number,
): { ok: true; step: PlanStep } | { ok: false; error: string } {
  const where = `step ${index + 1}`;
  if (!isRecord(value)) return { ok: false, error: `${where} is not an object` };
  const name = value.name ?? value.tool;
  const type = value.type ?? (name !== undefined ? "tool" : value.text !== undefined ? "reply" : undefined);
  if (type === "reply") {
    if (typeof value.text !== "string")
      return { ok: false, error: `${where}: a reply step needs a string "text"` };
    return { ok: true, step: { type: "reply", text: value.text } };
  }
  if (type !== "tool") {
    return {
      ok: false,
      error: `${where}: "type" must be "tool" or "reply", got ${JSON.stringify(type ?? null)}`,
    };
  }
  if (typeof name !== "string" || name.trim() === "") {
    return { ok: false, error: `${where}: a tool step needs a string "name"` };
  }
  const args = normaliseArguments(value.arguments ?? value.args);
  if (!args.ok) return { ok: false, error: `${where}: ${args.error}` };
  return { ok: true, step: { type: "tool", name: name.trim(), arguments: args.value } };
}

/** A JSON value as a plan: an array of steps, `{ steps: [...] }` (or `{ plan: [...] }`), or one step object. */
function toPlan(value: unknown): ParsePlanResult {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (isRecord(value) && Array.isArray(value.steps)) items = value.steps;
  else if (isRecord(value) && Array.isArray(value.plan)) items = value.plan;
  else if (isRecord(value)) items = [value];
  else return { ok: false, error: "expected a JSON array of steps" };
  const steps: PlanStep[] = [];
  for (const [index, item] of items.entries()) {
    const step = normaliseStep(item, index);
    if (!step.ok) return step;
    steps.push(step.step);
  }
  return { ok: true, steps };
}

/**
 * Reads a plan from a model's output, forgivingly: the JSON may sit in a code fence (```json ... ```) or in
 * prose, and may be an array of steps, `{ "steps": [...] }` or a single step object. Steps are
 * `{ "type": "tool", "name", "arguments" }` (arguments default to `{}`; a JSON string is parsed) or
 * `{ "type": "reply", "text" }`. Returns a result and never throws; an empty array is a valid (empty) plan.
 */
export function parsePlan(text: string): ParsePlanResult {
  if (typeof text !== "string" || text.trim() === "") return { ok: false, error: "the output is empty" };
  let firstError: string | undefined;
  for (const candidate of [...fencedBlocks(text), text.trim()]) {
    for (const value of jsonValues(candidate)) {
      const plan = toPlan(value);
      if (plan.ok) return plan;
      firstError ??= plan.error;
    }
  }
  return { ok: false, error: firstError ?? "no JSON array of steps found in the output" };
}
