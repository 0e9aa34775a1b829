import { contentText } from "../models/content-part.js";
import type { GuardrailCheck } from "./guardrail.js";

/** JSON of a value, or "" when it has none (undefined, a function) or cannot be serialised (a cycle, a BigInt). */
function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/**
 * The text a built-in guardrail looks at, whatever the kind of check: the input's text parts, the answer's
 * text (the typed answer as JSON when there is no text), a call's arguments as the model sent them, a result's
 * text parts. Images and files are not text: they are not looked at.
 */
export function checkText(check: GuardrailCheck): string {
  switch (check.kind) {
    case "input":
      return contentText(check.input);
    case "output":
      return check.text !== "" || check.output === undefined ? check.text : jsonOf(check.output);
    default:
      if (check.phase === "result") return contentText(check.result);
      return check.rawArguments !== "" || check.arguments === undefined
        ? check.rawArguments
        : jsonOf(check.arguments);
  }
}

/** What a check is about, for a verdict's reason: "the input", "the answer", "the call's arguments", "the result". */
export function checkSubject(check: GuardrailCheck): string {
  if (check.kind === "input") return "the input";
  if (check.kind === "output") return "the answer";
  return check.phase === "call" ? `the arguments of ${check.toolName}` : `the result of ${check.toolName}`;
}
