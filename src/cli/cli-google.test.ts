import { afterEach, describe, expect, it } from "vitest";
import { geminiAnswer } from "../providers/google/test-utils/encode-google-sse.js";
import {
  type GoogleMockServer,
  startGoogleMockServer,
} from "../providers/google/test-utils/google-mock-server.js";
import { runCli } from "./test-utils/run-cli.js";
import { useCliTestEnv } from "./test-utils/use-cli-test-env.js";

// `agentloop run --model google:…` as a process (dist/cli/main.js), against a local server speaking the Gemini
// API, pointed at with GOOGLE_BASE_URL.

const { workdir } = useCliTestEnv();

let server: GoogleMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Turn 1 calls the calculator; turn 2 answers (SYNTHETIC Gemini answers, in the recorded shape). */
async function calculatorServer(): Promise<GoogleMockServer> {
  return startGoogleMockServer([
    {
      response: geminiAnswer({
        parts: [{ functionCall: { name: "calculator", args: { expression: "6*7" } } }],
        responseId: "r1",
      }),
    },
    { response: geminiAnswer({ parts: [{ text: "6 times 7 is 42." }], responseId: "r2" }) },
  ]);
}

describe("agentloop run --model google:<id>", () => {
  it.each([
    ["streaming", [], ":streamGenerateContent?alt=sse"],
    ["--json (no streaming)", ["--json"], ":generateContent"],
  ] as const)("runs a tool round against GOOGLE_BASE_URL (%s)", async (_mode, flags, endpoint) => {
    server = await calculatorServer();
    const cwd = await workdir(`google-${flags.length}`);
    const { code, stdout, stderr } = await runCli({
      args: ["run", "--model", "google:gemini-2.5-flash", "--tools", "calculator", ...flags, "What is 6*7?"],
      env: { GOOGLE_BASE_URL: server.baseURL, GEMINI_API_KEY: "test-key" },
      cwd,
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("6 times 7 is 42.");
    expect(server.requests.map((request) => request.path)).toEqual([
      `/v1beta/models/gemini-2.5-flash${endpoint}`,
      `/v1beta/models/gemini-2.5-flash${endpoint}`,
    ]);
    expect(server.requests[0]?.headers["x-goog-api-key"]).toBe("test-key");
    const contents = (server.requests[1]?.body?.contents ?? []) as Array<{ parts: unknown[] }>;
    const results = contents[2]?.parts;
    expect(results).toEqual([{ functionResponse: { name: "calculator", response: { output: "42" } } }]);
  });

  it("a missing key names GEMINI_API_KEY (exit 3)", async () => {
    const { code, stderr } = await runCli({ args: ["run", "-m", "google:gemini-2.5-flash", "hello"] });
    expect(code).toBe(3);
    expect(stderr).toMatch(/^agentloop: error: GEMINI_API_KEY is not set/);
  });

  it("a bad GOOGLE_BASE_URL is a configuration error (exit 3)", async () => {
    const { code, stderr } = await runCli({
      args: ["run", "-m", "google:gemini-2.5-flash", "hello"],
      env: { GOOGLE_BASE_URL: "localhost:8080", GEMINI_API_KEY: "k" },
    });
    expect(code).toBe(3);
    expect(stderr).toContain("GOOGLE_BASE_URL must be an http(s) URL");
  });
});
