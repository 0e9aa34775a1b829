import { z } from "zod";
import { Agent, type AgentOptions } from "../../agent.js";
import type { AgentResult } from "../../loop/agent-result.js";
import type { Message } from "../../models/message.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import type { ScriptedStep } from "../../testing/scripted-step.js";
import { type Tool, tool } from "../../tools/tool.js";
import { hashRecord } from "../hash-record.js";
import { TraceRecorder } from "../trace-recorder.js";
import { GENESIS_HASH, type Trace, type TraceRecord } from "../trace-types.js";

/** A weather tool that counts its executions. */
export function countingWeatherTool(): { tool: Tool; executions: () => number } {
  let count = 0;
  const weather = tool({
    name: "get_weather",
    description: "Weather for a city",
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      count++;
      return { city, tempC: city === "Paris" ? 18 : 11 };
    },
  });
  return { tool: weather, executions: () => count };
}

/** Two tool turns (one with two calls), then an answer. */
export const TOOL_RUN_STEPS: ScriptedStep[] = [
  { text: "Checking.", toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Paris" } }] },
  {
    toolCalls: [
      { id: "c2", name: "get_weather", arguments: { city: "Oslo" } },
      { id: "c3", name: "get_weather", arguments: { city: "Rome" } },
    ],
  },
  { text: "Paris 18°C, Oslo and Rome 11°C." },
];

/** Options of {@link recordRun}. */
export interface RecordRunOptions {
  steps: ScriptedStep[];
  tools: Tool[];
  input?: string;
  messages?: Message[];
  stream?: boolean;
  agentOptions?: Partial<AgentOptions>;
}

/** Runs an agent on a ScriptedModel with a recorder wired by hand (wrapped model + onEvent hook). */
export async function recordRun(options: RecordRunOptions): Promise<{
  trace: Trace;
  result: AgentResult;
  agent: Agent;
  model: ScriptedModel;
}> {
  const { steps, tools, input = "Weather in Paris, Oslo and Rome?", messages = [], stream = false } = options;
  const model = new ScriptedModel(steps);
  const base = new Agent({ model, tools, system: "Be brief.", ...options.agentOptions });
  const recorder = new TraceRecorder({
    input,
    messages,
    model: `${model.provider}:${model.modelId}`,
    tools: base.tools.names(),
  });
  const agent = base.with({ model: recorder.wrapModel(model), onEvent: (e) => recorder.recordEvent(e) });
  const result = stream
    ? await (async () => {
        const run = agent.stream(input, { messages });
        for await (const _event of run) {
          // drain
        }
        return run.result;
      })()
    : await agent.run(input, { messages });
  return { trace: recorder.finish(), result, agent, model };
}

/** Recomputes every record's `prevHash` and `hash` (a legitimately different recording). */
export function rehash(trace: Trace): Trace {
  let prevHash = GENESIS_HASH;
  const records = trace.records.map((record, seq) => {
    const hash = hashRecord({ seq, kind: record.kind, data: record.data, prevHash });
    const next = { ...record, seq, prevHash, hash } as TraceRecord;
    prevHash = hash;
    return next;
  });
  return { version: trace.version, records };
}

/** A deep copy of a trace (through JSON). */
export function copyTrace(trace: Trace): Trace {
  return JSON.parse(JSON.stringify(trace)) as Trace;
}
