import { afterAll, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { McpConnectionError } from "../../errors/mcp-connection-error.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import { mcpTools } from "./mcp-tools.js";
import { everythingChildren, everythingStdio, waitForExit } from "./test-utils/everything-server.js";
import { findTool, settle, toolContext, toolMessages } from "./test-utils/mcp-test-helpers.js";

afterAll(() => {
  // Every server this file started has been closed or stopped.
  expect(everythingChildren()).toEqual([]);
});

describe("mcpTools over stdio: options and lifecycle", () => {
  it("filters with include/exclude and sanitises prefixed names", async () => {
    const set = await mcpTools({
      ...everythingStdio(),
      prefix: "my.server:",
      include: ["echo", "get-sum", "get-env"],
    });
    try {
      expect(set.tools.map((candidate) => candidate.name)).toEqual([
        "my_server_echo",
        "my_server_get-env",
        "my_server_get-sum",
      ]);
    } finally {
      await set.close();
    }
    const rest = await mcpTools({ ...everythingStdio(), exclude: ["echo"], name: "agentloop-test" });
    try {
      const names = rest.tools.map((candidate) => candidate.name);
      expect(names).not.toContain("echo");
      expect(names).toContain("get-sum");
    } finally {
      await rest.close();
    }
  });

  it("rejects an include name the server lacks, and invalid options before starting anything", async () => {
    await expect(mcpTools({ ...everythingStdio(), include: ["echo", "nope"] })).rejects.toSatisfy(
      (error) =>
        InvalidArgumentError.isInstance(error) && /no tool named "nope"/.test((error as Error).message),
    );
    const invalid = [
      {},
      { command: "node", url: "http://localhost/mcp" },
      { command: "" },
      { command: "node", timeoutMs: 0 },
      { command: "node", include: "echo" },
      { url: "ftp://example.com" },
      { url: "not a url" },
    ];
    for (const options of invalid) {
      await expect(mcpTools(options as never)).rejects.toSatisfy((error) =>
        InvalidArgumentError.isInstance(error),
      );
    }
  });

  it("fails to connect with McpConnectionError, quoting the server's stderr", async () => {
    const exiting = mcpTools({
      command: process.execPath,
      args: ["-e", "console.error('boom: no config'); process.exit(3)"],
    });
    await expect(exiting).rejects.toSatisfy((error) => McpConnectionError.isInstance(error));
    await expect(exiting).rejects.toThrow(
      /Could not connect to MCP server .*: the server process exited \(stderr: boom: no config\)$/,
    );
    await expect(mcpTools({ ...everythingStdio(), connectTimeoutMs: 1 })).rejects.toThrow(
      /Could not connect to MCP server node index.js: no answer to the handshake within 1 ms/,
    );
    await expect(mcpTools({ command: "/nonexistent/mcp-server" })).rejects.toSatisfy(
      (error) => McpConnectionError.isInstance(error) && /ENOENT/.test((error as Error).message),
    );
  });

  it("fails pending and later calls promptly when the server process dies", async () => {
    const set = await mcpTools({ ...everythingStdio(), prefix: "doomed_" });
    const pid = set.pid as number;
    try {
      const long = findTool(set, "doomed_trigger-long-running-operation");
      const pending = settle(long.execute({ duration: 10, steps: 10 }, toolContext()));
      await new Promise((resolve) => setTimeout(resolve, 200));
      process.kill(pid, "SIGKILL");
      const { error, ms } = await pending;
      expect(ms).toBeLessThan(2_000);
      expect(McpConnectionError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /^MCP server mcp-servers\/everything closed: the server process exited/,
      );
      expect(set.closed).toBe(true);

      const later = await settle(
        Promise.resolve(findTool(set, "doomed_echo").execute({ message: "hi" }, toolContext())),
      );
      expect(later.error).toBe(error);
      expect(later.ms).toBeLessThan(50);

      const model = new ScriptedModel([
        { toolCalls: [{ name: "doomed_echo", arguments: { message: "anyone?" } }] },
        { text: "the server is gone" },
      ]);
      const result = await new Agent({ model, tools: set.tools }).run("echo");
      expect(result.text).toBe("the server is gone");
      expect(toolMessages(model, 1)[0]).toMatchObject({ isError: true });
      expect(toolMessages(model, 1)[0]?.content).toMatch(/McpConnectionError: MCP server .* closed/);
    } finally {
      await set.close();
    }
    expect(await waitForExit(pid)).toBe(true);
  });

  it("kills the server mid-run of an agent: the model gets the error, not a hang", async () => {
    const set = await mcpTools({ ...everythingStdio() });
    const pid = set.pid as number;
    try {
      const model = new ScriptedModel([
        { toolCalls: [{ name: "trigger-long-running-operation", arguments: { duration: 10, steps: 10 } }] },
        { text: "gave up" },
      ]);
      setTimeout(() => process.kill(pid, "SIGKILL"), 200);
      const started = performance.now();
      const result = await new Agent({ model, tools: set.tools }).run("long");
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(result.text).toBe("gave up");
      expect(toolMessages(model, 1)[0]?.content).toMatch(/McpConnectionError: MCP server .* closed/);
    } finally {
      await set.close();
    }
  });

  it("close() stops the server; later calls fail at once", async () => {
    const set = await mcpTools({ ...everythingStdio() });
    const pid = set.pid as number;
    const started = performance.now();
    await set.close();
    await set.close();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await waitForExit(pid)).toBe(true);
    expect(set.closed).toBe(true);
    const later = await settle(findTool(set, "echo").execute({ message: "hi" }, toolContext()));
    expect(McpConnectionError.isInstance(later.error)).toBe(true);
    expect((later.error as Error).message).toBe(
      "MCP server mcp-servers/everything closed: closed by the client",
    );
    expect(later.ms).toBeLessThan(50);
  });
});
