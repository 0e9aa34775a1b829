// The early-break scenarios shared by the in-test runs and the child-process run against the built package:
// many runs through the public Agent/createOpenAI API, each stopped early at a different point (a break after
// 0..3 deltas, an abort of the caller's signal after some deltas or during a silent stall), on a server
// behaviour picked per run (see transport-sse-server.mjs). Plain JS, so a child process can run it with node.

const MODELS = ["flood", "complete", "stall-0", "stall-1", "stall-3", "slow"];

/**
 * Runs `runs` early-stopped streams and returns how each ended. Rejects when one does not settle within
 * `settleMs` (a hang).
 * @param {{ Agent: any, createOpenAI: any, baseURL: string, fetch?: typeof globalThis.fetch, runs: number, settleMs?: number }} options
 */
export async function runEarlyBreaks({ Agent, createOpenAI, baseURL, fetch, runs, settleMs = 5_000 }) {
  const provider = createOpenAI({ baseURL, apiKey: "sk-test", ...(fetch !== undefined && { fetch }) });
  const outcomes = {};
  for (let n = 0; n < runs; n++) {
    const model = MODELS[n % MODELS.length];
    const how = Math.floor(n / MODELS.length) % 3; // 0: break, 1: abort after deltas, 2: abort on a timer
    const after = n % 4; // deltas before stopping (0: at the first event)
    const agent = new Agent({ model: provider(model) });
    const controller = new AbortController();
    const stream = agent.stream("hi", { signal: controller.signal });
    const timer = setTimeout(() => controller.abort(new Error("stop")), how === 2 ? n % 25 : 40);
    const consume = (async () => {
      let deltas = 0;
      for await (const event of stream) {
        if (how === 0 && after === 0) break;
        if (event.type !== "text_delta" || ++deltas < after) continue;
        if (how === 0) break;
        if (how === 1) controller.abort(new Error("stop"));
      }
      return stream.result;
    })();
    let hang;
    const result = await Promise.race([
      consume,
      new Promise((resolve) => {
        hang = setTimeout(() => resolve(undefined), settleMs);
      }),
    ]);
    clearTimeout(hang);
    clearTimeout(timer);
    if (result === undefined)
      throw new Error(`run ${n} (${model}, how ${how}, after ${after}) did not settle`);
    outcomes[result.stopReason] = (outcomes[result.stopReason] ?? 0) + 1;
  }
  return outcomes;
}

/** A fetch that drops the caller's signal (as some wrappers do): only the transport can stop its reads. */
export const fetchIgnoringSignal = (url, init) => globalThis.fetch(url, { ...init, signal: undefined });
