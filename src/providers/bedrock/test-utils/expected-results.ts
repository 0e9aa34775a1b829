import type { ModelResponse } from "../../../models/model.js";

/** The folded answer each success fixture must produce (values read off the files by hand). */
export type Expected = Omit<ModelResponse, "raw">;

const endTurn = { unified: "stop", raw: "end_turn" } as const;
const toolUse = { unified: "tool_calls", raw: "tool_use" } as const;
const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
});

/** The reasoning of `converse-stream-reasoning.eventstream`, from its 14 `reasoningContent.text` deltas. */
const STREAM_REASONING =
  'The user has greeted me with a simple "Hello". I should respond in a friendly and welcoming manner. This is a straightforward greeting, so I\'ll respond warmly and ask how I can help them today.';
/** Its signature, sent whole in one `reasoningContent.signature` delta. */
const STREAM_SIGNATURE =
  "Eu0CCkgIBxABGAIqQJDccbDQkr81n7QjZ0Fi43umSvw0YvnGkMPEpaGAa2btYHyWw06KhwckvsnKzpKcxiRJT35meoG4/pdrTUiy2UISDPDaEWfOl3+HlRVsCxoMzfiqBp252RMvpmEyIjCbQ97Ac9Epkr5mgxeu1vGtJg+fDWIg0UnpMM8NYknhhvJmsXpYrfquwGL1ZnlBslUq0gHtbAAPwlWPmiQXU7gDQCDW9IdMVyw42b4f5MrAlpWkPWOJc9H+yYv0TpP/jY72SD1opqwkWnBgkzbi7A2jPmEFzIMQSO1KDXha5ADqQ3cLYMmVdNTSH9wlM7G7/JJ2/cqowqkwD6/q1AnYzcPte9iC67fY1LYN0NMCOSABFojP1rmkv9YBEulx5Y6eQpeVXBQiIqcGoCmWSumpGBskS1KxGerUmzUB0JmJnTENv4x3fSGSUSEPqMiz6Ebao8sVkb1wCWuZEXWJGtiQLMIm1o471iEYAQ==";
const STREAM_REASONING_ANSWER = "Hello! It's nice to meet you. How can I help you today?";

const JSON_REASONING = "Let me count the r's in \"strawberry\":\n\ns-t-r-a-w-b-e-r-r-y\n\nThere are 3 r's.";
const JSON_SIGNATURE =
  "EvYBCkgICxABGAIqQA9E9VC377UnbjdfXCw4RwQaaIXsqocZKzI3WwWtXT/wBjzAkBOfIiVkP/mhvsPGb5oQW/2j+E1tZcNFoXIb26YSDBTSbDrbHwXJoAl3/hoMA/Qo4rIHvObP/yBrIjAT+l69mh9k7evFO+w+ransSD5YGq4hYrieOyJH3k/zHv8nBJwiz3Nlrb3jNFi2Ib0qXJH7BIK0hR85yYIoccReoJUpeLEMxeWbsO6f0EpOSMSi3YDLd1U9NAw7Itjeay1fEBPHwvawt2M4e/rn52SsuEz3p2DfOZm+N3bnL63rg0Cb9lFcp3k5kuU1h6hcGAE=";
const JSON_REASONING_ANSWER = 'There are **3** r\'s in "strawberry":\n\n1. st**r**awbe**r****r**y';

/** Streamed fixtures → their folded result. */
export const STREAM_EXPECTED: Record<string, Expected> = {
  "converse-stream-text-then-tool-use.eventstream": {
    text: '<thinking> To find the temperature of the capital of France, I need to first determine the capital of France and then get the current temperature in that city. The capital of France is Paris. I will use the "get_temperature" tool to find the current temperature in Paris.</thinking>\n',
    toolCalls: [
      {
        id: "tooluse_lAG_zP8QRHmSYOwZzzaCqA",
        name: "get_temperature",
        arguments: { city: "Paris" },
        rawArguments: '{"city":"Paris"}',
      },
    ],
    usage: usage(471, 91),
    finishReason: toolUse,
  },
  "converse-stream-reasoning.eventstream": {
    text: STREAM_REASONING_ANSWER,
    toolCalls: [],
    usage: usage(36, 73),
    finishReason: endTurn,
    reasoning: STREAM_REASONING,
    providerData: {
      bedrock: {
        content: [
          { reasoningContent: { reasoningText: { text: STREAM_REASONING, signature: STREAM_SIGNATURE } } },
          { text: STREAM_REASONING_ANSWER },
        ],
      },
    },
  },
  "converse-stream-empty-text-delta.eventstream": {
    // The empty first block adds nothing; the unsigned reasoning is shown but not kept to be sent back.
    text: "Hello! How can I help you today?",
    toolCalls: [],
    usage: usage(70, 43),
    finishReason: endTurn,
    reasoning:
      'The user just says "Hi". We need to respond appropriately, friendly greeting. No special instructions. Should be short.',
  },
  "converse-stream-text.chunks.txt": {
    text: 'Let me count the "r"s in "strawberry":\n\ns-t-**r**-a-w-b-e-**r**-**r**-y\n\nThere are **3** r\'s in "strawberry."',
    toolCalls: [],
    usage: usage(22, 55),
    finishReason: endTurn,
  },
};

/** Non-streaming fixtures → their parsed result (without `raw`). */
export const NONSTREAM_EXPECTED: Record<string, Expected> = {
  "converse-tool-use.json": {
    text: "",
    toolCalls: [
      {
        id: "tooluse_Ru34XPGTGs2bBXFsZqCHgo",
        name: "report_result",
        arguments: { value: "ok" },
        rawArguments: '{"value":"ok"}',
      },
    ],
    // cacheReadInputTokens and its duplicate cacheReadInputTokenCount are both 0: read once.
    usage: { ...usage(931, 46), cachedInputTokens: 0 },
    finishReason: toolUse,
  },
  "converse-reasoning.json": {
    text: JSON_REASONING_ANSWER,
    toolCalls: [],
    usage: { ...usage(51, 78), cachedInputTokens: 0, cacheWriteTokens: 0 },
    finishReason: endTurn,
    reasoning: JSON_REASONING,
    providerData: {
      bedrock: {
        content: [
          { reasoningContent: { reasoningText: { signature: JSON_SIGNATURE, text: JSON_REASONING } } },
          { text: JSON_REASONING_ANSWER },
        ],
      },
    },
  },
};

/** Error fixtures (served with their recorded status and headers). */
export const ERROR_FIXTURES = ["error-400-validation.json"];

/** Request fixtures (compared with what the provider sends). */
export const REQUEST_FIXTURES = ["converse-stream-text-then-tool-use.request.json"];
