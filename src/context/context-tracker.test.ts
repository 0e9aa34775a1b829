import { describe, expect, it } from "vitest";
import { createToolCall, type Message } from "../models/message.js";
import { CALIBRATION_LIMITS, ContextTracker } from "./context-tracker.js";
import { createEstimatingCounter } from "./create-estimating-counter.js";
import { CalibrationRegistry } from "./token-calibration.js";
import { countMessages, type TokenCounter } from "./token-counter.js";

/** Wraps a counter and counts the `countMessage` calls. */
function wrapped(inner: TokenCounter = createEstimatingCounter()) {
  const stats = { countMessage: 0 };
  const counter: TokenCounter = {
    encoding: inner.encoding,
    exact: inner.exact,
    countText: (text) => inner.countText(text),
    countMessage: (message) => {
      stats.countMessage++;
      return inner.countMessage(message);
    },
    countTools: (tools) => inner.countTools(tools),
  };
  return { counter, stats };
}

function turn(i: number): Message[] {
  const call = createToolCall({ id: `call_${i}`, name: "search", rawArguments: `{"q":"query ${i}"}` });
  return [
    { role: "user", content: `Question number ${i}: what is ${i} squared?` },
    { role: "assistant", content: "", toolCalls: [call] },
    { role: "tool", toolCallId: call.id, toolName: "search", content: `result ${i} `.repeat(i % 7) },
  ];
}

describe("ContextTracker", () => {
  it("after N appends the total equals a full recount", () => {
    const { counter } = wrapped();
    const tracker = new ContextTracker({ counter });
    const messages: Message[] = [{ role: "system", content: "You are terse." }];
    for (let i = 0; i < 50; i++) {
      messages.push(...turn(i));
      expect(tracker.measure(messages)).toBe(countMessages({ counter, messages }));
    }
  });

  it("costs O(new messages) per append: counts each message once", () => {
    const { counter, stats } = wrapped();
    const tracker = new ContextTracker({ counter });
    const messages: Message[] = [{ role: "system", content: "You are terse." }];
    tracker.measure(messages);
    expect(stats.countMessage).toBe(1);
    for (let i = 0; i < 200; i++) {
      const before = stats.countMessage;
      messages.push(...turn(i));
      tracker.measure(messages);
      expect(stats.countMessage - before).toBe(3);
    }
    // Measuring again without appending counts nothing.
    const before = stats.countMessage;
    tracker.measure(messages);
    expect(stats.countMessage).toBe(before);
  });

  it("recounts once when the array is replaced, shrunk, or its last counted message changed", () => {
    const inner = createEstimatingCounter();
    const { counter, stats } = wrapped(inner);
    const tracker = new ContextTracker({ counter });
    const messages: Message[] = [...turn(1), ...turn(2)];
    tracker.measure(messages);

    // A different array: recount.
    let before = stats.countMessage;
    const copy = messages.slice();
    expect(tracker.measure(copy)).toBe(countMessages({ counter: inner, messages: copy }));
    expect(stats.countMessage - before).toBe(copy.length);

    // Shrunk in place.
    copy.length = 2;
    before = stats.countMessage;
    expect(tracker.measure(copy)).toBe(countMessages({ counter: inner, messages: copy }));
    expect(stats.countMessage - before).toBe(2);

    // Same length, but the last counted message was replaced (then one appended).
    copy[1] = { role: "assistant", content: "a different answer, longer than before" };
    copy.push({ role: "user", content: "and?" });
    before = stats.countMessage;
    expect(tracker.measure(copy)).toBe(countMessages({ counter: inner, messages: copy }));
    expect(stats.countMessage - before).toBe(3);

    // reset() forgets the counted prefix.
    tracker.reset();
    before = stats.countMessage;
    expect(tracker.measure(copy)).toBe(countMessages({ counter: inner, messages: copy }));
    expect(stats.countMessage - before).toBe(3);
  });

  it("calibration learns an undercount at once and an overcount slowly (no 2x clamp)", () => {
    const { counter } = wrapped();
    const tracker = new ContextTracker({ counter });
    const messages: Message[] = turn(3);
    const raw = tracker.measure(messages);
    expect(tracker.calibrated).toBe(false);
    // llama.cpp reported 2.7-3.8x the estimate: the first observation is taken as it is.
    tracker.calibrate({ estimated: raw, actual: raw * 3.5 });
    expect(tracker.calibrated).toBe(true);
    expect(tracker.factor).toBeCloseTo(3.5, 10);
    expect(Math.abs(tracker.measure(messages) - raw * 3.5)).toBeLessThanOrEqual(1);
    // A larger count is learned at once; a smaller one by a fifth per observation.
    tracker.calibrate({ estimated: tracker.measure(messages), actual: raw * 3.8 });
    expect(tracker.factor).toBeCloseTo(3.8, 1);
    const before = tracker.factor;
    tracker.calibrate({ estimated: tracker.measure(messages), actual: raw * 2.8 });
    expect(tracker.factor).toBeCloseTo(before - 0.2 * (before - 2.8), 1);
    // Repeated observations of the same ratio converge on it.
    for (let i = 0; i < 40; i++) {
      tracker.calibrate({ estimated: tracker.measure(messages), actual: raw * 1.2 });
    }
    expect(Math.abs(tracker.factor - 1.2)).toBeLessThan(0.02);
  });

  it("shares a model's calibration between trackers through a registry", () => {
    const registry = new CalibrationRegistry();
    const key = { provider: "openai", modelId: "llama", encoding: "estimate" };
    const first = new ContextTracker({ counter: createEstimatingCounter(), calibration: registry.for(key) });
    first.calibrate({ estimated: 100, actual: 350 });
    const next = new ContextTracker({ counter: createEstimatingCounter(), calibration: registry.for(key) });
    expect(next.factor).toBeCloseTo(3.5, 10);
    expect(next.calibrated).toBe(true);
    const other = registry.for({ ...key, modelId: "other" });
    expect(other.factor).toBe(1);
    // Saved and restored (e.g. across processes).
    const restored = new CalibrationRegistry(JSON.parse(JSON.stringify(registry)));
    expect(restored.for(key).factor).toBeCloseTo(3.5, 10);
    expect(restored.for(key).observations).toBe(1);
  });

  it("clamps the factor and ignores nonsense", () => {
    const { counter } = wrapped();
    const tracker = new ContextTracker({ counter });
    for (let i = 0; i < 10; i++) tracker.calibrate({ estimated: 100, actual: 10_000 });
    expect(tracker.factor).toBe(CALIBRATION_LIMITS.max);
    for (let i = 0; i < 60; i++) tracker.calibrate({ estimated: 10_000, actual: 1 });
    expect(tracker.factor).toBeCloseTo(CALIBRATION_LIMITS.min, 3);
    const fresh = new ContextTracker({ counter });
    fresh.calibrate({ estimated: 10_000, actual: 1 });
    expect(fresh.factor).toBe(CALIBRATION_LIMITS.min);
    const factor = tracker.factor;
    tracker.calibrate({ estimated: 0, actual: 100 });
    tracker.calibrate({ estimated: 100, actual: 0 });
    tracker.calibrate({ estimated: Number.NaN, actual: 100 });
    tracker.calibrate({ estimated: 100, actual: Number.POSITIVE_INFINITY });
    expect(tracker.factor).toBe(factor);
  });

  it("keeps the calibration across reset()", () => {
    const { counter } = wrapped();
    const tracker = new ContextTracker({ counter });
    tracker.calibrate({ estimated: 100, actual: 150 });
    const factor = tracker.factor;
    tracker.reset();
    expect(tracker.factor).toBe(factor);
  });
});
