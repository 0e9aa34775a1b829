import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type MockOpenAIServer, startMockOpenAIServer } from "../../testing/mock-openai-server.js";
import type { MockScript } from "../../testing/mock-reply.js";
import { ensureCliBuilt } from "./ensure-cli-built.js";

/** Helpers of a CLI process test file (see {@link useCliTestEnv}). */
export interface CliTestEnv {
  /**
   * Starts a mock OpenAI server (closed after the test) and the environment that points the CLI at it (with
   * `AGENTLOOP_MODEL=openai:gpt-4o-mini`, as a custom base URL needs its model named).
   */
  mockServer(options?: {
    script?: MockScript;
    wordsPerEvent?: number;
  }): Promise<{ server: MockOpenAIServer; env: Record<string, string> }>;
  /** A fresh, empty working directory (removed after the file's tests). */
  workdir(name: string): Promise<string>;
}

/**
 * Registers the hooks a CLI process test file needs: builds dist/cli/main.js when it is stale, makes a
 * temporary directory, closes the mock servers after each test.
 */
export function useCliTestEnv(): CliTestEnv {
  let dir = "";
  const servers: MockOpenAIServer[] = [];
  beforeAll(async () => {
    await ensureCliBuilt();
    dir = await mkdtemp(join(tmpdir(), "agentloop-cli-"));
  }, 120_000);
  afterAll(async () => {
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return {
    async mockServer({ script, wordsPerEvent = 3 } = {}) {
      const server = await startMockOpenAIServer({ ...(script !== undefined && { script }), wordsPerEvent });
      servers.push(server);
      // A custom base URL needs its model named (AGENTLOOP_MODEL or --model).
      const env = {
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: "test-key",
        AGENTLOOP_MODEL: "openai:gpt-4o-mini",
      };
      return { server, env };
    },
    async workdir(name) {
      const path = join(dir, name);
      await rm(path, { recursive: true, force: true });
      await mkdir(path, { recursive: true });
      return path;
    },
  };
}

/** The lines of an output, without the final line break. */
export function linesOf(text: string): string[] {
  return text.trimEnd().split("\n");
}
