/**
 * `agentloop/guardrails`: checks that may block a run (docs/guardrails.md). Give them to an Agent as
 * `guardrails: { input, output, tool }`: input guardrails run on the user message before (or alongside) the
 * first model call, output guardrails on the final answer, tool guardrails on each call before it runs and on
 * its result before the model gets it. A block ends the run with stop reason `guardrail` and a
 * {@link GuardrailError}. The built-ins: {@link secretsGuardrail} (secrets and personal data, with the
 * redactor's rules), {@link maxLengthGuardrail} and {@link formatGuardrail}.
 */

export { GuardrailError, type GuardrailErrorOptions, type GuardrailKind } from "../errors/guardrail-error.js";
export { type FormatGuardrailOptions, formatGuardrail } from "./format-guardrail.js";
export type {
  Guardrail,
  GuardrailCheck,
  GuardrailsOptions,
  GuardrailVerdict,
  InputGuardrail,
  InputGuardrailCheck,
  OutputGuardrail,
  OutputGuardrailCheck,
  ToolCallGuardrailCheck,
  ToolGuardrail,
  ToolGuardrailCheck,
  ToolResultGuardrailCheck,
} from "./guardrail.js";
export { type MaxLengthGuardrailOptions, maxLengthGuardrail } from "./max-length-guardrail.js";
export { type SecretKind, type SecretsGuardrailOptions, secretsGuardrail } from "./secrets-guardrail.js";
export type { TextGuardrail, TextGuardrailOptions } from "./text-guardrail.js";
