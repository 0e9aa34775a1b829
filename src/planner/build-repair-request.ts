import type { ModelRequest } from "../models/model.js";

/** Options of {@link buildRepairRequest}. */
export interface BuildRepairRequestOptions {
  /** The planning request whose answer was not a valid plan. */
  request: ModelRequest;
  /** What the model answered. */
  output: string;
  /** Why it is not a plan (from `parsePlan`). */
  error: string;
}

/**
 * The one repair request made when a plan cannot be read: the planning conversation, the model's bad output as
 * its turn, and a user message giving the parse error and asking for only the JSON array.
 */
export function buildRepairRequest({ request, output, error }: BuildRepairRequestOptions): ModelRequest {
  return {
    ...request,
    messages: [
      ...request.messages,
      { role: "assistant", content: output },
      {
        role: "user",
        content:
          `That is not a valid plan: ${error}.\n` +
          'Reply with only the JSON array of steps ({"type": "tool", "name", "arguments"} or ' +
          '{"type": "reply", "text"}), nothing else.',
      },
    ],
  };
}
