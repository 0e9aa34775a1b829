/**
 * The structured-output fixtures of `test/fixtures/recorded/openai-responses/`, replayed by
 * `openai-responses-structured-output.test.ts` (the conformance suite counts them as covered).
 */
export const RESPONSES_OUTPUT_FIXTURES: readonly string[] = [
  "stream-structured-output.request.json",
  "stream-structured-output.sse",
];
