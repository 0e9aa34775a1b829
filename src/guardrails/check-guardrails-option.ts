import { checkObjectOption, failOption, optionKeys, showValue } from "../util/check-option.js";
import type { GuardrailsOptions } from "./guardrail.js";

const KEYS = optionKeys<GuardrailsOptions>({ input: true, output: true, tool: true });

/** The values an optional field may take, by kind and field. */
const CHOICES: Readonly<Record<string, { field: "mode" | "phase"; values: readonly string[] }>> = {
  input: { field: "mode", values: ["before", "parallel"] },
  tool: { field: "phase", values: ["call", "result"] },
};

function checkGuardrail(argument: string, value: unknown, kind: string): void {
  if (typeof value !== "object" || value === null) {
    failOption(argument, `expected a guardrail ({ name, check }), got ${showValue(value)}`);
  }
  const guardrail = value as { name?: unknown; check?: unknown; mode?: unknown; phase?: unknown };
  if (typeof guardrail.name !== "string" || guardrail.name === "") {
    failOption(`${argument}.name`, `expected a non-empty string, got ${showValue(guardrail.name)}`);
  }
  if (typeof guardrail.check !== "function") {
    failOption(`${argument}.check`, `expected a function, got ${showValue(guardrail.check)}`);
  }
  const choice = CHOICES[kind];
  if (choice === undefined) return;
  const chosen = guardrail[choice.field];
  if (chosen !== undefined && !choice.values.includes(chosen as string)) {
    const expected = choice.values.map((v) => JSON.stringify(v)).join(" or ");
    failOption(`${argument}.${choice.field}`, `expected ${expected}, got ${showValue(chosen)}`);
  }
}

/**
 * Checks the `guardrails` option of an Agent: an object with `input`, `output` and `tool` arrays of
 * `{ name, check }` guardrails (a non-empty name, a function; `mode` of input and `phase` of tool guardrails
 * when set). Throws `InvalidArgumentError` naming the bad entry.
 */
export function checkGuardrailsOption(guardrails: unknown): void {
  checkObjectOption("guardrails", guardrails, KEYS);
  if (guardrails === undefined) return;
  for (const kind of ["input", "output", "tool"] as const) {
    const list: unknown = (guardrails as GuardrailsOptions)[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list)) failOption(`guardrails.${kind}`, `expected an array, got ${showValue(list)}`);
    list.forEach((guardrail: unknown, index) => {
      checkGuardrail(`guardrails.${kind}[${index}]`, guardrail, kind);
    });
  }
}
