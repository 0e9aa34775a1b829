import { describe, expect, it } from "vitest";
import { ensureCliBuilt } from "../cli/test-utils/ensure-cli-built.js";
import { runCli, startCli } from "../cli/test-utils/run-cli.js";
import { parseDevArgs } from "./dev-command.js";
import { withTempDirs } from "./test-utils/dev-test-server.js";

const tempDir = withTempDirs();

describe("agentloop dev: arguments", () => {
  it("reads the agent file and the options", () => {
    expect(parseDevArgs({ args: ["agent.mjs", "--port", "4310", "--memory", "--no-watch"] })).toEqual({
      file: "agent.mjs",
      host: "127.0.0.1",
      port: 4310,
      dir: ".agentloop/dev",
      memory: true,
      watch: false,
      help: false,
    });
    expect(parseDevArgs({ args: [] })).toMatchObject({ file: undefined, port: 0 });
  });

  it("refuses bad ports, unknown options and two files (usage errors)", () => {
    for (const args of [["--port", "http"], ["--port", "70000"], ["--bogus"], ["a.mjs", "b.mjs"]]) {
      expect(() => parseDevArgs({ args }), args.join(" ")).toThrow(expect.objectContaining({ exitCode: 2 }));
    }
  });
});

describe("agentloop dev: the process", () => {
  it("prints help, and refuses a missing agent file (exit 2)", async () => {
    await ensureCliBuilt();
    const help = await runCli({ args: ["dev", "--help"] });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: agentloop dev [agent-file] [options]");
    expect((await runCli({ args: ["--help"] })).stdout).toContain("agentloop dev [agent-file]");
    const missing = await runCli({ args: ["dev", "nope.mjs"], cwd: await tempDir() });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("agentloop: error: cannot read nope.mjs: no such file\n");
  }, 60_000);

  it("serves the demo agent on 127.0.0.1 until Ctrl-C, with the token in the printed URL", async () => {
    await ensureCliBuilt();
    const cwd = await tempDir();
    const cli = startCli({ args: ["dev", "--dir", "state"], cwd });
    try {
      await cli.waitFor(/open http:\/\/127\.0\.0\.1:\d+\/#token=\S+/, 20_000);
      const [, origin, token] = /open (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/.exec(
        cli.stdout(),
      ) as unknown as [string, string, string];
      expect(cli.stderr()).toContain(
        "demo agent: the answers come from agentloop's bundled mock OpenAI server",
      );
      expect(cli.stderr()).toContain(`sessions, runs and traces: ${cwd}/state`);
      expect((await fetch(`${origin}/api/info`)).status).toBe(401);
      const response = await fetch(`${origin}/api/runs`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-agentloop-token": token },
        body: JSON.stringify({ input: "What is 12 * 3?", sessionId: "cli" }),
      });
      const text = await response.text();
      expect(text).toContain("event: result");
      expect(text).toContain("12 * 3 = 36");
    } finally {
      cli.child.kill("SIGINT");
    }
    const outcome = await cli.done;
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toContain("agentloop dev: stopping");
  }, 60_000);
});
