import type { Guardrail, GuardrailCheck } from "./guardrail.js";

/**
 * A guardrail that looks at the text of whatever it is given (see the built-ins: `secretsGuardrail`,
 * `maxLengthGuardrail`, `formatGuardrail`), so the same object serves as input, output and tool guardrail.
 * `mode` applies where it is used as an input guardrail, `phase` where it is used as a tool guardrail.
 */
export interface TextGuardrail extends Guardrail<GuardrailCheck> {
  mode?: "before" | "parallel";
  phase?: "call" | "result";
}

/** Options every built-in guardrail takes. */
export interface TextGuardrailOptions {
  /** The guardrail's name in events and errors (each built-in has a default). */
  name?: string;
  /** As an input guardrail: run before the first model call (default) or alongside it. */
  mode?: "before" | "parallel";
  /** As a tool guardrail: check only calls, or only results (default: both). */
  phase?: "call" | "result";
}

/** The guardrail object of a built-in: its name, its check, and `mode` / `phase` when they were given. */
export function textGuardrail({
  options,
  name,
  check,
}: {
  options: TextGuardrailOptions;
  name: string;
  check: TextGuardrail["check"];
}): TextGuardrail {
  const guardrail: TextGuardrail = { name: options.name ?? name, check };
  if (options.mode !== undefined) guardrail.mode = options.mode;
  if (options.phase !== undefined) guardrail.phase = options.phase;
  return guardrail;
}
