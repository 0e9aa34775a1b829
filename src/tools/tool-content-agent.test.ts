import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import type { ToolResultRecord } from "../durable/journal-record.js";
import { MemoryJournal } from "../durable/memory-journal.js";
import type { Message, ToolMessage } from "../models/message.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { replay } from "../trace/replay.js";
import { loadTrace, saveTrace } from "../trace/trace-file.js";
import { tool } from "./tool.js";
import { toolContent } from "./tool-content.js";

const SHOT = randomBytes(3_000);
const SHOT_BASE64 = SHOT.toString("base64");
const IMAGE_PART = { type: "image", data: SHOT_BASE64, mediaType: "image/png" };

function screenshotTool(runs: { count: number }) {
  return tool({
    name: "screenshot",
    description: "Takes a screenshot",
    parameters: z.object({ page: z.string() }),
    execute: ({ page }) => {
      runs.count++;
      return toolContent([
        { type: "text", text: `Screenshot of ${page}` },
        { type: "image", data: new Uint8Array(SHOT), mediaType: "image/png" },
      ]);
    },
  });
}

const script = () => [
  { toolCalls: [{ id: "call_1", name: "screenshot", arguments: { page: "home" } }] },
  { text: "The page shows a login form." },
];

function toolMessageOf(messages: readonly Message[]): ToolMessage | undefined {
  return messages.find((message): message is ToolMessage => message.role === "tool");
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-tool-content-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a tool that returns an image", () => {
  it("gives the model the image in the tool message; the observation names it without its data", async () => {
    const runs = { count: 0 };
    const model = new ScriptedModel(script());
    const result = await new Agent({ model, tools: [screenshotTool(runs)] }).run("What is on the page?");
    expect(result.text).toBe("The page shows a login form.");
    const sent = toolMessageOf(model.calls[1]?.request.messages ?? []);
    expect(sent?.content).toEqual([{ type: "text", text: "Screenshot of home" }, IMAGE_PART]);
    expect(result.toolCalls[0]?.result).toBe("Screenshot of home\n[image image/png, 2.9 KB]");
    const observation = result.events.find((event) => event.type === "observation");
    expect(JSON.stringify(observation)).not.toContain(SHOT_BASE64.slice(0, 40));
    expect(toolMessageOf(result.messages)?.content).toEqual(sent?.content);
  });

  it("a durable run resumed after the tool ran gives the model the same image without running it again", async () => {
    const journal = new MemoryJournal();
    const runs = { count: 0 };
    // Attempt 1 ends after the tool ran: the model has no second answer (the process "died" there).
    const first = new ScriptedModel(script().slice(0, 1));
    const agent = new Agent({ model: first, tools: [screenshotTool(runs)], journal });
    const failed = await agent.run("What is on the page?", { runId: "shot-1" });
    expect(failed.stopReason).toBe("error");
    expect(failed.error?.message).toContain("[image]");
    expect(failed.error?.message).not.toContain(SHOT_BASE64.slice(0, 40));
    expect(runs.count).toBe(1);
    const records = await journal.load("shot-1");
    const journaled = records?.find((record): record is ToolResultRecord => record.kind === "tool_result");
    expect(journaled?.content).toEqual([{ type: "text", text: "Screenshot of home" }, IMAGE_PART]);

    const second = new ScriptedModel(script().slice(1));
    const resumed = await agent.with({ model: second }).resume({ runId: "shot-1" });
    expect(resumed.text).toBe("The page shows a login form.");
    expect(runs.count).toBe(1);
    expect(toolMessageOf(second.calls[0]?.request.messages ?? [])?.content).toEqual([
      { type: "text", text: "Screenshot of home" },
      IMAGE_PART,
    ]);
  });

  it("a trace records the image and a replay (after saving, redacted) sends it again without the tool", async () => {
    const runs = { count: 0 };
    const agent = new Agent({
      model: new ScriptedModel(script()),
      tools: [screenshotTool(runs)],
      trace: true,
    });
    const recorded = await agent.run("What is on the page?");
    const trace = recorded.trace;
    if (trace === undefined) throw new Error("no trace");
    const toolResult = trace.records.find((record) => record.kind === "tool_result");
    expect(toolResult?.data).toMatchObject({
      ok: true,
      result: [{ type: "text", text: "Screenshot of home" }, IMAGE_PART],
    });

    const path = join(dir, "shot.trace.jsonl");
    await saveTrace({ trace, path });
    const replayed = await replay(await loadTrace(path), { agent });
    expect(replayed.divergence).toBeNull();
    expect(runs.count).toBe(1);
    expect(toolMessageOf(replayed.result.messages)?.content).toEqual([
      { type: "text", text: "Screenshot of home" },
      IMAGE_PART,
    ]);
  });
});
