import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import { AbortError } from "../../errors/abort-error.js";
import { McpToolError } from "../../errors/mcp-tool-error.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import { ToolRegistry } from "../../tools/tool-registry.js";
import { type McpToolSet, mcpTools } from "./mcp-tools.js";
import { everythingChildren, everythingStdio, isRunning } from "./test-utils/everything-server.js";
import { findTool, settle, toolContext, toolMessages } from "./test-utils/mcp-test-helpers.js";

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

afterAll(() => {
  // Every server this file started has been closed or stopped.
  expect(everythingChildren()).toEqual([]);
});

describe("mcpTools over stdio (server-everything)", () => {
  let set: McpToolSet;
  let pid: number;

  beforeAll(async () => {
    set = await mcpTools({ ...everythingStdio(), prefix: "everything_" });
    pid = set.pid as number;
  });

  afterAll(async () => {
    await set?.close();
  });

  it("lists the server's tools, prefixed, with their descriptions and schemas", () => {
    const names = set.tools.map((candidate) => candidate.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "everything_echo",
        "everything_get-sum",
        "everything_get-env",
        "everything_trigger-long-running-operation",
      ]),
    );
    for (const name of names) expect(name).toMatch(TOOL_NAME);
    const echo = findTool(set, "everything_echo");
    expect(echo.description).toBe("Echoes back the input string");
    expect(echo.jsonSchema).toMatchObject({
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
    });
    expect(echo.jsonSchema.$schema).toBeUndefined();
    expect(findTool(set, "everything_get-env").jsonSchema).toMatchObject({ type: "object", properties: {} });
    expect(set.serverInfo.name).toBe("mcp-servers/everything");
    expect(set.server).toBe("mcp-servers/everything");
    expect(typeof pid).toBe("number");
    expect(isRunning(pid)).toBe(true);
    expect(set.closed).toBe(false);
  });

  it("runs MCP tools for an agent and feeds their results to the model", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "everything_echo", arguments: { message: "hello mcp" } },
          { name: "everything_get-sum", arguments: { a: 2, b: 3 } },
        ],
      },
      { text: "done" },
    ]);
    const result = await new Agent({ model, tools: set.tools }).run("echo and add");
    expect(result.stopReason).not.toBe("error");
    expect(result.text).toBe("done");
    const messages = toolMessages(model, 1);
    expect(
      messages.map(({ toolName, content, isError }) => ({ toolName, content, isError: isError ?? false })),
    ).toEqual([
      { toolName: "everything_echo", content: "Echo: hello mcp", isError: false },
      { toolName: "everything_get-sum", content: "The sum of 2 and 3 is 5.", isError: false },
    ]);
    expect(result.toolCalls.map((call) => call.ok)).toEqual([true, true]);
  });

  it("sends images and binary resources as content parts, the rest as text", async () => {
    const registry = new ToolRegistry({ tools: set.tools });
    const image = await registry.execute("everything_get-tiny-image", {});
    expect(image.ok).toBe(true);
    expect(image.content).toEqual([
      { type: "text", text: "Here's the image you requested:" },
      { type: "image", data: expect.stringMatching(/^iVBORw0KGgo/), mediaType: "image/png" },
      { type: "text", text: "The image above is the MCP logo." },
    ]);
    const png = Buffer.from((image.content[1] as { data: string }).data, "base64");
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");

    const weather = await registry.execute("everything_get-structured-content", { location: "Chicago" });
    expect(weather.ok).toBe(true);
    expect(JSON.parse(weather.content as string)).toEqual({
      temperature: 36,
      conditions: "Light rain / drizzle",
      humidity: 82,
    });

    const text = await registry.execute("everything_get-resource-reference", { resourceId: 2 });
    expect((text.content as string).split("\n")).toEqual([
      "Returning resource reference for Resource 2:",
      expect.stringContaining("Resource 2"),
      "You can access this resource using the URI: demo://resource/dynamic/text/2",
    ]);
    const blob = await registry.execute("everything_get-resource-reference", {
      resourceType: "Blob",
      resourceId: 1,
    });
    expect(blob.content).toEqual([
      { type: "text", text: "Returning resource reference for Resource 1:" },
      { type: "file", data: expect.any(String), mediaType: "text/plain", filename: "1" },
      { type: "text", text: "You can access this resource using the URI: demo://resource/dynamic/blob/1" },
    ]);
    const file = (blob.content as Array<{ data?: string }>)[1]?.data ?? "";
    expect(Buffer.from(file, "base64").toString("utf8")).toContain("Resource 1");

    const links = await registry.execute("everything_get-resource-links", { count: 2 });
    expect(links.content).toContain(
      "[resource link: Blob Resource 1, demo://resource/dynamic/blob/1, text/plain]",
    );
  });

  it("gives the model the server's image in the tool message, and the gzip resource as a file", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "everything_get-tiny-image", arguments: {} },
          {
            name: "everything_gzip-file-as-resource",
            arguments: {
              name: "hello.txt.gz",
              data: "data:text/plain;base64,aGVsbG8=",
              outputType: "resource",
            },
          },
        ],
      },
      { text: "done" },
    ]);
    const result = await new Agent({ model, tools: set.tools }).run("look");
    expect(result.text).toBe("done");
    const [image, gzip] = toolMessages(model, 1);
    expect(image?.content).toEqual([
      { type: "text", text: "Here's the image you requested:" },
      { type: "image", data: expect.stringMatching(/^iVBORw0KGgo/), mediaType: "image/png" },
      { type: "text", text: "The image above is the MCP logo." },
    ]);
    expect(gzip?.content).toEqual([
      { type: "file", data: expect.any(String), mediaType: "application/gzip", filename: "hello.txt.gz" },
    ]);
    const gzipParts = (gzip?.content ?? []) as Array<{ data?: string }>;
    const gz = Buffer.from(gzipParts[0]?.data ?? "", "base64");
    expect(gunzipSync(gz).toString("utf8")).toBe("hello");
    // The observation (what logs and renderers show) names the image; it never holds its data.
    const observed = result.toolCalls.map((call) => call.result);
    expect(observed[0]).toMatch(/^Here's the image you requested:\n\[image image\/png, \d+(\.\d)? [KB]+\]\n/);
    expect(observed[1]).toMatch(/^\[file hello\.txt\.gz, application\/gzip, \d+ B\]$/);
  });

  it("throws isError results as McpToolError, which the model receives as a failed tool call", async () => {
    const reference = findTool(set, "everything_get-resource-reference");
    const thrown = await settle(reference.execute({ resourceId: 0 }, toolContext()));
    expect(McpToolError.isInstance(thrown.error)).toBe(true);
    expect(thrown.error).toMatchObject({
      name: "McpToolError",
      toolName: "get-resource-reference",
      server: "mcp-servers/everything",
      code: undefined,
    });
    expect((thrown.error as Error).message).toContain(
      "Invalid resourceId: 0. Must be a finite positive integer.",
    );

    const model = new ScriptedModel([
      { toolCalls: [{ name: "everything_get-resource-reference", arguments: { resourceId: 0 } }] },
      { text: "sorry" },
    ]);
    const result = await new Agent({ model, tools: set.tools }).run("fetch resource 0");
    const [message] = toolMessages(model, 1);
    expect(message?.isError).toBe(true);
    expect(message?.content).toContain("McpToolError");
    expect(message?.content).toContain("Invalid resourceId: 0");
    expect(result.toolCalls[0]?.ok).toBe(false);
    const observation = result.events.find((event) => event.type === "observation");
    expect(observation?.data).toMatchObject({ ok: false, error: { type: "ToolExecutionError" } });
  });

  it("reports arguments that break the server's schema before calling it", async () => {
    const outcome = await new ToolRegistry({ tools: set.tools }).execute("everything_echo", { message: 5 });
    expect(outcome.ok).toBe(false);
    expect(outcome.error?.type).toBe("ToolArgumentsError");
  });

  it("cancels the MCP request when the agentloop tool times out", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "everything_trigger-long-running-operation", arguments: { duration: 5, steps: 5 } },
        ],
      },
      { toolCalls: [{ name: "everything_echo", arguments: { message: "still here" } }] },
      { text: "ok" },
    ]);
    const started = performance.now();
    const result = await new Agent({ model, tools: set.tools, toolTimeoutMs: 300 }).run("long");
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.toolCalls.map((call) => call.ok)).toEqual([false, true]);
    expect(toolMessages(model, 1)[0]?.content).toMatch(/timed out after 300 ms/);
    expect(toolMessages(model, 2)[1]?.content).toBe("Echo: still here");

    // The tool's signal reaches the SDK request: aborting it settles the call at once, not after 5 s.
    const controller = new AbortController();
    const long = findTool(set, "everything_trigger-long-running-operation");
    const call = Promise.resolve(long.execute({ duration: 5, steps: 5 }, toolContext(controller.signal)));
    setTimeout(() => controller.abort(new Error("stop")), 100);
    const aborted = await settle(call);
    expect(AbortError.isInstance(aborted.error)).toBe(true);
    expect(aborted.ms).toBeLessThan(1_000);
    expect(set.closed).toBe(false);
  });

  it("passes a per-server timeoutMs to the tools and to the MCP request", async () => {
    const quick = await mcpTools({
      ...everythingStdio(),
      timeoutMs: 250,
      include: ["trigger-long-running-operation"],
    });
    try {
      const [long] = quick.tools;
      expect(long?.timeoutMs).toBe(250);
      const outcome = await new ToolRegistry({ tools: quick.tools }).execute(
        "trigger-long-running-operation",
        {
          duration: 3,
          steps: 3,
        },
      );
      expect(outcome.ok).toBe(false);
      expect(outcome.error?.type).toMatch(/ToolTimeoutError|ToolExecutionError/);
    } finally {
      await quick.close();
    }
  });
});
