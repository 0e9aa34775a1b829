// The research assistant: searches the web, reads pages, asks the user a question, writes a report.
// Without OPENAI_API_KEY everything is local: a tiny "web" served on 127.0.0.1 (search + pages) and the mock
// model; http_get only reaches allowed hosts; files are written in a sandboxed temp dir.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, tool } from "agentloop";
import { askUserTool, fileTools, httpGetTool } from "agentloop/tools";
import { exampleModel, toolResults } from "./lib/example-model.mjs";

// --- a tiny local web: /search?q=... (JSON) and two HTML pages -------------------------------------------
const pages = {
  "/solar":
    "<html><head><title>Solar power</title></head><body><h1>Solar</h1><p>Solar capacity grew 30% in 2024.</p><script>track()</script></body></html>",
  "/wind":
    "<html><head><title>Wind power</title></head><body><p>Offshore wind doubled in the North Sea.</p></body></html>",
};
const web = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  if (url.pathname === "/search") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(
      JSON.stringify([
        { title: "Solar power", url: `http://127.0.0.1:${port}/solar` },
        { title: "Wind power", url: `http://127.0.0.1:${port}/wind` },
      ]),
    );
  }
  const page = pages[url.pathname];
  res.writeHead(page ? 200 : 404, { "content-type": "text/html" });
  res.end(page ?? "not found");
});
await new Promise((resolve) => web.listen(0, "127.0.0.1", resolve));
const port = web.address().port;

const webSearch = tool({
  name: "web_search",
  description: "Search the web; returns titles and URLs as JSON.",
  parameters: {
    type: "object",
    properties: { query: { type: "string" } },
    required: ["query"],
    additionalProperties: false,
  },
  execute: async ({ query }, { signal }) =>
    (await fetch(`http://127.0.0.1:${port}/search?q=${encodeURIComponent(query)}`, { signal })).text(),
});

// --- the mock model's script: search, read both pages, ask the user, write the report, answer -------------
function script(body) {
  const results = toolResults(body);
  switch (results.length) {
    case 0:
      return { toolCalls: [{ name: "web_search", arguments: { query: "renewable energy growth 2024" } }] };
    case 1: {
      const hits = JSON.parse(results[0]);
      return {
        text: "Reading the top results.",
        toolCalls: hits.map((h) => ({ name: "http_get", arguments: { url: h.url } })),
      };
    }
    case 3:
      return {
        toolCalls: [
          { name: "ask_user", arguments: { question: "Should the report focus on Europe or worldwide?" } },
        ],
      };
    case 4: {
      const focus = results[3];
      const report = `# Renewables report (${focus})\n\n- Solar capacity grew 30% in 2024.\n- Offshore wind doubled in the North Sea.\n`;
      return { toolCalls: [{ name: "write_file", arguments: { path: "report.md", content: report } }] };
    }
    default:
      return {
        text: "The report is in report.md: solar +30% in 2024, offshore wind doubled in the North Sea.",
      };
  }
}

const root = mkdtempSync(join(tmpdir(), "agentloop-research-"));
const { model, close } = await exampleModel({ script });
const agent = new Agent({
  model,
  system:
    "You are a research assistant. Search, read sources, ask the user when a choice is theirs, write a report.",
  tools: [
    webSearch,
    httpGetTool({ allowHosts: ["127.0.0.1"] }),
    askUserTool({
      ask: async (question) => {
        console.log(`  [assistant asks] ${question}\n  [user] Europe`);
        return "Europe";
      },
    }),
    ...fileTools({ root }),
  ],
  limits: { maxTurns: 10 },
  onEvent: (e) => {
    if (e.type === "action") console.log(`→ ${e.data.toolName}(${JSON.stringify(e.data.arguments)})`);
    if (e.type === "observation")
      console.log(`← ${e.data.toolName}: ${e.data.result.replace(/\s+/g, " ").slice(0, 90)}`);
  },
});

const result = await agent.run("Research how renewable energy grew in 2024 and write me a short report.");
console.log(`\nAnswer: ${result.text}\n\n${readFileSync(join(root, "report.md"), "utf8")}`);
await close();
web.close();
rmSync(root, { recursive: true, force: true });
