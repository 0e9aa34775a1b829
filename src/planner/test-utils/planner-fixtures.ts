import type { ScriptedStep } from "../../testing/scripted-step.js";
import { type Tool, tool } from "../../tools/tool.js";
import type { PlanStep } from "../plan-step.js";

const TEMPERATURES: Record<string, number> = { Paris: 18, London: 11 };

/** A weather tool (JSON Schema, `city` required) that records every execution in `calls`. */
export function weatherTool(): { tool: Tool; calls: string[] } {
  const calls: string[] = [];
  const weather = tool<{ city: string }>({
    name: "get_weather",
    description: "Current weather for a city",
    parameters: {
      type: "object",
      properties: { city: { type: "string", description: "City name" } },
      required: ["city"],
      additionalProperties: false,
    },
    execute: ({ city }) => {
      calls.push(city);
      const tempC = TEMPERATURES[city];
      if (tempC === undefined) throw new Error(`no weather station for ${city}`);
      return { city, tempC };
    },
  });
  return { tool: weather, calls };
}

/** A tool step. */
export function toolStep(name: string, args: Record<string, unknown> = {}): PlanStep {
  return { type: "tool", name, arguments: args };
}

/** A scripted model answer holding `steps` as a JSON plan. */
export function planAnswer(...steps: PlanStep[]): ScriptedStep {
  return { text: JSON.stringify(steps) };
}
