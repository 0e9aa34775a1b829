/**
 * The structured-output fixtures of `test/fixtures/recorded/openai-chat/`, replayed by
 * `openai-chat-structured-output.test.ts` (the conformance suite counts them as covered).
 */
export const CHAT_OUTPUT_FIXTURES: readonly string[] = [
  "nonstream-structured-output.json",
  "nonstream-structured-output.request.json",
  "stream-structured-output.sse",
];
