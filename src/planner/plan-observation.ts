/** What one executed plan step left behind: its result, or why it failed. JSON-serialisable. */
export type PlanObservation = {
  /** 1-based number of the step in the run (counting on across re-planning rounds). */
  step: number;
  /** The planning round that planned it (0 for the first plan). */
  round: number;
  /** The tool called. */
  toolName: string;
  /** The arguments the plan gave (before validation). */
  arguments: unknown;
  /** Wall time of the call in ms (0 when it never started, e.g. invalid arguments). */
  latencyMs: number;
} & (
  | {
      ok: true;
      /** The result as the model is sent it (formatted and truncated like in the ReAct loop). */
      result: string;
    }
  | {
      ok: false;
      /** Why it failed: the error class (`ToolArgumentsError`, `ToolTimeoutError`, ...) and its message. */
      error: { type: string; message: string };
    }
);

/** At most this many characters of one result are quoted back to a model. */
const MAX_QUOTED_RESULT = 4_000;

function quote(text: string): string {
  return text.length > MAX_QUOTED_RESULT ? `${text.slice(0, MAX_QUOTED_RESULT)}…` : text;
}

/**
 * Observations as text for a model (the re-planner and the summarizer), one per line:
 * `#1 calculator {"expression":"40+7"} → ok: 47` or `#2 get_weather {"city":"X"} → failed (ToolExecutionError): ...`.
 */
export function describeObservations(observations: readonly PlanObservation[]): string {
  if (observations.length === 0) return "(no steps were run)";
  return observations
    .map((o) => {
      const head = `#${o.step} ${o.toolName} ${JSON.stringify(o.arguments) ?? "{}"} → `;
      return o.ok
        ? `${head}ok: ${quote(o.result)}`
        : `${head}failed (${o.error.type}): ${quote(o.error.message)}`;
    })
    .join("\n");
}
