import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { ToolMessage } from "../../models/message.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import type { McpStdioOptions } from "./mcp-options.js";
import { McpRegistry } from "./mcp-registry.js";
import { type McpToolSet, mcpTools } from "./mcp-tools.js";
import { waitForExit } from "./test-utils/everything-server.js";

// A real MCP server in its own process whose tool schemas use `$ref` (draft-07 `definitions`), `allOf` and
// `format`: agentloop must check calls against the whole schema before anything reaches the server.

const SERVER = fileURLToPath(new URL("./test-utils/ref-schema-server.mjs", import.meta.url));

function refServer(...flags: string[]): McpStdioOptions {
  return { command: process.execPath, args: [SERVER, ...flags], stderr: "pipe" };
}

/** The pids of this process's children that run the test server. */
function refServerChildren(): number[] {
  const output = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], {
    encoding: "utf8",
  });
  return output
    .split("\n")
    .filter((line) => line.includes("ref-schema-server"))
    .map((line) => Number.parseInt(line.trim(), 10));
}

const validBooking = {
  email: "ada@example.com",
  at: "2024-01-31T09:30:00Z",
  where: { city: "Paris" },
  guests: 2,
};

describe("MCP tools whose input schema uses $ref", () => {
  let set: McpToolSet;

  beforeAll(async () => {
    set = await mcpTools(refServer());
  });
  afterAll(async () => {
    await set?.close();
  });

  it("keeps the server's schema (definitions and $ref) for the model", () => {
    const book = set.tools.find((candidate) => candidate.name === "book");
    expect(book?.jsonSchema.definitions).toMatchObject({ address: { required: ["city"] } });
    expect(book?.jsonSchema.properties).toMatchObject({ where: { $ref: "#/definitions/address" } });
  });

  it("refuses arguments that break the referenced schema, allOf or a format, before the server sees them", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          {
            id: "bad",
            name: "book",
            arguments: { email: "ada", at: "tomorrow", where: { city: 75001, floor: 2 }, guests: 9 },
          },
          { id: "good", name: "book", arguments: validBooking },
        ],
      },
      { text: "Booked." },
    ]);
    const result = await new Agent({ model, tools: set.tools }).run("Book a visit");
    expect(result.stopReason).toBe("completed");
    const [bad, good] = result.messages.filter((message): message is ToolMessage => message.role === "tool");
    expect(bad?.isError).toBe(true);
    expect(bad?.content).toContain('at "email": expected an email address (format "email"), received "ada"');
    expect(bad?.content).toContain('at "at": expected a date-time such as 2024-01-31T09:30:00Z');
    expect(bad?.content).toContain('at "where.city": expected string, received number');
    expect(bad?.content).toContain(
      'at "where": expected only the declared properties, received unknown property "floor"',
    );
    expect(bad?.content).toContain('at "guests": expected number <= 8, received 9');
    expect(good?.isError ?? false).toBe(false);
    expect(JSON.parse(String(good?.content ?? "null"))).toEqual(validBooking);
  });
});

describe("MCP tools whose input schema cannot be checked", () => {
  it("are refused by name, with the way out, and the server is stopped", async () => {
    const connecting = mcpTools(refServer("--remote-ref"));
    await expect(connecting).rejects.toThrow(InvalidArgumentError);
    await expect(connecting).rejects.toThrow(
      /MCP tool "lookup" of server "ref-schema" has an input schema agentloop cannot check .*https:\/\/example\.com\/schemas\/id\.json.*leave it out with `exclude`/,
    );
    const stopped = await Promise.all(refServerChildren().map((pid) => waitForExit(pid)));
    expect(stopped.every(Boolean)).toBe(true);
    const rest = await mcpTools({ ...refServer("--remote-ref"), exclude: ["lookup"] });
    try {
      expect(rest.tools.map((candidate) => candidate.name)).toEqual(["book"]);
    } finally {
      await rest.close();
    }
  });
});

describe("McpRegistry applies the registry's secret check to MCP tools", () => {
  const registry = new McpRegistry();
  afterAll(async () => {
    await registry.close();
  });

  it("refuses a server whose tool description holds a key: it is not listed, described or callable", async () => {
    const refused = registry.add("leaky", refServer("--leaky"));
    await expect(refused).rejects.toThrow(InvalidArgumentError);
    await expect(refused).rejects.toThrow(
      /tool "leaky_search" has what looks like an API key \(api_key\) in its description/,
    );
    await expect(refused).rejects.toThrow(/leave it out with `exclude`/);
    await expect(refused).rejects.not.toThrow(/Abc123def456/);
    expect(registry.servers()).toEqual([]);
    expect(registry.describe()).toEqual([]);
    await expect(registry.call("leaky_search", { q: "x" })).rejects.toThrow(
      /no MCP tool named "leaky_search"/,
    );
    const stopped = await Promise.all(refServerChildren().map((pid) => waitForExit(pid)));
    expect(stopped.every(Boolean)).toBe(true);
  });

  it("adds the same server with the tool left out, and calls its other tools", async () => {
    await registry.add("clean", { ...refServer("--leaky"), exclude: ["search"] });
    expect(registry.describe().map((entry) => entry.name)).toEqual(["clean_book"]);
    expect(JSON.parse(await registry.call("clean_book", validBooking))).toEqual(validBooking);
  });
});
