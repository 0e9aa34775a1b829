import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TraceError } from "../errors/trace-error.js";
import { countingWeatherTool, recordRun, TOOL_RUN_STEPS } from "./test-utils/record-run.js";
import { loadTrace, saveTrace } from "./trace-file.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-trace-file-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("saveTrace / loadTrace", () => {
  it("writes a header line, then one record per line", async () => {
    const { trace } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [countingWeatherTool().tool] });
    const path = join(dir, "lines.jsonl");
    await saveTrace({ trace, path });
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    expect(JSON.parse(lines[0] ?? "")).toEqual({ type: "agentloop-trace", version: 2 });
    expect(lines).toHaveLength(trace.records.length + 1);
    expect(JSON.parse(lines[1] ?? "")).toMatchObject({ seq: 0, kind: "meta" });
  });

  it("takes one options object: the 0.1 positional call is refused with the new form", async () => {
    const { trace } = await recordRun({ steps: TOOL_RUN_STEPS, tools: [countingWeatherTool().tool] });
    const positional = saveTrace as unknown as (trace: unknown, path: string) => Promise<void>;
    await expect(positional(trace, join(dir, "old.jsonl"))).rejects.toThrow(
      /saveTrace\(\{ trace, path, redact \}\)/,
    );
  });

  it("rejects a file with a newer version", async () => {
    const path = join(dir, "newer.jsonl");
    await writeFile(path, `${JSON.stringify({ type: "agentloop-trace", version: 3 })}\n`);
    const error = await loadTrace(path).catch((e: unknown) => e);
    expect(TraceError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/version 3 trace, written by a newer agentloop/);
  });

  it("rejects a file with a wrong header", async () => {
    for (const [name, content] of [
      ["wrong-type.jsonl", `${JSON.stringify({ type: "something-else", version: 1 })}\n`],
      ["no-header.jsonl", `${JSON.stringify({ seq: 0, kind: "meta", data: {}, prevHash: "", hash: "" })}\n`],
      ["not-json.jsonl", "hello\n"],
      ["empty.jsonl", ""],
    ] as const) {
      const path = join(dir, name);
      await writeFile(path, content);
      await expect(loadTrace(path)).rejects.toThrow(/not an agentloop trace/);
    }
  });

  it("rejects a line that is not a record, naming the line", async () => {
    const path = join(dir, "bad-line.jsonl");
    await writeFile(path, `${JSON.stringify({ type: "agentloop-trace", version: 2 })}\n{"seq":0}\n`);
    await expect(loadTrace(path)).rejects.toThrow(/bad-line\.jsonl:2 is not a trace record/);
    await writeFile(path, `${JSON.stringify({ type: "agentloop-trace", version: 2 })}\n{oops\n`);
    await expect(loadTrace(path)).rejects.toThrow(/bad-line\.jsonl:2 is not valid JSON/);
  });
});
