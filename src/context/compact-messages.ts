import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Message } from "../models/message.js";
import { compactionMarkerText, parseCompactionMarker, placeCompactionMarker } from "./compaction-marker.js";
import { splitUnits, type TurnUnit } from "./group-turns.js";
import { countMessages, TOKEN_OVERHEAD, type TokenCounter } from "./token-counter.js";
import { truncateToolResult } from "./truncate-tool-result.js";

/** Tokens by which the running estimate may exceed the exact count (the marker's size is an upper bound). */
const ESTIMATE_SLACK = 4;

/** Options of {@link compactMessages}. */
export interface CompactMessagesOptions {
  messages: readonly Message[];
  counter: TokenCounter;
  /** Maximum tokens for the messages (as {@link countMessages} counts them); tool definitions already subtracted. */
  budget: number;
  /** Keep at least this many latest messages when possible (they are truncated/removed last). Default 6. */
  keepLastMessages?: number;
  /** Tool results are truncated to this many characters (older ones first). Default 2,000. */
  truncateToolResultsTo?: number;
}

/** The result of {@link compactMessages}. */
export interface CompactionResult {
  /** The compacted history: a new array; unchanged message objects are reused, not copied. */
  messages: Message[];
  /** The removed messages, oldest first, as they were before any truncation (what a summary should cover). */
  removed: Message[];
  /** How many kept tool results were truncated. */
  truncated: number;
  /** Tokens of the input history. */
  tokensBefore: number;
  /** Tokens of the result. */
  tokensAfter: number;
  /** Whether the result is within `budget`. False when even the minimum that must be kept is larger. */
  fits: boolean;
}

/**
 * Makes a history fit `budget` tokens with a sliding window, without ever producing an invalid history.
 * A history that already fits is returned as is (in a new array). Otherwise, step by step until it fits:
 *
 * 1. truncate tool results older than the last `keepLastMessages` messages to `truncateToolResultsTo`
 *    characters, oldest first (new message objects, with a `[… N more characters truncated …]` note);
 * 2. remove whole units (see `groupTurns`: a tool round goes with all its results) from the oldest, outside
 *    the last `keepLastMessages` messages;
 * 3. truncate the remaining, recent tool results, oldest first;
 * 4. remove recent units from the oldest.
 *
 * Never removed: the leading system messages (pinned — a running summary lives there too), the latest user
 * message and the last unit (what the model answers next). Once anything was removed, one marker
 * `[N earlier messages removed to fit the context window]` (N counts earlier compactions too) sits right after
 * the system messages: merged into the first kept message when that is a user message (so two user messages
 * never follow each other), else as a stand-alone user message (so the first non-system message is always
 * `user`). An earlier marker is replaced, not repeated.
 *
 * `fits` is false when even system messages + marker + latest user message + last unit, with every tool
 * result truncated, exceed the budget; the result is then that minimum, and the caller reports the overflow.
 */
export function compactMessages(options: CompactMessagesOptions): CompactionResult {
  const { messages, counter, budget, keepLastMessages = 6, truncateToolResultsTo = 2000 } = options;
  if (typeof budget !== "number" || Number.isNaN(budget)) invalid("budget", budget);
  if (!Number.isInteger(keepLastMessages) || keepLastMessages < 0) {
    invalid("keepLastMessages", keepLastMessages);
  }
  if (!Number.isInteger(truncateToolResultsTo) || truncateToolResultsTo < 1) {
    invalid("truncateToolResultsTo", truncateToolResultsTo);
  }
  const tokensBefore = countMessages({ counter, messages });
  if (tokensBefore <= budget) {
    const unchanged = messages.slice();
    return {
      messages: unchanged,
      removed: [],
      truncated: 0,
      tokensBefore,
      tokensAfter: tokensBefore,
      fits: true,
    };
  }

  let pinnedEnd = 0;
  while (pinnedEnd < messages.length && messages[pinnedEnd]!.role === "system") pinnedEnd++;
  const pinned = messages.slice(0, pinnedEnd);
  // The history after the system messages, with an earlier marker taken out (its count carries over).
  const body = messages.slice(pinnedEnd);
  const earlier = body[0] === undefined ? undefined : parseCompactionMarker(body[0]);
  const priorRemoved = earlier?.removed ?? 0;
  if (earlier?.original !== undefined) body[0] = earlier.original;
  else if (earlier !== undefined) body.shift();

  const units = splitUnits(body, 0);
  const state: AssemblyState = {
    pinned,
    body,
    current: body.slice(),
    units,
    dropped: units.map(() => false),
    priorRemoved,
  };
  const unitTokens = units.map((unit) => sumTokens(counter, state.current, unit));
  let latestUser = -1;
  for (let u = units.length - 1; u >= 0 && latestUser < 0; u--) {
    if (units[u]!.kind === "user") latestUser = u;
  }
  const isProtected = (u: number) => u === latestUser || u === units.length - 1;
  const windowStart = body.length - keepLastMessages;
  const inWindow = (u: number) => units[u]!.end > windowStart;

  // A running estimate, so that only candidates near the budget are assembled and counted exactly.
  const fixedTokens = countMessages({ counter, messages: pinned });
  const markerTokens =
    counter.countText(`${compactionMarkerText(priorRemoved + body.length)}\n\n`) +
    TOKEN_OVERHEAD.message +
    TOKEN_OVERHEAD.role +
    1;
  let keptTokens = unitTokens.reduce((sum, tokens) => sum + tokens, 0);
  let removedCount = 0;
  const estimate = () => fixedTokens + keptTokens + (priorRemoved + removedCount > 0 ? markerTokens : 0);

  /** Truncates the unit's tool results where that saves tokens; true when something changed. */
  const truncate = (u: number): boolean => {
    const unit = units[u]!;
    let changed = false;
    for (let i = unit.start; i < unit.end; i++) {
      const message = state.current[i]!;
      if (message.role !== "tool") continue;
      const shorter = truncateToolResult({ message, maxChars: truncateToolResultsTo });
      const saved = counter.countMessage(message) - counter.countMessage(shorter);
      if (shorter === message || saved <= 0) continue;
      state.current[i] = shorter;
      unitTokens[u]! -= saved;
      keptTokens -= saved;
      changed = true;
    }
    return changed;
  };
  const drop = (u: number): boolean => {
    state.dropped[u] = true;
    keptTokens -= unitTokens[u]!;
    removedCount += units[u]!.end - units[u]!.start;
    return true;
  };
  const assemble = () => assembleResult({ state, counter, budget, tokensBefore });
  // The estimate can be a few tokens high (the marker's size is bounded, not known): near the budget, count.
  const fitting = (): CompactionResult | undefined => {
    if (estimate() > budget + ESTIMATE_SLACK) return undefined;
    const candidate = assemble();
    return candidate.fits ? candidate : undefined;
  };

  const steps: [applies: (u: number) => boolean, apply: (u: number) => boolean][] = [
    [(u) => !inWindow(u), truncate],
    [(u) => !inWindow(u) && !isProtected(u), drop],
    [(u) => inWindow(u), truncate],
    [(u) => inWindow(u) && !isProtected(u), drop],
  ];
  let result = fitting();
  for (const [applies, apply] of steps) {
    for (let u = 0; u < units.length && result === undefined; u++) {
      if (!state.dropped[u] && applies(u) && apply(u)) result = fitting();
    }
  }
  // Nothing smaller fits: the minimum, with `fits` from its exact count.
  return result ?? assemble();
}

function invalid(argument: string, value: unknown): never {
  throw new InvalidArgumentError({ argument, message: `got ${String(value)}` });
}

function sumTokens(counter: TokenCounter, messages: readonly Message[], unit: TurnUnit): number {
  let tokens = 0;
  for (let i = unit.start; i < unit.end; i++) tokens += counter.countMessage(messages[i]!);
  return tokens;
}

/** Where compaction stands: the original body, its current (possibly truncated) messages, what was dropped. */
interface AssemblyState {
  pinned: Message[];
  /** The messages after the pinned ones, an earlier marker taken out. */
  body: Message[];
  /** `body` with truncated tool results swapped in. */
  current: Message[];
  units: TurnUnit[];
  dropped: boolean[];
  /** Messages earlier compactions removed (from their marker). */
  priorRemoved: number;
}

/** Builds the compacted history from the kept units and counts it exactly. */
function assembleResult({
  state,
  counter,
  budget,
  tokensBefore,
}: {
  state: AssemblyState;
  counter: TokenCounter;
  budget: number;
  tokensBefore: number;
}): CompactionResult {
  const { pinned, body, current, units, dropped, priorRemoved } = state;
  const kept: Message[] = [];
  const removed: Message[] = [];
  let truncated = 0;
  units.forEach((unit, u) => {
    for (let i = unit.start; i < unit.end; i++) {
      if (dropped[u]) {
        removed.push(body[i]!);
      } else {
        kept.push(current[i]!);
        if (current[i] !== body[i]) truncated++;
      }
    }
  });
  const totalRemoved = priorRemoved + removed.length;
  if (totalRemoved > 0) {
    const { marker, replacesFirst } = placeCompactionMarker({ removed: totalRemoved, first: kept[0] });
    if (replacesFirst) kept[0] = marker;
    else kept.unshift(marker);
  }
  const compacted = [...pinned, ...kept];
  const tokensAfter = countMessages({ counter, messages: compacted });
  return { messages: compacted, removed, truncated, tokensBefore, tokensAfter, fits: tokensAfter <= budget };
}
