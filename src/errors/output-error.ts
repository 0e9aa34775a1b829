import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_OUTPUTERROR = errorMarker("OutputError");

/**
 * Why a run with an `output` schema has no typed answer: `invalid` (the answer was not JSON, or did not match
 * the schema, after the allowed retries), `missing` (the run stopped before a final answer: a limit, an
 * abort), `refused` (the model refused: see {@link RefusalError}).
 */
export type OutputErrorReason = "invalid" | "missing" | "refused";

/** Options of {@link OutputError}. */
export interface OutputErrorOptions {
  reason: OutputErrorReason;
  message: string;
  /** What was wrong, field by field (`reason: "invalid"`). */
  errors?: readonly string[];
  /** The model's last answer text, when it gave one. */
  text?: string;
  cause?: unknown;
}

/**
 * A run with an `output` schema ended without a valid typed answer: `result.output` is `undefined` and
 * `result.error` is this error. `reason` says why, `errors` lists the field-level problems of the last
 * answer, `text` holds it.
 */
export class OutputError extends AgentloopError {
  protected readonly [MARK_OUTPUTERROR] = true;
  readonly reason: OutputErrorReason;
  readonly errors: readonly string[];
  readonly text: string | undefined;

  constructor({ reason, message, errors = [], text, cause }: OutputErrorOptions) {
    super({ message, cause });
    this.name = "OutputError";
    this.reason = reason;
    this.errors = errors;
    this.text = text;
  }

  static override isInstance(error: unknown): error is OutputError {
    return hasMarker(error, MARK_OUTPUTERROR);
  }
}
