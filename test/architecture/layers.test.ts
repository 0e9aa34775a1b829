import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The layers of src/ and what each may import (docs/architecture.md). A new import across layers that is not
 * listed fails here: change the design on purpose (and this table, and the doc), not by accident.
 */
const ALLOWED: Record<string, readonly string[]> = {
  errors: ["util"],
  util: ["errors"],
  models: ["errors", "util"],
  http: ["errors", "util", "models"],
  providers: ["errors", "util", "models", "http", "tools"],
  context: ["errors", "util", "models"],
  stores: ["errors", "util", "models"],
  sessions: ["errors", "util", "models", "stores"],
  // Tools see the run's state (ctx.state) and the redaction rules (secrets in tool specs).
  tools: ["errors", "util", "models", "sessions", "stores"],
  cost: ["errors", "util", "models", "stores"],
  profiles: ["errors", "util"],
  memory: ["errors", "util", "tools", "stores"],
  "builtin-tools": ["errors", "util", "tools", "memory"],
  // Replaying a recorded run (a journal or a trace): one replay model, one tool replay path.
  "run-log": ["errors", "util", "models", "tools"],
  // Typed final answers: the schema (resolved like tool parameters) and the partial-JSON reader.
  output: ["errors", "util", "models", "tools"],
  // Guardrails: checks that may block a run; the built-in secrets check uses the redactor's rules.
  guardrails: ["errors", "util", "models", "stores"],
  // The loop's outcome carries the trace its wrapper adds (a type).
  loop: [
    "errors",
    "util",
    "models",
    "http",
    "tools",
    "context",
    "cost",
    "sessions",
    "stores",
    "trace",
    "output",
    "guardrails",
  ],
  trace: ["errors", "util", "models", "tools", "stores", "loop", "run-log", "(root)"],
  durable: ["errors", "util", "models", "tools", "stores", "loop", "cost", "sessions", "run-log", "(root)"],
  // Plan-and-execute is an Agent (its own PlanModel on the one loop): it sits beside the Agent.
  planner: [
    ...["errors", "util", "models", "providers", "tools", "loop", "cost", "profiles", "context", "(root)"],
    ...["durable", "stores", "run-log", "trace"],
  ],
  reflection: ["errors", "util", "models", "loop", "(root)"],
  // Agents working together: a sub-agent is a tool whose run nests in its caller's (loop, cost, run log).
  agents: ["errors", "util", "models", "tools", "loop", "cost", "durable"],
  render: ["errors", "util", "models", "loop", "stores"],
  // OpenTelemetry spans from a run's events (the hook type, the redactor for captured content).
  otel: ["errors", "util", "models", "loop", "stores"],
  testing: ["errors", "util", "models", "http", "context"],
  "(root)": [
    ...["errors", "util", "models", "http", "providers", "context", "stores", "sessions", "tools", "cost"],
    ...["profiles", "memory", "loop", "trace", "durable", "planner", "reflection", "render", "builtin-tools"],
    "output",
    "guardrails",
    "agents",
  ],
  "integrations/redis": ["errors", "util", "models", "stores", "durable"],
  "integrations/postgres": ["errors", "util", "models", "stores", "durable"],
  "integrations/mcp": ["errors", "util", "models", "tools"],
  "integrations/queue": [
    ...["errors", "util", "models", "stores", "sessions", "durable", "loop", "(root)"],
    "integrations/redis",
  ],
  // Streaming runs to browsers (SSE); the wire shapes are the browser client's (types).
  web: ["errors", "util", "models", "loop", "(root)", "client"],
  // The browser client: fetch, streams and the SSE reader only (no node:*).
  client: ["errors", "util", "models", "loop", "http"],
  cli: [
    ...["errors", "util", "models", "providers", "stores", "tools", "builtin-tools", "cost", "loop"],
    ...["render", "trace", "testing", "(root)", "dev"],
  ],
  // `agentloop dev` (a CLI command loaded on demand): the local server, and in dev/app/ the browser app's
  // sources (bundled by scripts/build-dev-ui.mjs; they import only types from the loop).
  dev: [
    ...["errors", "util", "models", "providers", "stores", "tools", "loop", "durable", "trace", "render"],
    ...["testing", "cli", "web", "(root)"],
  ],
};

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "test-utils" ? [] : sourceFiles(path);
    return path.endsWith(".ts") && !path.endsWith(".test.ts") ? [path] : [];
  });
}

function layerOf(path: string): string {
  const parts = relative(src, path).split("/");
  if (parts.length === 1) return "(root)";
  return parts[0] === "integrations" ? `integrations/${parts[1]}` : (parts[0] as string);
}

/** Every relative import of a file (static, dynamic and re-exports), as `from layer -> to layer`. */
function crossings(): Array<{ file: string; from: string; to: string }> {
  const found: Array<{ file: string; from: string; to: string }> = [];
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:\bfrom|\bimport\(?)\s*"(\.{1,2}\/[^"]+)"/g)) {
      const target = resolve(dirname(file), match[1] as string);
      const from = layerOf(file);
      const to = layerOf(target);
      if (from !== to) found.push({ file: relative(src, file), from, to });
    }
  }
  return found;
}

describe("architecture: imports follow the layers", () => {
  it("every cross-layer import is allowed by the table", () => {
    const edges = crossings();
    expect(edges.length).toBeGreaterThan(100); // the scan found the imports
    const wrong = edges
      .filter(({ from, to }) => !(ALLOWED[from] ?? []).includes(to))
      .map(({ file, from, to }) => `${file}: ${from} -> ${to}`);
    expect(wrong).toEqual([]);
  });

  it("models import no provider, transport or runtime code", () => {
    const models = crossings().filter((edge) => edge.from === "models");
    expect(models.filter((edge) => !["errors", "util"].includes(edge.to))).toEqual([]);
  });

  it("the table names only layers that exist", () => {
    const layers = new Set(sourceFiles(src).map(layerOf));
    for (const [layer, deps] of Object.entries(ALLOWED)) {
      expect(layers.has(layer), layer).toBe(true);
      for (const dep of deps) expect(layers.has(dep), `${layer} -> ${dep}`).toBe(true);
    }
  });
});
