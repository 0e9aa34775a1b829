import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import { AbortError } from "../../errors/abort-error.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { McpConnectionError } from "../../errors/mcp-connection-error.js";
import { McpToolError } from "../../errors/mcp-tool-error.js";
import type { ToolMessage } from "../../models/message.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import { McpRegistry } from "./mcp-registry.js";
import type { McpToolSet } from "./mcp-tools.js";
import {
  everythingChildren,
  everythingStdio,
  type HttpEverythingServer,
  isRunning,
  startHttpEverything,
  waitForExit,
} from "./test-utils/everything-server.js";

describe("McpRegistry with a stdio and a Streamable HTTP server", () => {
  let server: HttpEverythingServer;
  const registry = new McpRegistry();
  let local: McpToolSet;
  let remote: McpToolSet;

  beforeAll(async () => {
    server = await startHttpEverything();
    [local, remote] = await Promise.all([
      registry.add("local", everythingStdio()),
      registry.add("remote", { url: server.url }),
    ]);
  });

  afterAll(async () => {
    await registry.close();
    await server?.stop();
    expect(everythingChildren()).toEqual([]);
  });

  it("prefixes each server's tools with its name, so the same tools do not clash", () => {
    const names = registry.tools().map((candidate) => candidate.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(["local_echo", "local_get-sum", "remote_echo", "remote_get-sum"]),
    );
    expect(names.filter((name) => name.startsWith("local_"))).toHaveLength(local.tools.length);
    expect(names.filter((name) => name.startsWith("remote_"))).toHaveLength(remote.tools.length);
    expect(registry.servers()).toEqual(["local", "remote"]);
    expect(local.server).toBe("local");
  });

  it("describes every tool with its server", () => {
    const described = registry.describe();
    expect(described).toHaveLength(registry.tools().length);
    expect(described).toContainEqual({
      server: "local",
      name: "local_echo",
      description: "Echoes back the input string",
    });
    expect(described).toContainEqual({
      server: "remote",
      name: "remote_get-sum",
      description: "Returns the sum of two numbers",
    });
  });

  it("calls tools directly by their prefixed name", async () => {
    await expect(registry.call("local_echo", { message: "direct" })).resolves.toBe("Echo: direct");
    await expect(registry.call("remote_get-sum", { a: 1, b: 2 })).resolves.toBe("The sum of 1 and 2 is 3.");
    await expect(registry.call("remote_get-env")).resolves.toMatch(/^\{/);
  });

  it("throws McpToolError for failures, InvalidArgumentError for unknown tools, AbortError on abort", async () => {
    const failed = registry.call("local_get-resource-reference", { resourceId: 0 });
    await expect(failed).rejects.toSatisfy(
      (error) =>
        McpToolError.isInstance(error) &&
        error.server === "local" &&
        error.toolName === "get-resource-reference",
    );
    await expect(failed).rejects.toThrow(
      'MCP tool "get-resource-reference" on server "local" failed: Invalid resourceId: 0',
    );
    // The server validates what the registry passes through.
    await expect(registry.call("remote_echo", { message: 5 })).rejects.toThrow(/Input validation error/);
    await expect(registry.call("echo", {})).rejects.toSatisfy((error) =>
      InvalidArgumentError.isInstance(error),
    );
    await expect(registry.call("local_echo", [] as never)).rejects.toSatisfy((error) =>
      InvalidArgumentError.isInstance(error),
    );
    const controller = new AbortController();
    const long = registry.call(
      "remote_trigger-long-running-operation",
      { duration: 5 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(long).rejects.toSatisfy((error) => AbortError.isInstance(error));
  });

  it("gives an agent the tools of both servers", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "local_echo", arguments: { message: "from stdio" } },
          { name: "remote_echo", arguments: { message: "from http" } },
        ],
      },
      { text: "both answered" },
    ]);
    const result = await new Agent({ model, tools: registry.tools() }).run("echo twice");
    expect(result.text).toBe("both answered");
    const messages = model.calls[1]?.request.messages.filter(
      (message): message is ToolMessage => message.role === "tool",
    );
    expect(messages?.map((message) => message.content)).toEqual(["Echo: from stdio", "Echo: from http"]);
  });

  it("rejects a taken server name and clashing tool names (closing the new server)", async () => {
    await expect(registry.add("local", everythingStdio())).rejects.toThrow(
      /a server named "local" is already added/,
    );
    const before = everythingChildren();
    const clash = registry.add("again", {
      ...everythingStdio(),
      prefix: "local_",
      onStderr: () => undefined,
    });
    await expect(clash).rejects.toSatisfy(
      (error) =>
        InvalidArgumentError.isInstance(error) && /clashes with one of server "local"/.test(error.message),
    );
    expect(registry.servers()).toEqual(["local", "remote"]);
    expect(everythingChildren()).toEqual(before);
    // The name is free again after the failed add.
    const again = await registry.add("again", { ...everythingStdio(), include: ["echo"] });
    expect(again.tools.map((candidate) => candidate.name)).toEqual(["again_echo"]);
    await expect(registry.call("again_echo", { message: "x" })).resolves.toBe("Echo: x");
  });

  it("close() during an add closes the server being added", async () => {
    const extra = new McpRegistry();
    const before = everythingChildren();
    const adding = extra.add("late", everythingStdio());
    await extra.close();
    await expect(adding).rejects.toThrow(/the registry was closed while "late" connected/);
    expect(extra.servers()).toEqual([]);
    expect(everythingChildren()).toEqual(before);
  });

  it("close() closes every server", async () => {
    const extra = new McpRegistry();
    const stdio = await extra.add("a", everythingStdio());
    const http = await extra.add("b", { url: server.url, prefix: "" });
    const pid = stdio.pid as number;
    expect(isRunning(pid)).toBe(true);
    await extra.close();
    expect(stdio.closed).toBe(true);
    expect(http.closed).toBe(true);
    expect(await waitForExit(pid)).toBe(true);
    expect(extra.tools()).toEqual([]);
    const [echo] = stdio.tools.filter((candidate) => candidate.name === "a_echo");
    await expect(
      Promise.resolve(
        echo?.execute({ message: "x" }, { signal: new AbortController().signal, toolCallId: "c", turn: 0 }),
      ),
    ).rejects.toSatisfy((error) => McpConnectionError.isInstance(error));
  });
});
