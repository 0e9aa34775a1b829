import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { TraceError } from "../errors/trace-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { toolContent } from "../tools/tool-content.js";
import { loadTrace, saveTrace } from "./trace-file.js";
import type { Trace } from "./trace-types.js";
import { verifyTrace } from "./verify-trace.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-trace-blobs-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const IMAGE = randomBytes(200_000);
const IMAGE_BASE64 = IMAGE.toString("base64");

/** A traced run of `turns` model calls: the first tool call returns the image, the input holds a small one. */
async function tracedRun(turns: number): Promise<Trace> {
  const shot = tool({
    name: "shot",
    description: "screenshot",
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) =>
      n === 0
        ? toolContent([{ type: "image", data: new Uint8Array(IMAGE), mediaType: "image/png" }])
        : `ok ${n}`,
  });
  const steps = Array.from({ length: turns - 1 }, (_, n) => ({
    toolCalls: [{ name: "shot", arguments: { n } }],
  }));
  const model = new ScriptedModel([...steps, { text: "done" }]);
  const agent = new Agent({ model, tools: [shot], trace: true });
  const result = await agent.run([
    { type: "text", text: "look" },
    { type: "image", data: new Uint8Array(16), mediaType: "image/png" },
  ]);
  if (result.trace === undefined) throw new Error("no trace");
  return result.trace;
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe("trace files: inline images written once", () => {
  it("writes an image every model request repeats once, and reads the trace back unchanged", async () => {
    const trace = await tracedRun(10);
    // In the trace, the image is in the tool result and in each of the 9 later model requests.
    expect(occurrences(JSON.stringify(trace.records), IMAGE_BASE64)).toBe(10);
    const path = join(dir, "blobs.jsonl");
    await saveTrace({ trace, path, redact: false });
    const text = await readFile(path, "utf8");
    expect(occurrences(text, IMAGE_BASE64)).toBe(1);
    expect(text.length).toBeLessThan(IMAGE_BASE64.length * 1.2);
    const lines = text.trimEnd().split("\n");
    expect(JSON.parse(lines[0] ?? "")).toEqual({ type: "agentloop-trace", version: 2, blobs: true });
    expect(JSON.parse(lines[1] ?? "")).toMatchObject({
      type: "agentloop-blob",
      id: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(lines).toHaveLength(trace.records.length + 2);
    // The small input image (under 1 KiB) stays where it is.
    expect(lines[2]).toContain(Buffer.alloc(16).toString("base64"));
    const loaded = await loadTrace(path);
    expect(loaded).toEqual(trace);
    expect(verifyTrace(loaded).ok).toBe(true);
  });

  it("rejects a reference to a blob the file does not have", async () => {
    const trace = await tracedRun(2);
    const path = join(dir, "missing.jsonl");
    await saveTrace({ trace, path, redact: false });
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    await writeFile(path, `${[lines[0], ...lines.slice(2)].join("\n")}\n`);
    const error = await loadTrace(path).catch((e: unknown) => e);
    expect(TraceError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/missing\.jsonl:\d+ refers to a blob the file does not have/);
  });

  it("writes a trace whose data already looks like a reference without blobs", async () => {
    const trace = await tracedRun(2);
    const meta = trace.records[0];
    if (meta?.kind !== "meta") throw new Error("no meta");
    const input = meta.data.input as Array<{ type: string; data?: string }>;
    input.push({ type: "image", data: "@blob:sha256:0000" });
    const path = join(dir, "clash.jsonl");
    await saveTrace({ trace, path, redact: false });
    const text = await readFile(path, "utf8");
    expect(text).not.toContain("agentloop-blob");
    expect(JSON.parse(text.slice(0, text.indexOf("\n")))).toEqual({ type: "agentloop-trace", version: 2 });
    expect(occurrences(text, IMAGE_BASE64)).toBe(2);
    expect(await loadTrace(path)).toEqual(trace);
  });
});
