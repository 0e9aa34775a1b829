import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { checkSubject, checkText } from "./check-text.js";
import type { GuardrailCheck, GuardrailVerdict } from "./guardrail.js";
import { type TextGuardrail, type TextGuardrailOptions, textGuardrail } from "./text-guardrail.js";

/** Options of {@link formatGuardrail}: a `pattern` the text must match, or a `validate` function (not both). */
export interface FormatGuardrailOptions extends TextGuardrailOptions {
  /** The text must match it (`pattern.test(text)`; anchor it with `^…$` to match the whole text). */
  pattern?: RegExp;
  /**
   * Decides on the text: `true` passes; `false` blocks; a string blocks with that string as the reason. It
   * may be async; what it throws blocks the run (guardrails fail closed). It gets the whole check too.
   */
  validate?: (text: string, check: GuardrailCheck) => boolean | string | Promise<boolean | string>;
  /** What the format is, for the reason of a block ("a JSON object", "an ISO date"). Default: the pattern. */
  description?: string;
}

/** The verdict of a check's result; `failed` says what is wrong with the subject ("is not yes or no"). */
function verdictOf(result: boolean | string, subject: string, failed: string): GuardrailVerdict {
  if (result === true) return { block: false };
  if (typeof result === "string" && result !== "") return { block: true, reason: result };
  return { block: true, reason: `${subject} ${failed}` };
}

/**
 * A guardrail that blocks text not in the expected format: an answer that must match a pattern (a ticket id,
 * one word, no markdown), a user message of a fixed form, a tool result a validator refuses. With `pattern`,
 * the text must match it; with `validate`, the function decides (return a string to give the reason).
 *
 * @example
 * formatGuardrail({ pattern: /^(yes|no)$/i, description: "yes or no" }) // as an output guardrail
 * formatGuardrail({ validate: (text) => !/<script/i.test(text) || "the answer contains a script tag" })
 */
export function formatGuardrail(options: FormatGuardrailOptions): TextGuardrail {
  const { pattern, validate } = options ?? {};
  if ((pattern === undefined) === (validate === undefined)) {
    throw new InvalidArgumentError({ argument: "options", message: "give either pattern or validate" });
  }
  if (pattern !== undefined && !(pattern instanceof RegExp)) {
    throw new InvalidArgumentError({ argument: "pattern", message: "expected a regular expression" });
  }
  if (validate !== undefined && typeof validate !== "function") {
    throw new InvalidArgumentError({ argument: "validate", message: "expected a function" });
  }
  // A copy without the g and y flags: `test` then never depends on (or moves) a lastIndex.
  const regex = pattern && new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""));
  const failed =
    options.description !== undefined
      ? `is not ${options.description}`
      : regex === undefined
        ? "is not in the expected format"
        : `does not match ${regex}`;
  return textGuardrail({
    options,
    name: "format",
    check: (check) => {
      const text = checkText(check);
      const subject = checkSubject(check);
      if (regex !== undefined) return verdictOf(regex.test(text), subject, failed);
      const result = (validate as NonNullable<typeof validate>)(text, check);
      if (typeof result === "boolean" || typeof result === "string")
        return verdictOf(result, subject, failed);
      return Promise.resolve(result).then((settled) => verdictOf(settled, subject, failed));
    },
  });
}
