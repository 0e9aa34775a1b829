import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { checkSubject, checkText } from "./check-text.js";
import { type TextGuardrail, type TextGuardrailOptions, textGuardrail } from "./text-guardrail.js";

/** Options of {@link maxLengthGuardrail}. */
export interface MaxLengthGuardrailOptions extends TextGuardrailOptions {
  /** The most characters (UTF-16 code units, as `string.length` counts) the text may have. */
  maxChars: number;
}

/**
 * A guardrail that blocks text longer than `maxChars`: an oversized user message (before it costs a model
 * call), an answer that ran long, a call's arguments or a tool result (a tool guardrail sees the result as
 * the model would get it, after `maxToolResultChars` truncation). Only text counts: images and files do not.
 *
 * @example
 * new Agent({ model, guardrails: { input: [maxLengthGuardrail({ maxChars: 20_000 })] } });
 */
export function maxLengthGuardrail(options: MaxLengthGuardrailOptions): TextGuardrail {
  const maxChars: unknown = options?.maxChars;
  if (typeof maxChars !== "number" || !(maxChars >= 0) || !Number.isInteger(maxChars)) {
    throw new InvalidArgumentError({
      argument: "maxChars",
      message: `expected a non-negative integer, got ${String(maxChars)}`,
    });
  }
  return textGuardrail({
    options,
    name: "max_length",
    check: (check) => {
      const length = checkText(check).length;
      if (length <= maxChars) return { block: false };
      const reason = `${checkSubject(check)} has ${length} characters, more than the ${maxChars} allowed`;
      return { block: true, reason };
    },
  });
}
