/**
 * The prompt size a provider's context-overflow error states, for servers that say it:
 * - llama.cpp: "request (538 tokens) exceeds the available context size (512 tokens)";
 * - OpenAI / vLLM: "However, you requested 5000 tokens (4500 in the messages, 500 in the completion)" (the
 *   messages part when given);
 * - Anthropic: "prompt is too long: 210000 tokens > 200000 maximum".
 */
const PATTERNS: readonly RegExp[] = [
  /\brequest \((\d+) tokens\) exceeds/i,
  /\b(\d+) in the messages\b/i,
  /\byou requested (\d+) tokens\b/i,
  /\bprompt is too long: (\d+) tokens\b/i,
];

/**
 * The number of input tokens a context-length error says the refused request had, or undefined when the
 * message does not say. Used to learn the provider's count from the refusal itself (see docs/context.md).
 */
export function reportedRequestTokens(message: string): number | undefined {
  for (const pattern of PATTERNS) {
    const match = pattern.exec(message);
    const tokens = match?.[1] === undefined ? Number.NaN : Number(match[1]);
    if (Number.isSafeInteger(tokens) && tokens > 0) return tokens;
  }
  return undefined;
}
