import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { transformSync } from "esbuild";
import { describe, expect, it, vi } from "vitest";
import { setDeadline } from "./deadline.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("setDeadline", () => {
  it("fires each live deadline once, in deadline order, and never a cancelled one", async () => {
    const fired: string[] = [];
    setDeadline({ ms: 60, onExpire: () => fired.push("c") });
    setDeadline({ ms: 20, onExpire: () => fired.push("a") });
    const cancelled = setDeadline({ ms: 30, onExpire: () => fired.push("x") });
    setDeadline({ ms: 40, onExpire: () => fired.push("b") });
    cancelled.cancel();
    cancelled.cancel();
    await wait(30);
    expect(fired).toEqual(["a"]);
    await wait(60);
    expect(fired).toEqual(["a", "b", "c"]);
  });

  it("re-arms for an earlier deadline set after a later one", async () => {
    const fired: number[] = [];
    const started = Date.now();
    setDeadline({ ms: 1_000, onExpire: () => fired.push(1_000) }).cancel();
    setDeadline({ ms: 500, onExpire: () => fired.push(500) });
    setDeadline({ ms: 10, onExpire: () => fired.push(Date.now() - started) });
    await wait(50);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toBeLessThan(45);
  });

  it("keeps many cancelled deadlines from piling up, and still fires the live ones", async () => {
    const fired: number[] = [];
    for (let i = 0; i < 20_000; i++) setDeadline({ ms: 60_000, onExpire: () => fired.push(i) }).cancel();
    setDeadline({ ms: 5, onExpire: () => fired.push(-1) });
    await wait(30);
    expect(fired).toEqual([-1]);
  });

  it("works under fake timers set up before its first deadline (tests that advance time)", async () => {
    vi.resetModules();
    vi.useFakeTimers();
    try {
      const fresh = await import("./deadline.js");
      const fired: string[] = [];
      fresh.setDeadline({ ms: 30_000, onExpire: () => fired.push("tool timeout") });
      vi.advanceTimersByTime(29_999);
      expect(fired).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(fired).toEqual(["tool timeout"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("holds the process open while a deadline is live, and not after it is cancelled", () => {
    // The module compiled to plain JavaScript (it imports nothing), run in a child process.
    const dir = mkdtempSync(join(tmpdir(), "agentloop-deadline-"));
    const source = readFileSync(new URL("./deadline.ts", import.meta.url), "utf8");
    writeFileSync(join(dir, "deadline.mjs"), transformSync(source, { loader: "ts", format: "esm" }).code);
    const run = (cancel: boolean) => {
      const script = `import { setDeadline } from "./deadline.mjs";
        const started = Date.now();
        const d = setDeadline({ ms: 400, onExpire: () => console.log("fired", Date.now() - started) });
        ${cancel ? "d.cancel();" : ""}
        process.on("exit", () => console.log("exit", Date.now() - started));`;
      writeFileSync(join(dir, "main.mjs"), script);
      return spawnSync(process.execPath, [join(dir, "main.mjs")], { encoding: "utf8", timeout: 10_000 });
    };
    try {
      const live = run(false);
      expect(live.stdout).toMatch(/^fired \d+\nexit \d+\n$/);
      expect(Number(/fired (\d+)/.exec(live.stdout)?.[1])).toBeGreaterThanOrEqual(399);
      const cancelled = run(true);
      expect(cancelled.stdout).toMatch(/^exit \d+\n$/);
      expect(Number(/exit (\d+)/.exec(cancelled.stdout)?.[1])).toBeLessThan(300);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
