import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { saveTrace } from "../trace/trace-file.js";
import { runCli } from "./test-utils/run-cli.js";
import { subAgentTrace } from "./test-utils/sub-agent-trace.js";
import { linesOf, useCliTestEnv } from "./test-utils/use-cli-test-env.js";

// `agentloop trace show` (the built CLI, as a process) on the saved trace of a run with sub-agents.

const { workdir } = useCliTestEnv();

describe("agentloop trace show: a run with sub-agents", () => {
  it("shows the sub-agents' events indented after their paths, and verifies the trace", async () => {
    const cwd = await workdir("trace-sub-agents");
    await saveTrace({ trace: await subAgentTrace(), path: join(cwd, "team.jsonl") });
    const show = await runCli({ args: ["trace", "show", "--no-color", "team.jsonl"], cwd });
    expect(show.code, show.stderr).toBe(0);
    const lines = linesOf(show.stdout);
    expect(lines).toContainEqual(
      expect.stringMatching(/turn 1 {2}action {11}research\(\{"input":"population/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/turn 0 {4}lead\/researcher › loop_start {7}task "population of Paris"$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/turn 1 {6}lead\/researcher\/fetcher › text_delta {7}"page"$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /turn 2 {4}lead\/researcher › loop_end {9}completed · "Paris has 2\.1M people\."$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/turn 2 {2}loop_end {9}completed · "About 2\.1 million\."$/),
    );
    expect(lines.at(-1)).toBe("verified: ok");
  });
});
