// Issue #20, from the outside: the BUILT package (dist/: `node scripts/build.mjs` first, as `npm test` does).
// A route made with the built agentloop/web serves `useChat` over node:http: the AI SDK's chat client over real
// HTTP, and a useChat page built with Vite in headless Chromium.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type * as Root from "../../src/index.js";
import type * as Testing from "../../src/testing/index.js";
import type * as Web from "../../src/web/index.js";
import { TestChat } from "../../src/web/test-utils/test-chat.js";
import { CHROMIUM, launchChromium } from "../test-utils/launch-chromium.js";
import { type ChatHttpServer, startChatServer } from "./chat-http-server.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const hasChromium = existsSync(CHROMIUM);
const dist = (entry: string) => join(root, "dist", entry);
const missing = ["index.js", "web/index.js", "testing/index.js"].filter((f) => !existsSync(dist(f)));
if (missing.length > 0) throw new Error(`not built: ${missing.join(", ")} (run node scripts/build.mjs)`);
const { Agent, InvalidArgumentError, MemoryStore, tool } = (await import(dist("index.js"))) as typeof Root;
const { ScriptedModel } = (await import(dist("testing/index.js"))) as typeof Testing;
const { createUIChatResponse, readUIChatRequest } = (await import(dist("web/index.js"))) as typeof Web;
if (!hasChromium)
  console.warn(`useChat browser test skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

/** The weather agent of the page: streams slowly enough to be seen, and asks before deleting a file. */
function weatherAgent() {
  const ran: string[] = [];
  let toolSignal: AbortSignal | undefined;
  const weather = tool({
    name: "get_weather",
    description: "The weather in a city",
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      ran.push(`weather ${city}`);
      return `sunny, 24°C in ${city}`;
    },
  });
  const remove = tool({
    name: "delete_file",
    description: "Deletes a file",
    parameters: z.object({ path: z.string() }),
    needsApproval: true,
    execute: ({ path }) => {
      ran.push(`delete ${path}`);
      return `deleted ${path}`;
    },
  });
  const wait = tool({
    name: "wait",
    description: "Waits a long time",
    parameters: z.object({}),
    timeoutMs: 60_000,
    execute: (_args, ctx) =>
      new Promise<string>((resolve) => {
        toolSignal = ctx.signal;
        setTimeout(() => resolve("waited"), 30_000);
      }),
  });
  const model = new ScriptedModel(
    (request) => {
      const last = request.messages.at(-1);
      const asked = request.messages.filter((m) => m.role === "user").at(-1);
      const text = asked?.role === "user" && typeof asked.content === "string" ? asked.content : "";
      if (text.includes("wait") && last?.role === "user") {
        return { toolCalls: [{ id: "w1", name: "wait", arguments: {} }] };
      }
      if (last?.role === "user") {
        return {
          text: "Let me check the weather in Paris first.",
          toolCalls: [{ id: "call_weather", name: "get_weather", arguments: { city: "Paris" } }],
        };
      }
      if (last?.role === "tool" && last.toolName === "get_weather") {
        return {
          text: "It is sunny. Now I need your approval to delete the old report.",
          toolCalls: [{ id: "call_delete", name: "delete_file", arguments: { path: "/reports/old.txt" } }],
        };
      }
      return { text: "Done: the old report is deleted, and it is sunny, 24°C in Paris." };
    },
    { streamDelayMs: 15 },
  );
  const agent = new Agent({ model, tools: [weather, remove, wait], store: new MemoryStore() });
  return { agent, ran, toolSignal: () => toolSignal };
}

/** The route: `POST /api/chat` as a Next.js-style handler. */
function chatRoute(agent: Root.Agent) {
  return async (request: Request): Promise<Response> => {
    try {
      const chat = await readUIChatRequest(request);
      return createUIChatResponse({ agent, chat, sessionId: `user-1:${chat.id}`, signal: request.signal });
    } catch (error) {
      if (InvalidArgumentError.isInstance(error)) return new Response(error.message, { status: 400 });
      throw error;
    }
  };
}

describe("useChat against an agentloop endpoint on node:http", () => {
  let appDir: string;
  let server: ChatHttpServer;
  let setup: ReturnType<typeof weatherAgent>;

  beforeAll(async () => {
    appDir = await mkdtemp(join(tmpdir(), "agentloop-use-chat-"));
    const { build } = await import("vite");
    const started = Date.now();
    await build({
      root: join(here, "use-chat-app"),
      configFile: false,
      logLevel: "error",
      esbuild: { jsx: "automatic" },
      build: { outDir: appDir, emptyOutDir: true, minify: false, reportCompressedSize: false },
    });
    console.log(`vite build of the useChat page: ${Date.now() - started} ms`);
    setup = weatherAgent();
    server = await startChatServer({ handler: chatRoute(setup.agent), staticDir: appDir });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    if (appDir !== undefined) await rm(appDir, { recursive: true, force: true });
  });

  it("the AI SDK chat client over HTTP: streamed text and tools, an approval that resumes the run", async () => {
    const chat = new TestChat({
      api: `${server.url}/api/chat`,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "Clean up my reports if the weather is fine" });
    await chat.idle();
    const part = chat.lastMessage?.parts.find((p) => p.type === "tool-delete_file");
    expect(part).toMatchObject({ state: "approval-requested", approval: { id: "call_delete" } });
    await chat.addToolApprovalResponse({ id: "call_delete", approved: true });
    await chat.idle();
    expect(chat.error).toBeUndefined();
    const last = chat.lastMessage;
    expect(last?.parts.find((p) => p.type === "tool-delete_file")).toMatchObject({
      state: "output-available",
      output: "deleted /reports/old.txt",
    });
    expect(JSON.stringify(last)).toContain("Done: the old report is deleted");
  });

  it("a client that goes away mid-run aborts the run on the server (a running tool sees its signal)", async () => {
    const chat = new TestChat({ api: `${server.url}/api/chat` });
    const sending = chat.sendMessage({ text: "please wait" });
    for (let i = 0; i < 400 && setup.toolSignal() === undefined; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(setup.toolSignal()?.aborted).toBe(false);
    await chat.stop();
    await sending;
    for (let i = 0; i < 400 && setup.toolSignal()?.aborted !== true; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(setup.toolSignal()?.aborted).toBe(true);
  });

  it.skipIf(!hasChromium)(
    "a useChat page built with Vite, in headless Chromium: streamed text, a tool call, approve, the answer",
    async () => {
      const shots = join(root, "test-results");
      await mkdir(shots, { recursive: true });
      let browser: Browser | undefined;
      try {
        browser = await launchChromium();
        setup.ran.length = 0;
        const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
        const pageErrors: string[] = [];
        page.on("pageerror", (error) => pageErrors.push(error.message));
        await page.goto(server.url);
        await page.getByLabel("Message").fill("Clean up my reports if the weather is fine");
        await page.getByLabel("Message").press("Enter");
        // Streamed text and the first tool call, then the gated call waiting for a decision.
        await page.getByText("Let me check the weather in Paris first.").waitFor();
        await page.screenshot({ path: join(shots, "use-chat-streaming.png"), fullPage: true });
        await page.getByTestId("tool-call_weather").getByText("sunny, 24°C in Paris").waitFor();
        const gated = page.getByTestId("tool-call_delete");
        await gated.getByRole("button", { name: "Approve" }).waitFor();
        expect(await gated.getAttribute("data-state")).toBe("approval-requested");
        expect(setup.ran).not.toContain("delete /reports/old.txt");
        await page.screenshot({ path: join(shots, "use-chat-approval.png"), fullPage: true });
        await gated.getByRole("button", { name: "Approve" }).click();
        await page.getByText("Done: the old report is deleted").waitFor();
        await gated.getByText("deleted /reports/old.txt").waitFor();
        expect(setup.ran).toContain("delete /reports/old.txt");
        await page.getByText("status: ready").waitFor();
        await page.screenshot({ path: join(shots, "use-chat-answer.png"), fullPage: true });
        expect(await page.getByTestId("message-assistant").count()).toBe(1);
        expect(pageErrors).toEqual([]);
      } finally {
        await browser?.close();
      }
    },
    60_000,
  );
});
