// Context counting cost per turn: ContextTracker.measure (incremental) vs a naive full recount.
//
// Simulates a 1,000-turn conversation; each turn appends a user message, an assistant tool-call message and
// its tool result, then measures the history. Every 100 turns it prints, averaged over those 100 turns:
//   - tracker: median µs per measure() and countMessage calls per append (should stay flat: 3 per turn),
//   - recount: median µs to sum countMessage over the whole history (cached counts: O(history) lookups),
// and, once per 100 turns, the cost of re-encoding the whole history without any cache.
//
// Imports the repo's build: run `npm run build` first, then `node bench/context-counting.mjs [modelId]`.
// The default model id, gpt-4o-mini, uses gpt-tokenizer's o200k_base; pass e.g. claude-sonnet-4-5 for the
// estimating counter.

import { performance } from "node:perf_hooks";
import { ContextTracker, loadTokenCounter } from "../dist/context/public.js";

const TURNS = 1000;
const REPORT_EVERY = 100;
const modelId = process.argv[2] ?? "gpt-4o-mini";

const inner = await loadTokenCounter({ modelId });
let countMessageCalls = 0;
const counter = {
  encoding: inner.encoding,
  exact: inner.exact,
  countText: (text) => inner.countText(text),
  countMessage: (message) => {
    countMessageCalls++;
    return inner.countMessage(message);
  },
  countTools: (tools) => inner.countTools(tools),
};

function turn(i) {
  const id = `call_${i}`;
  const city = ["Lisbon", "Paris", "Tokyo", "Nairobi"][i % 4];
  return [
    {
      role: "user",
      content: `Turn ${i}: what is the weather in ${city} today, and should I take an umbrella?`,
    },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id, name: "get_weather", arguments: { city }, rawArguments: JSON.stringify({ city }) }],
    },
    {
      role: "tool",
      toolCallId: id,
      toolName: "get_weather",
      content: JSON.stringify({ city, temperatureC: 10 + (i % 20), rain: i % 3 === 0, wind: "12 km/h NW" }),
    },
  ];
}

function naiveRecount(messages) {
  let total = 0;
  for (const message of messages) total += inner.countMessage(message);
  return total;
}

function uncachedRecount(messages) {
  let total = 0;
  for (const message of messages) {
    total += inner.countText(message.content);
    for (const call of message.toolCalls ?? []) {
      total += inner.countText(call.name) + inner.countText(call.rawArguments);
    }
  }
  return total;
}

const messages = [{ role: "system", content: "You are a concise weather assistant." }];
const tracker = new ContextTracker({ counter });
tracker.measure(messages);

console.log(`counter: ${counter.encoding} (exact: ${counter.exact}), ${TURNS} turns of 3 messages`);
console.log(
  "turn  messages  tokens   tracker µs/append  countMessage/append  recount µs (cached)  recount ms (uncached)",
);

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
let trackerMicros = [];
let recountMicros = [];
let calls = 0;
for (let i = 1; i <= TURNS; i++) {
  messages.push(...turn(i));

  const callsBefore = countMessageCalls;
  let start = performance.now();
  const tokens = tracker.measure(messages);
  trackerMicros.push((performance.now() - start) * 1000);
  calls += countMessageCalls - callsBefore;

  start = performance.now();
  const recounted = naiveRecount(messages);
  recountMicros.push((performance.now() - start) * 1000);
  if (recounted + 3 !== tokens) throw new Error(`tracker ${tokens} != recount ${recounted + 3}`);

  if (i % REPORT_EVERY === 0) {
    start = performance.now();
    uncachedRecount(messages);
    const uncachedMs = performance.now() - start;
    console.log(
      [
        String(i).padStart(4),
        String(messages.length).padStart(9),
        String(tokens).padStart(7),
        median(trackerMicros).toFixed(1).padStart(19),
        (calls / REPORT_EVERY).toFixed(1).padStart(20),
        median(recountMicros).toFixed(1).padStart(20),
        uncachedMs.toFixed(2).padStart(22),
      ].join(" "),
    );
    trackerMicros = [];
    recountMicros = [];
    calls = 0;
  }
}
