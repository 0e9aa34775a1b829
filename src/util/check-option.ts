import { InvalidArgumentError } from "../errors/invalid-argument-error.js";

/** A set of option names, built from a record typed against the options type (a missing key fails to compile). */
export function optionKeys<T>(record: { [K in keyof Required<T>]: true }): ReadonlySet<string> {
  return new Set(Object.keys(record));
}

/**
 * Option keys renamed in agentloop 0.2 (issue #16), by their old path: the new key. {@link checkObjectOption}
 * names the new key when it meets an old one, instead of calling it unknown.
 */
export const RENAMED_OPTIONS: Readonly<Record<string, string>> = Object.freeze({
  "limits.softMaxSteps": "softMaxTurns",
  "limits.maxTokens": "maxTotalTokens",
  "context.maxTokens": "maxContextTokens",
  "prompts.softSteps": "softTurns",
});

/** Throws {@link InvalidArgumentError} for `argument`. */
export function failOption(argument: string, message: string): never {
  throw new InvalidArgumentError({ argument, message });
}

/** A short description of a bad value for an error message (never a whole object). */
export function showValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object") return "an object";
  return typeof value === "function" ? "a function" : String(value);
}

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks that `value` is undefined or an object whose keys (when `known` is given) are all in `known`; names the
 * first unknown key (`limits.maxTurn`), so a typo fails at construction instead of being silently ignored.
 */
export function checkObjectOption(argument: string, value: unknown, known?: ReadonlySet<string>): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) failOption(argument, `expected an object, got ${showValue(value)}`);
  if (known === undefined) return;
  for (const key of Object.keys(value)) {
    if (known.has(key)) continue;
    const renamed = RENAMED_OPTIONS[`${argument}.${key}`];
    if (renamed !== undefined) {
      failOption(`${argument}.${key}`, `renamed to ${argument}.${renamed} in agentloop 0.2; use ${renamed}`);
    }
    failOption(`${argument}.${key}`, `unknown option; expected one of: ${[...known].join(", ")}`);
  }
}

/** The `temperature` option: undefined or a number from 0 to 2. */
export function checkTemperatureOption(temperature: unknown): void {
  if (
    temperature !== undefined &&
    !(typeof temperature === "number" && temperature >= 0 && temperature <= 2)
  ) {
    failOption("temperature", `expected a number from 0 to 2, got ${showValue(temperature)}`);
  }
}
