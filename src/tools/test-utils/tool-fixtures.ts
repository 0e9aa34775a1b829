import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { createToolCall, type ToolCall } from "../../models/message.js";
import { type Tool, tool } from "../tool.js";
import { ToolRegistry } from "../tool-registry.js";

let nextId = 0;

/** A tool call with a fresh id, its raw arguments being `args` as JSON. */
export function call(name: string, args: unknown = {}): ToolCall {
  return createToolCall({ id: `c${++nextId}`, name, rawArguments: JSON.stringify(args) });
}

/** A tool that sleeps `ms` and returns `"<name>:<n>"`, logging its start and end times into `log`. */
export function sleeper(name: string, ms = 100, log?: Array<[string, string, number]>) {
  return tool({
    name,
    description: `sleeps ${ms} ms`,
    parameters: z.object({ n: z.number().optional() }),
    execute: async ({ n }) => {
      log?.push([name, "start", performance.now()]);
      await sleep(ms);
      log?.push([name, "end", performance.now()]);
      return `${name}:${n ?? 0}`;
    },
  });
}

/** A registry holding `tools`. */
export function registry(...tools: Tool[]): ToolRegistry {
  return new ToolRegistry({ tools });
}
