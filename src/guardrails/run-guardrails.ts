import { AbortError } from "../errors/abort-error.js";
import { describeFailure, toError } from "../util/to-error.js";
import type { Guardrail } from "./guardrail.js";

/** A guardrail that blocked: its name and reason, and what it threw when it failed instead of deciding. */
export interface GuardrailBlock {
  name: string;
  reason: string;
  /** Set when the guardrail threw (or returned something that is not a verdict): it failed closed. */
  failure?: Error;
}

/** Options of {@link runGuardrails}. */
export interface RunGuardrailsOptions<TCheck> {
  guardrails: readonly Guardrail<TCheck>[];
  /** What they check. */
  check: TCheck;
  /** The run's signal: when it aborts, the run stops waiting for the guardrails. */
  signal: AbortSignal;
}

/** The reason given when a verdict has no usable reason. */
const NO_REASON = "(no reason given)";

/** The block of a verdict, or undefined when it lets the run go on. Throws for anything that is not a verdict. */
function blockOf(name: string, verdict: unknown): GuardrailBlock | undefined {
  const block = typeof verdict === "object" && verdict !== null ? (verdict as { block?: unknown }).block : 0;
  if (block === false) return undefined;
  if (block !== true) {
    throw new TypeError("it returned something that is not a verdict (expected { block: boolean })");
  }
  const reason: unknown = (verdict as { reason?: unknown }).reason;
  return { name, reason: typeof reason === "string" && reason !== "" ? reason : NO_REASON };
}

/** One guardrail's outcome; never rejects (a throw, or a rejection, is a block: guardrails fail closed). */
async function outcomeOf<TCheck>(
  guardrail: Guardrail<TCheck>,
  check: TCheck,
): Promise<GuardrailBlock | undefined> {
  const { name } = guardrail;
  try {
    return blockOf(name, await guardrail.check(check));
  } catch (error) {
    const failure = toError(error);
    const { name: type, message } = describeFailure(error);
    return { name, reason: `the guardrail failed (${type}: ${message})`, failure };
  }
}

/** `promise`, or a rejection with an {@link AbortError} as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortError({ cause: signal.reason }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new AbortError({ cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Runs guardrails on one check, all at once, and resolves with the first block in list order (so the same
 * run blocks the same way every time), or undefined when every one passed. A guardrail that throws, rejects,
 * or returns something that is not `{ block: boolean }` blocks, with a reason naming the failure (`failure`
 * holds it). Rejects only with an `AbortError` when `signal` aborts first (a guardrail that ignores the
 * signal cannot hold the run past its timeout).
 */
export async function runGuardrails<TCheck>({
  guardrails,
  check,
  signal,
}: RunGuardrailsOptions<TCheck>): Promise<GuardrailBlock | undefined> {
  const outcomes = await untilAborted(
    Promise.all(guardrails.map((guardrail) => outcomeOf(guardrail, check))),
    signal,
  );
  return outcomes.find((outcome) => outcome !== undefined);
}
