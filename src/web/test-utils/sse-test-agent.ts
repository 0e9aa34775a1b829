import { z } from "zod";
import { Agent } from "../../agent.js";
import type { RunJournal } from "../../durable/run-journal.js";
import type { Model, ModelCallOptions, ModelRequest } from "../../models/model.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import type { ScriptedStep } from "../../testing/scripted-step.js";
import { tool } from "../../tools/tool.js";

/** The answer of the weather script's second turn. */
export const WEATHER_ANSWER = "It is sunny in Paris today, with a light breeze from the west.";

/** Two turns: text and a `lookup` tool call, then the answer (streamed word by word). */
export const WEATHER_STEPS: readonly ScriptedStep[] = [
  { text: "Let me check.", toolCalls: [{ id: "c1", name: "lookup", arguments: { city: "Paris" } }] },
  { text: WEATHER_ANSWER },
];

/** Options of {@link createTestAgent}. */
export interface CreateTestAgentOptions {
  steps?: readonly ScriptedStep[] | ((request: ModelRequest, callIndex: number) => ScriptedStep);
  journal?: RunJournal;
  /** Wait between two streamed parts (ms). */
  streamDelayMs?: number;
  /** What `lookup` returns. Default "sunny". */
  lookupResult?: string;
  maxTurns?: number;
}

/** An agent on a {@link ScriptedModel} with a `lookup` tool; `signals` holds each model call's abort signal. */
export function createTestAgent(options: CreateTestAgentOptions = {}) {
  const scripted = new ScriptedModel(options.steps ?? WEATHER_STEPS, {
    streamDelayMs: options.streamDelayMs ?? 0,
    chunkSize: "word",
  });
  const signals: AbortSignal[] = [];
  const lookups: string[] = [];
  const model: Model = {
    provider: scripted.provider,
    modelId: scripted.modelId,
    capabilities: scripted.capabilities,
    generate: (request, callOptions) => scripted.generate(request, callOptions),
    stream: (request, callOptions?: ModelCallOptions) => {
      if (callOptions?.signal !== undefined) signals.push(callOptions.signal);
      return scripted.stream(request, callOptions);
    },
  };
  const lookup = tool({
    name: "lookup",
    description: "Looks up the weather of a city",
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      lookups.push(city);
      return options.lookupResult ?? "sunny";
    },
  });
  const agent = new Agent({
    model,
    tools: [lookup],
    ...(options.journal !== undefined && { journal: options.journal }),
    pricing: { scripted: { inputPerMTok: 1, outputPerMTok: 2 } },
    limits: { maxTurns: options.maxTurns ?? 10 },
  });
  return { agent, scripted, signals, lookups };
}
