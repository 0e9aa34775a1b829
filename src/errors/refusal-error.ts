import { errorMarker, hasMarker } from "./agentloop-error.js";
import { OutputError } from "./output-error.js";

const MARK_REFUSALERROR = errorMarker("RefusalError");

/**
 * The model refused to give the typed answer (OpenAI's `refusal`, a stop reason `refusal` or a content
 * filter): `refusal` is its explanation. Not retried: asking again tends to get the same refusal.
 */
export class RefusalError extends OutputError {
  protected readonly [MARK_REFUSALERROR] = true;
  /** The model's refusal message ("" when the provider gave none). */
  readonly refusal: string;

  constructor({ refusal, model }: { refusal: string; model: string }) {
    const said = refusal === "" ? "" : `: ${refusal}`;
    super({ reason: "refused", message: `${model} refused to answer${said}`, text: refusal });
    this.name = "RefusalError";
    this.refusal = refusal;
  }

  static override isInstance(error: unknown): error is RefusalError {
    return hasMarker(error, MARK_REFUSALERROR);
  }
}
