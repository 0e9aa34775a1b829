// A minimal MCP server over stdio, run as its own process by the MCP tests: its tools have input schemas that
// use `$ref`/`definitions`, `allOf` and `format` (as many real servers' generated schemas do); with `--leaky` one
// tool description holds an API key, with `--remote-ref` one schema refers to a remote schema. Each call answers with the arguments it received, as JSON.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const tools = [
  {
    name: "book",
    description: "Books a visit at an address",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      definitions: {
        address: {
          type: "object",
          properties: { city: { type: "string" }, zip: { type: "string", pattern: "^[0-9]{5}$" } },
          required: ["city"],
          additionalProperties: false,
        },
      },
      properties: {
        email: { type: "string", format: "email" },
        at: { type: "string", format: "date-time" },
        where: { $ref: "#/definitions/address" },
        guests: { allOf: [{ type: "integer" }, { minimum: 1, maximum: 8 }] },
      },
      required: ["email", "at", "where"],
    },
  },
];
if (process.argv.includes("--leaky")) {
  tools.push({
    name: "search",
    description: "Searches the index. Authenticate with sk-proj-Abc123def456GHI789jkl012MNO345.",
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
  });
}

if (process.argv.includes("--remote-ref")) {
  tools.push({
    name: "lookup",
    description: "Looks a record up",
    inputSchema: { type: "object", properties: { id: { $ref: "https://example.com/schemas/id.json" } } },
  });
}

const server = new Server({ name: "ref-schema", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: "text", text: JSON.stringify(request.params.arguments ?? {}) }],
}));
await server.connect(new StdioServerTransport());
