// A quick smoke of the load and soak scripts (the real runs are `npm run load` and `npm run soak`, not tests):
// each runs as a child process with tiny numbers and must exit 0 with a summary that says so. No timing is
// asserted. The scripts import dist/, which `npm test` builds before vitest runs.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../", import.meta.url));

async function script(args: string[]): Promise<{ code: number; summary: Record<string, unknown> }> {
  let stdout: string;
  let code = 0;
  try {
    ({ stdout } = await run(process.execPath, args, { cwd: root, timeout: 60_000 }));
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    code = typeof failed.code === "number" ? failed.code : -1;
    stdout = failed.stdout ?? "";
    if (stdout.trim() === "") throw new Error(`${args.join(" ")} failed: ${failed.stderr}`);
  }
  const last = stdout.trim().split("\n").at(-1) ?? "";
  return { code, summary: JSON.parse(last) as Record<string, unknown> };
}

beforeAll(() => {
  if (!existsSync(new URL("../dist/index.js", import.meta.url))) {
    throw new Error("dist/ is not built: run `npm run build` (npm test does it before vitest)");
  }
});

describe("bench/load.mjs and bench/soak.mjs", () => {
  it("load: concurrent runs in both modes with faults, no failures, nothing leaked", async () => {
    const { code, summary } = await script([
      "bench/load.mjs",
      "--runs",
      "50",
      "--fault-rate",
      "0.05",
      "--json",
      "--no-save",
    ]);
    expect(summary.processEvents).toEqual([]);
    expect(code).toBe(0);
    expect(summary.ok).toBe(true);
    const modes = summary.modes as Array<Record<string, unknown>>;
    expect(modes.map((m) => m.mode)).toEqual(["run", "stream"]);
    for (const mode of modes) {
      expect(mode.runs).toBe(50);
      expect(mode.failures).toBe(0);
      expect(mode.chatRequests).toBeGreaterThanOrEqual(100);
    }
    expect(summary.unhandledRejections).toBe(0);
    expect(summary.maxListenersWarnings).toBe(0);
    expect(summary.leakedResources).toEqual({});
  });

  it("soak: sequential runs of every kind on both backends, nothing leaked", async () => {
    const { code, summary } = await script([
      "--expose-gc",
      "bench/soak.mjs",
      "--runs",
      "300",
      "--sample-every",
      "50",
      "--json",
      "--no-save",
    ]);
    expect(summary.problems).toEqual([]);
    expect(code).toBe(0);
    expect(summary.runs).toBe(300);
    expect(summary.failures).toBe(0);
    const outcomes = Object.keys(summary.outcomes as object);
    for (const backend of ["mock", "scripted"]) {
      expect(outcomes).toContain(`${backend}/normal/completed`);
      expect(outcomes).toContain(`${backend}/abort/aborted`);
      expect(outcomes).toContain(`${backend}/timeout-deaf/completed`);
      expect(outcomes).toContain(`${backend}/retry/completed`);
    }
    expect(summary.retries as number).toBeGreaterThan(0);
    expect((summary.samples as unknown[]).length).toBe(7);
    expect(summary.leakedResources).toEqual({});
    expect(summary.unhandledRejections).toBe(0);
  });
});
