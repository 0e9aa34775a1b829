// node examples/mcp.mjs (after npm run build) — an agent using the tools of an MCP server.
// It starts the reference MCP server (@modelcontextprotocol/server-everything) over stdio — the copy in
// node_modules when there is one, else through npx — and hands its tools to an agent. The model is a
// ScriptedModel standing in for an LLM: it calls the MCP tools and reads their results like a model would.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Agent } from "agentloop";
import { McpRegistry } from "agentloop/mcp";
import { ScriptedModel } from "agentloop/testing";

const local = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const server = existsSync(local)
  ? { command: process.execPath, args: [local, "stdio"] }
  : { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything", "stdio"] };

const mcp = new McpRegistry();
const everything = await mcp.add("everything", server); // tools are named everything_<tool>
console.log(
  `Connected to ${everything.serverInfo.name} ${everything.serverInfo.version} (pid ${everything.pid}): ` +
    `${everything.tools.length} tools`,
);
for (const { name, description } of mcp.describe()) console.log(`  - ${name}: ${description.slice(0, 70)}`);

/** The scripted model: one step per turn, reading the tool results in the request. */
function scriptedTurn(request, turn) {
  const results = request.messages.filter((m) => m.role === "tool").map((m) => m.content);
  switch (turn) {
    case 0:
      return {
        text: "Let me echo the greeting and add the numbers.",
        toolCalls: [
          { name: "everything_echo", arguments: { message: "Hello, MCP!" } },
          { name: "everything_get-sum", arguments: { a: 19, b: 23 } },
        ],
      };
    case 1:
      return {
        toolCalls: [
          { name: "everything_get-structured-content", arguments: { location: "Chicago" } },
          { name: "everything_get-tiny-image", arguments: {} },
        ],
      };
    case 2: // A failing call: the server's error comes back as a tool error the model can read.
      return { toolCalls: [{ name: "everything_get-resource-reference", arguments: { resourceId: 0 } }] };
    default: {
      const weather = JSON.parse(results[2]);
      return {
        text:
          `${results[0]} — ${results[1]} Chicago: ${weather.temperature}°, ${weather.conditions}. ` +
          "Resource 0 does not exist.",
      };
    }
  }
}

const agent = new Agent({
  model: new ScriptedModel(scriptedTurn),
  tools: mcp.tools(),
  system: "You use the tools of the everything MCP server.",
  toolTimeoutMs: 10_000,
});

const task =
  "Echo a greeting, add 19 and 23, get the weather in Chicago and the tiny image, then fetch resource 0.";
console.log(`\nTask: ${task}\n`);
let result;
try {
  const stream = agent.stream(task);
  for await (const event of stream) {
    const d = event.data;
    switch (event.type) {
      case "thought":
        console.log(`  [${event.turn}] thought: ${d.content}`);
        break;
      case "action":
        console.log(`  [${event.turn}] → ${d.toolName}(${JSON.stringify(d.arguments)})`);
        break;
      case "observation":
        console.log(
          `  [${event.turn}] ← ${d.toolName}: ${d.ok ? "" : "FAILED "}${d.result.replaceAll("\n", " | ")} (${d.durationMs} ms)`,
        );
        break;
      case "error":
        console.log(`  [${event.turn}] error: ${d.message}`);
        break;
      default:
        break;
    }
  }
  result = await stream.result;
  console.log(`\nAnswer: ${result.text}`);
  console.log(
    `\nStop reason: ${result.stopReason} · turns: ${result.turns} · tool calls: ${result.toolCalls.length}`,
  );
  // Tools can also be called directly, without a model.
  console.log(`\nDirect call: ${await mcp.call("everything_echo", { message: "bye" })}`);
} finally {
  await mcp.close(); // stops the server process
}
if (result?.stopReason !== "completed") process.exitCode = 1;
