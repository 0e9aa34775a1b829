import { createBedrock } from "../../src/providers/bedrock/create-bedrock.js";
import {
  signatureProblem,
  TEST_CREDENTIALS,
} from "../../src/providers/bedrock/test-utils/bedrock-test-model.js";
import {
  type ConverseFault,
  converseAnswer,
} from "../../src/providers/bedrock/test-utils/converse-answer.js";
import { startFixtureServer } from "../../src/providers/openai/test-utils/fixture-server.js";
import type { Backend, Turn } from "./fault-backends.js";

// Amazon Bedrock's Converse API behind the byte-level fixture server: JSON answers, or AWS event streams
// (binary frames with CRCs) on /converse-stream. Every request must carry a valid SigV4 signature: a request
// the server cannot verify fails the case.

export type { ConverseFault as BedrockFault } from "../../src/providers/bedrock/test-utils/converse-answer.js";

function converseTurn(turn: Turn) {
  return "lookup" in turn
    ? {
        text: "Checking.",
        toolCalls: [{ id: `tooluse_${turn.lookup}`, name: "lookup", input: { word: turn.lookup } }],
      }
    : { text: turn.text };
}

/** The Bedrock Converse API (`createBedrock()`) behind the byte-level fixture server. */
export const bedrockBackend: Backend = {
  name: "bedrock",
  async start({ answers, timeoutMs, maxRetries, stream }) {
    const server = await startFixtureServer(
      answers.map((answer) =>
        converseAnswer({
          turn: converseTurn(answer.turn),
          stream,
          fault:
            answer.fault !== undefined && "bedrock" in answer.fault
              ? (answer.fault.bedrock as ConverseFault)
              : undefined,
        }),
      ),
    );
    const provider = createBedrock({
      baseURL: server.baseURL,
      region: "us-east-1",
      credentials: TEST_CREDENTIALS,
      timeoutMs,
      retry: { baseDelayMs: 1, maxRetries },
    });
    return {
      model: provider("us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
      requestCount: () => {
        const problem = server.requests.map(signatureProblem).find((p) => p !== undefined);
        if (problem !== undefined) throw new Error(`a request was not validly signed: ${problem}`);
        return server.requests.length;
      },
      requestBody: (index) => server.requests[index]?.rawBody ?? "",
      close: () => server.close(),
    };
  },
};
