import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import { AbortError } from "../../errors/abort-error.js";
import { McpConnectionError } from "../../errors/mcp-connection-error.js";
import { McpToolError } from "../../errors/mcp-tool-error.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import { type McpToolSet, mcpTools } from "./mcp-tools.js";
import {
  everythingChildren,
  freePort,
  type HttpEverythingServer,
  startHttpEverything,
} from "./test-utils/everything-server.js";
import { findTool, settle, toolContext, toolMessages } from "./test-utils/mcp-test-helpers.js";

afterAll(() => {
  // Every server this file started has been closed or stopped.
  expect(everythingChildren()).toEqual([]);
});

describe("mcpTools over Streamable HTTP (server-everything)", () => {
  let server: HttpEverythingServer;
  let set: McpToolSet;

  beforeAll(async () => {
    server = await startHttpEverything();
    set = await mcpTools({ url: server.url, prefix: "remote_", headers: { "X-Agentloop-Test": "1" } });
  });

  afterAll(async () => {
    await set?.close();
    await server?.stop();
  });

  it("lists the server's tools, prefixed", () => {
    const names = set.tools.map((candidate) => candidate.name);
    expect(names).toEqual(
      expect.arrayContaining(["remote_echo", "remote_get-sum", "remote_trigger-long-running-operation"]),
    );
    expect(set.serverInfo).toMatchObject({ name: "mcp-servers/everything" });
    expect(set.pid).toBeUndefined();
  });

  it("runs MCP tools for an agent and feeds their results to the model", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "remote_echo", arguments: { message: "over http" } },
          { name: "remote_get-sum", arguments: { a: 40, b: 2 } },
        ],
      },
      { toolCalls: [{ name: "remote_get-resource-reference", arguments: { resourceId: 0 } }] },
      { text: "done" },
    ]);
    const result = await new Agent({ model, tools: set.tools }).run("echo and add");
    expect(result.text).toBe("done");
    expect(toolMessages(model, 1).map((message) => message.content)).toEqual([
      "Echo: over http",
      "The sum of 40 and 2 is 42.",
    ]);
    const [, , failed] = toolMessages(model, 2);
    expect(failed?.isError).toBe(true);
    expect(failed?.content).toMatch(/McpToolError: .*Invalid resourceId: 0/);
    expect(result.toolCalls.map((call) => call.ok)).toEqual([true, true, false]);
  });

  it("cancels the MCP request on abort and on an agentloop timeout", async () => {
    const controller = new AbortController();
    const long = findTool(set, "remote_trigger-long-running-operation");
    const call = settle(long.execute({ duration: 5, steps: 5 }, toolContext(controller.signal)));
    setTimeout(() => controller.abort(new Error("stop")), 100);
    const { error, ms } = await call;
    expect(AbortError.isInstance(error)).toBe(true);
    expect(ms).toBeLessThan(1_000);

    const model = new ScriptedModel([
      {
        toolCalls: [{ name: "remote_trigger-long-running-operation", arguments: { duration: 5, steps: 5 } }],
      },
      { toolCalls: [{ name: "remote_echo", arguments: { message: "still here" } }] },
      { text: "ok" },
    ]);
    const result = await new Agent({ model, tools: set.tools, toolTimeoutMs: 300 }).run("long");
    expect(result.toolCalls.map((record) => record.ok)).toEqual([false, true]);
    expect(toolMessages(model, 1)[0]?.content).toMatch(/timed out after 300 ms/);
    expect(set.closed).toBe(false);
  });
});

describe("mcpTools over Streamable HTTP: a server that goes away", () => {
  const servers: HttpEverythingServer[] = [];
  const sets: McpToolSet[] = [];

  afterEach(async () => {
    await Promise.all(sets.splice(0).map((set) => set.close()));
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  });

  it("fails the pending call promptly and later calls at once when the server dies", async () => {
    const server = await startHttpEverything();
    servers.push(server);
    const set = await mcpTools({ url: server.url });
    sets.push(set);
    const pending = settle(
      findTool(set, "trigger-long-running-operation").execute({ duration: 10, steps: 10 }, toolContext()),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill("SIGKILL");
    const { error, ms } = await pending;
    expect(ms).toBeLessThan(2_000);
    expect(McpConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^MCP server mcp-servers\/everything closed: the server stopped answering/,
    );
    expect(set.closed).toBe(true);

    const later = await settle(findTool(set, "echo").execute({ message: "hi" }, toolContext()));
    expect(later.error).toBe(error);
    expect(later.ms).toBeLessThan(50);
  });

  it("turns a first call to a dead server into McpConnectionError, then fails at once", async () => {
    const server = await startHttpEverything();
    servers.push(server);
    const set = await mcpTools({ url: server.url });
    sets.push(set);
    await server.stop();
    const first = await settle(findTool(set, "echo").execute({ message: "hi" }, toolContext()));
    expect(McpConnectionError.isInstance(first.error)).toBe(true);
    expect(first.ms).toBeLessThan(2_000);
    const second = await settle(findTool(set, "echo").execute({ message: "hi" }, toolContext()));
    expect(second.error).toBe(first.error);
    expect(second.ms).toBeLessThan(50);
  });

  it("cannot connect to a port nobody listens on", async () => {
    const port = await freePort();
    const connecting = mcpTools({ url: `http://127.0.0.1:${port}/mcp` });
    await expect(connecting).rejects.toSatisfy((error) => McpConnectionError.isInstance(error));
    await expect(connecting).rejects.toThrow(`Could not connect to MCP server 127.0.0.1:${port}`);
  });

  it("reports server-side failures of a live server as McpToolError", async () => {
    const server = await startHttpEverything();
    servers.push(server);
    const set = await mcpTools({ url: server.url, timeoutMs: 200 });
    sets.push(set);
    const long = findTool(set, "trigger-long-running-operation");
    // Called directly (no executor timer): the MCP request timeout fires.
    const { error } = await settle(long.execute({ duration: 2, steps: 2 }, toolContext()));
    expect(McpToolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: -32001, toolName: "trigger-long-running-operation" });
    expect((error as Error).message).toMatch(/timed out/);
    expect(set.closed).toBe(false);
  });
});
