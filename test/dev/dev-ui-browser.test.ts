// `agentloop dev` driven in headless Chromium (issue #20, "Done when"): the BUILT CLI (dist/cli/main.js) in a
// child process with a ScriptedModel agent file; the page sends a message, shows streamed text and tool calls
// in the timeline, nests a sub-agent's events, approves gated calls (mouse and keyboard), opens traces as a
// waterfall and replays them, and follows hot reloads. Screenshots (light and dark) go to test-results/.
import { existsSync, mkdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM build script without type declarations.
import { buildDevUi } from "../../scripts/build-dev-ui.mjs";
import { ensureCliBuilt } from "../../src/cli/test-utils/ensure-cli-built.js";
import { runCli } from "../../src/cli/test-utils/run-cli.js";
import { CHROMIUM, launchChromium } from "../test-utils/launch-chromium.js";
import {
  browserTestAgent,
  bundleLibrary,
  ROOT,
  writeBrowserTestAgent,
} from "./test-utils/browser-test-agent.js";
import { type DevCli, startDevCli } from "./test-utils/start-dev-cli.js";

const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) {
  console.log(
    `skipping the agentloop dev browser tests: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does)`,
  );
}
const SHOTS = join(ROOT, "test-results");

describe.skipIf(!HAVE_CHROMIUM)("agentloop dev in headless Chromium", () => {
  let dir = "";
  let dev: DevCli | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await Promise.all([ensureCliBuilt(), buildDevUi()]);
    mkdirSync(join(ROOT, ".tmp"), { recursive: true });
    mkdirSync(SHOTS, { recursive: true });
    dir = await mkdtemp(join(ROOT, ".tmp", "dev-ui-"));
    await bundleLibrary(dir);
    writeBrowserTestAgent(dir, browserTestAgent());
    dev = await startDevCli({ args: ["agent.mjs", "--memory"], cwd: dir });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await dev?.stop();
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  });

  /** A new page on the dev UI; fails the test on page errors and on requests to any other origin. */
  async function openPage(
    colorScheme: "light" | "dark" = "light",
  ): Promise<{ page: Page; problems: string[] }> {
    if (browser === undefined || dev === undefined) throw new Error("not started");
    const context = await browser.newContext({ colorScheme, viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const problems: string[] = [];
    const origin = dev.origin;
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("request", (request) => {
      if (!request.url().startsWith(origin)) problems.push(`request elsewhere: ${request.url()}`);
    });
    await page.goto(dev.url);
    await page.locator("#agent-info").getByText("tester").waitFor();
    return { page, problems };
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.locator("#message").fill(text);
    await page.locator("#message").press("Enter");
  }

  it("streams the answer into the chat and shows the tool call in the timeline", async () => {
    const { page, problems } = await openPage();
    await send(page, "hello there");
    const reply = page.locator(".message.assistant").last();
    // Text arrives while the run goes on: some text, no status line yet.
    await page.waitForFunction(() => {
      const last = [...document.querySelectorAll(".message.assistant")].at(-1);
      return (
        (last?.querySelector(".text")?.textContent ?? "").length > 0 &&
        last?.querySelector(".status") === null
      );
    });
    await reply.locator(".status").waitFor();
    await expect
      .poll(() => reply.locator(".text").last().textContent())
      .toContain("echo to hello there: a longer answer");

    await send(page, "please add");
    await page.locator(".message.assistant").last().locator(".status").waitFor();
    expect(await page.locator(".message.assistant").last().textContent()).toContain("echo: 5");
    const action = page.locator('#timeline li[data-type="action"]');
    await expect.poll(() => action.textContent()).toContain("add");
    expect(await action.textContent()).toContain('{"a":2,"b":3}');
    expect(await page.locator('#timeline li[data-type="observation"]').textContent()).toContain("5");
    expect(await page.locator('#timeline li[data-type="model_call"]').count()).toBe(2);
    expect(await page.locator('#timeline li[data-type="model_call"]').first().textContent()).toMatch(
      /tokens · \$0\.0000\d+ · tool_calls/,
    );
    await page.screenshot({ path: join(SHOTS, "dev-ui-chat-light.png") });
    expect(problems).toEqual([]);
  }, 60_000);

  it("nests a sub-agent's events under its path", async () => {
    const { page, problems } = await openPage();
    await send(page, "research this");
    await page.locator(".message.assistant .status").waitFor();
    const group = page.locator("#timeline li.group");
    await expect
      .poll(() => group.locator("> details > summary").textContent())
      .toContain("tester/researcher");
    expect(await group.locator('li[data-type="action"]').textContent()).toContain('{"a":40,"b":2}');
    expect(await page.locator(".message.assistant").last().textContent()).toContain("echo: Found 42.");
    expect(problems).toEqual([]);
  }, 60_000);

  it("approves a gated call with the button, and with the keyboard; tool text stays text", async () => {
    const { page, problems } = await openPage();
    await send(page, "save a note");
    const approve = page.getByRole("button", { name: "Approve save_note" });
    await approve.waitFor();
    expect(await page.locator(".approval pre").textContent()).toContain('"text": "buy <b>milk</b>"');
    await page.screenshot({ path: join(SHOTS, "dev-ui-approval-light.png") });
    await approve.click();
    await expect
      .poll(() => page.locator(".message.assistant").last().textContent())
      .toContain("echo: saved buy <b>milk</b>");
    expect(await page.locator("#chat-log b, #timeline b").count()).toBe(0);
    // The resumed answer streams: wait for the run's end (its status line) before the next message.
    await page.locator(".message.assistant").last().locator(".status").waitFor();

    // Keyboard: the Approve button has the focus when the card appears (and shows it); Enter approves.
    await send(page, "another note");
    await page.locator(".approval").nth(1).waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe("Approve save_note");
    expect(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle)).toBe(
      "solid",
    );
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".message.assistant").last().textContent()).toContain("echo: saved");
    expect(await page.locator(".approval .decision").allTextContents()).toEqual(["approved", "approved"]);
    // The runs list shows both runs completed.
    await expect.poll(() => page.locator("#runs .pill").allTextContents()).toContain("completed");
    expect(problems).toEqual([]);
  }, 60_000);

  it("opens a saved trace as a waterfall and replays it; also a trace file from agentloop run", async () => {
    const { page, problems } = await openPage();
    await send(page, "please add");
    await page.locator(".message.assistant .status").waitFor();
    await page
      .getByRole("button", { name: /^please add/ })
      .first()
      .waitFor();
    const runId = await page.locator("#timeline li[data-type=loop_end]").count();
    expect(runId).toBe(1);
    await page.locator("#traces .item").first().click();
    await page.locator(".waterfall").waitFor();
    expect(await page.locator('.wf-row[data-kind="model"]').count()).toBe(2);
    expect(await page.locator('.wf-row[data-kind="tool"]').count()).toBe(1);
    expect(await page.locator(".trace-head").textContent()).toContain("hash chain verified");
    await page.getByRole("button", { name: "Replay" }).click();
    await expect.poll(() => page.locator(".replay-outcome").textContent()).toContain("no divergence");
    await page.screenshot({ path: join(SHOTS, "dev-ui-trace-light.png") });

    const file = join(dir, "demo-run.jsonl");
    const recorded = await runCli({
      args: ["run", "--demo", "--quiet", "--trace", file, "What is 6 * 7?"],
      cwd: dir,
    });
    expect(recorded.code, recorded.stderr).toBe(0);
    await page.locator("#trace-file").setInputFiles(file);
    await expect
      .poll(() => page.locator(".trace-head h3").textContent())
      .toMatch(/^upload-.*demo-run\.jsonl$/);
    expect(await page.locator('.wf-row[data-kind="tool"]').textContent()).toContain("calculator");
    await page.getByRole("button", { name: "Replay" }).click();
    await expect
      .poll(() => page.locator(".replay-outcome").textContent())
      .toContain("rebuilt from the trace: no divergence");
    expect(problems).toEqual([]);
  }, 60_000);

  it("is readable in dark mode (the system's and the toggle)", async () => {
    const { page, problems } = await openPage("dark");
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe("rgb(21, 23, 27)");
    await send(page, "research in the dark");
    await page.locator(".message.assistant .status").waitFor();
    await page.screenshot({ path: join(SHOTS, "dev-ui-chat-dark.png") });
    await page.locator("#traces .item").first().click();
    await page.locator(".waterfall").waitFor();
    await page.getByRole("button", { name: "Replay" }).click();
    await expect.poll(() => page.locator(".replay-outcome").textContent()).toContain("no divergence");
    await page.screenshot({ path: join(SHOTS, "dev-ui-trace-dark.png") });
    await page.getByRole("button", { name: "Light theme" }).click();
    expect(await background()).toBe("rgb(247, 247, 248)");
    await page.getByRole("button", { name: "Dark theme" }).press("Enter");
    expect(await background()).toBe("rgb(21, 23, 27)");
    expect(problems).toEqual([]);
  }, 60_000);

  it("reloads the agent when its file changes; a broken edit shows the error and keeps the last good agent", async () => {
    const { page, problems } = await openPage("dark");
    await writeFile(join(dir, "agent.mjs"), browserTestAgent({ answer: "reloaded" }));
    await expect
      .poll(() => page.locator("#toast").textContent(), { timeout: 10_000 })
      .toContain("Agent reloaded (version 2)");
    await send(page, "hi");
    await expect
      .poll(() => page.locator(".message.assistant").last().textContent())
      .toContain("reloaded to hi");

    await writeFile(join(dir, "agent.mjs"), "export default new Agent({ model: ");
    const banner = page.locator("#banner");
    await expect.poll(() => banner.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await banner.textContent()).toMatch(
      /The agent file failed to load: SyntaxError.*the last good agent is still in use/,
    );
    await page.locator(".message.assistant .status").last().waitFor();
    await send(page, "still there?");
    await expect
      .poll(() => page.locator(".message.assistant").last().textContent())
      .toContain("reloaded to still there?");
    await page.screenshot({ path: join(SHOTS, "dev-ui-reload-error-dark.png") });
    expect(dev?.cli.stderr()).toContain("reload failed");
    expect(problems).toEqual([]);
  }, 60_000);
});
