// The runtime matrix in a browser: a page bundled with esbuild (platform "browser") that imports `agentloop`
// runs a full tool loop against the local mock OpenAI server, in headless Chromium (playwright-core). The page
// is served from http://localhost:<port>/ and calls the API at http://127.0.0.1:<port>/v1, another origin:
// a small front server adds the CORS headers and forwards /v1 to the mock.
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import { build, type Metafile } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import type { Trace } from "../../src/trace/trace-types.js";
import { verifyTrace } from "../../src/trace/verify-trace.js";
import { CHROMIUM, launchChromium } from "../test-utils/launch-chromium.js";
import {
  agentRunSource,
  EXPECTED_ANSWER,
  expectToolLoopRequests,
  makeRuntimeConsumer,
  type RuntimeConsumer,
  startToolLoopMock,
} from "./runtime-harness.js";

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`runtime matrix: browser skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>agentloop</title></head>
<body><pre id="out">loading</pre><script type="module" src="/app.js"></script></body></html>`;

/**
 * The page's script: runs the tool loop, traced (the browser has no node:crypto: records are hashed with
 * @noble/hashes), and leaves `{ stopReason, text }` (or the error) and the trace on `window`.
 */
function pageEntry(options: { baseURL: string }): string {
  return `import { Agent, createOpenAI, tool } from "agentloop";
${agentRunSource(options)}
agent.run("What is 6 times 7?", { trace: true }).then(
  (result) => {
    window.agentTrace = result.trace;
    window.agentResult = { stopReason: result.stopReason, text: result.text };
  },
  (error) => { window.agentError = String(error && error.stack || error); },
);
`;
}

/** Serves the page and its bundle, and forwards /v1/* to the mock with CORS headers. */
async function startFrontServer(options: { bundle: () => string; mock: MockOpenAIServer }): Promise<Server> {
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      { host: "127.0.0.1", port: options.mock.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "access-control-allow-origin": "*" });
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  };
  const server = createServer((req, res) => {
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET, POST, OPTIONS",
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
        "access-control-max-age": "600",
      });
      res.end();
    } else if (req.url?.startsWith("/v1/")) forward(req, res);
    else if (req.url === "/app.js") {
      res.writeHead(200, { "content-type": "text/javascript" }).end(options.bundle());
    } else res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

/** The `node:*` modules the page bundle imports, from the esbuild metafile. */
function nodeImports(metafile: Metafile): string[] {
  const found = Object.values(metafile.inputs).flatMap((input) =>
    input.imports.filter((imported) => imported.external && imported.path.startsWith("node:")),
  );
  return [...new Set(found.map((imported) => imported.path))].sort();
}

describe.skipIf(!hasChromium)("browser (headless Chromium)", () => {
  let consumer: RuntimeConsumer;
  let mock: MockOpenAIServer;
  let front: Server;
  let browser: Browser;
  let port: number;
  let metafile: Metafile;
  beforeAll(async () => {
    consumer = makeRuntimeConsumer();
    mock = await startToolLoopMock();
    let bundle = "";
    front = await startFrontServer({ bundle: () => bundle, mock });
    const address = front.address();
    port = typeof address === "object" && address !== null ? address.port : 0;
    consumer.write("page-entry.mjs", pageEntry({ baseURL: `http://127.0.0.1:${port}/v1` }));
    // node:* stays external so the page loads far enough to show the browser's own error for them.
    const result = await build({
      entryPoints: [`${consumer.dir}/page-entry.mjs`],
      outfile: `${consumer.dir}/app.js`,
      absWorkingDir: consumer.dir,
      bundle: true,
      format: "esm",
      platform: "browser",
      external: ["node:*"],
      metafile: true,
      logLevel: "silent",
    });
    metafile = result.metafile;
    bundle = readFileSync(`${consumer.dir}/app.js`, "utf8");
    browser = await launchChromium();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => front?.close(resolve));
    consumer?.remove();
    await mock?.close();
  });

  it("runs a full tool loop in a page bundled with esbuild", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    // The run's outcome, or the first load error (a failed module import leaves nothing else to wait for).
    const failed = new Promise<{ error: string }>((resolve) => {
      const settle = () => setTimeout(() => resolve({ error: errors.join("; ") }), 200);
      page.once("pageerror", settle);
      page.on("console", (message) => {
        if (message.type() === "error") settle();
      });
    });
    await page.goto(`http://localhost:${port}/`);
    const finished = page
      .waitForFunction(
        () => {
          const w = window as unknown as { agentResult?: unknown; agentError?: string };
          return w.agentResult ?? (w.agentError === undefined ? undefined : { error: w.agentError });
        },
        undefined,
        { timeout: 10_000 },
      )
      .then(
        (handle) => handle.jsonValue() as Promise<{ stopReason: string; text: string } | { error: string }>,
      )
      .catch((error: unknown) => ({ error: `${String(error)}; ${errors.join("; ")}` }));
    const outcome = await Promise.race([finished, failed]);
    // The page bundle imports no node:* module (issue 21): the default transport is fetch there.
    expect(nodeImports(metafile)).toEqual([]);
    expect(outcome).toEqual({ stopReason: "completed", text: EXPECTED_ANSWER });
    expectToolLoopRequests(mock);
    // The trace hashed in the browser verifies in Node (node:crypto): the same SHA-256 chain.
    const trace = (await page.evaluate(
      () => (window as unknown as { agentTrace: unknown }).agentTrace,
    )) as Trace;
    expect(trace.records.length).toBeGreaterThan(4);
    expect(trace.records.every((record) => /^[0-9a-f]{64}$/.test(record.hash))).toBe(true);
    expect(verifyTrace(trace)).toEqual({ ok: true });
  });
});
