/**
 * The structured-output fixtures of `test/fixtures/recorded/anthropic-messages/`, replayed by
 * `anthropic-structured-output.test.ts` (the conformance suite counts them as covered).
 */
export const ANTHROPIC_OUTPUT_FIXTURES: readonly string[] = [
  "stream-structured-output.request.json",
  "stream-structured-output.sse",
];
