// A quick smoke of the benchmark's agentloop adapter (the benchmark itself is `npm run bench`, not a test):
// the adapter, through the public API of the built package, must pass the harness's own checks against the
// harness's mock server — final text, 4 model turns, 6 tool executions, tools run in parallel.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface MockServer {
  listen(port: number, host: string, cb: () => void): void;
  address(): AddressInfo;
  close(): void;
  closeAllConnections?: () => void;
}
type RunAgent = (o: { baseURL: string; apiKey: string; prompt: string; stream: boolean }) => Promise<{
  text: string;
  turns: number;
  streamed?: string;
}>;

const bench = (path: string) => new URL(`../bench/${path}`, import.meta.url).href;
let server: MockServer;
let baseURL: string;
let runAgent: RunAgent;
let common: {
  PROMPT: string;
  counters: { get_weather: number; calculate: number; maxInFlight: number };
  resetCounters(): void;
  setToolDelay(ms: number): void;
};
let finalText: string;

beforeAll(async () => {
  const mock = (await import(bench("mock-openai-server.mjs"))) as {
    createMockServer(): MockServer;
    FINAL_TEXT: string;
  };
  finalText = mock.FINAL_TEXT;
  server = mock.createMockServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${server.address().port}/v1`;
  runAgent = ((await import(bench("peers/agentloop.mjs"))) as { runAgent: RunAgent }).runAgent;
  common = await import(bench("peers/common.mjs"));
});
afterAll(() => {
  server.closeAllConnections?.();
  server.close();
});

describe.each([false, true])("bench adapter (stream: %s)", (stream) => {
  it("passes the harness checks", async () => {
    common.resetCounters();
    common.setToolDelay(25);
    const result = await runAgent({ baseURL, apiKey: "bench", prompt: common.PROMPT, stream });
    common.setToolDelay(0);
    expect(result.text).toBe(finalText);
    expect(result.turns).toBe(4);
    expect(common.counters.get_weather).toBe(3);
    expect(common.counters.calculate).toBe(3);
    expect(common.counters.maxInFlight).toBe(2);
    if (stream) expect(result.streamed).toBe(finalText);
  });
});
