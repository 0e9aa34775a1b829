import type { Model, ModelRequest, ModelResponse } from "../../models/model.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { emptyUsage } from "../../models/usage.js";

/** A `finish` part. */
export function finishPart(unified: "stop" | "tool_calls"): ModelStreamPart {
  return {
    type: "finish",
    usage: { ...emptyUsage(), inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    finishReason: { unified, raw: unified },
  };
}

/**
 * A model that streams the given parts per call (reasoning included, which `ScriptedModel` does not send); an
 * entry that is an Error is thrown after the parts before it. Records the requests.
 */
export function partsModel(
  calls: Array<Array<ModelStreamPart | Error>>,
): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    provider: "test",
    modelId: "parts",
    requests,
    async generate(): Promise<ModelResponse> {
      throw new Error("not used: the agent streams");
    },
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const parts = calls[requests.length] ?? [];
      requests.push(request);
      for (const part of parts) {
        if (part instanceof Error) throw part;
        yield part;
      }
    },
  };
}
