// Every example runs end to end (against the bundled mock server; no API key) and exits 0. They import the
// built package ("agentloop", "agentloop/tools", ...), which `npm test` builds before the tests run.
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const dir = new URL("../examples/", import.meta.url);
const examples = readdirSync(dir).filter((f) => f.endsWith(".mjs") && f !== "run-example.mjs");

describe("examples", () => {
  it("has the documented examples", () => {
    for (const name of [
      "weather",
      "research-assistant",
      "custom-renderer",
      "custom-model",
      "multi-turn-chat",
      "approval",
      "planner",
      "mcp",
      "structured-output",
      "vision",
      "team",
    ]) {
      expect(examples).toContain(`${name}.mjs`);
    }
  });

  it.each(examples)(
    "%s runs and exits 0",
    async (file) => {
      const env = { ...process.env };
      delete env.OPENAI_API_KEY;
      delete env.ANTHROPIC_API_KEY;
      delete env.OPENAI_BASE_URL;
      const { stdout } = await run(process.execPath, [new URL(file, dir).pathname], { env, timeout: 30_000 });
      expect(stdout.length).toBeGreaterThan(0);
    },
    40_000,
  );
});
