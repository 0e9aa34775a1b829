import type { JsonValue, StateStore } from "../stores/session-store.js";

/** The time window of a {@link Budget}: the cap applies per hour or per day. */
export interface BudgetWindow {
  period: "hour" | "day";
  /**
   * false (default): calendar windows in UTC (the hour from :00, the day from 00:00 UTC); the cap resets at the
   * boundary. true: the last hour / day, counted in steps of a sixtieth of the period (1 minute / 24 minutes).
   */
  rolling?: boolean;
}

/** One Budget object's record in the store: only that object writes it. */
export interface BudgetSlot {
  /** When it was last written (ms since epoch): its reservations expire after the budget's TTL. */
  updatedAt: number;
  /** Amounts reserved by calls in flight. */
  reserved: number[];
  /** Spending as `[bucketStart, usd]`, oldest first (one bucket without a window). */
  buckets: [number, number][];
}

const PERIOD_MS = { hour: 3_600_000, day: 86_400_000 } as const;
/** A rolling window is counted in this many buckets. */
const ROLLING_BUCKETS = 60;

/** The length of a window in ms. */
export function windowPeriodMs(window: BudgetWindow): number {
  return PERIOD_MS[window.period];
}

/**
 * The current window `[start, end)` at `now` (ms since epoch). With `bucket`, the start of the bucket spending
 * at `now` is recorded in (the window itself when calendar, 0 without a window).
 */
export function windowBounds({
  window,
  now,
  bucket = false,
}: {
  window: BudgetWindow | undefined;
  now: number;
  bucket?: boolean;
}): { start: number; end: number } {
  if (window === undefined) return { start: 0, end: Number.POSITIVE_INFINITY };
  const period = windowPeriodMs(window);
  if (window.rolling === true) {
    const step = period / ROLLING_BUCKETS;
    const current = Math.floor(now / step) * step;
    // Every bucket that overlaps the last `period` (the oldest one partly): spending leaves the window between
    // `period` and `period + step` after it happened, never before.
    return bucket
      ? { start: current, end: current + step }
      : { start: current - period, end: current + step };
  }
  const start = Math.floor(now / period) * period;
  return { start, end: start + period };
}

/** A slot's spending inside the window at `now`. */
export function slotSpent({
  slot,
  window,
  now,
}: {
  slot: BudgetSlot;
  window: BudgetWindow | undefined;
  now: number;
}): number {
  const { start } = windowBounds({ window, now });
  let total = 0;
  for (const [at, usd] of slot.buckets) if (at >= start) total += usd;
  return total;
}

/** Drops a slot's buckets that left the window at `now` and stamps it with `now`. */
export function trimSlot({
  slot,
  window,
  now,
}: {
  slot: BudgetSlot;
  window: BudgetWindow | undefined;
  now: number;
}): void {
  const { start } = windowBounds({ window, now });
  while (slot.buckets.length > 0 && (slot.buckets[0]?.[0] ?? start) < start) slot.buckets.shift();
  slot.updatedAt = now;
}

/** Writes a slot, first dropping buckets that left the window ({@link trimSlot}). */
export async function writeSlot({
  store,
  key,
  slot,
  window,
  now,
}: {
  store: StateStore;
  key: string;
  slot: BudgetSlot;
  window: BudgetWindow | undefined;
  now: number;
}): Promise<void> {
  trimSlot({ slot, window, now });
  const value: JsonValue = {
    v: 1,
    updatedAt: slot.updatedAt,
    reserved: [...slot.reserved],
    buckets: slot.buckets.map(([at, usd]) => [at, usd]),
  };
  await store.save(key, value);
}

/** Reads another object's slot; undefined when absent or unreadable (it then counts as nothing). */
export async function readSlot({
  store,
  key,
}: {
  store: StateStore;
  key: string;
}): Promise<BudgetSlot | undefined> {
  const value = await store.load(key);
  if (value === undefined || value === null || typeof value !== "object" || Array.isArray(value))
    return undefined;
  const { updatedAt, reserved, buckets } = value;
  if (typeof updatedAt !== "number" || !Array.isArray(reserved) || !Array.isArray(buckets)) return undefined;
  const slot: BudgetSlot = { updatedAt, reserved: [], buckets: [] };
  for (const amount of reserved)
    if (typeof amount === "number" && Number.isFinite(amount)) slot.reserved.push(amount);
  for (const entry of buckets) {
    if (!Array.isArray(entry)) continue;
    const [at, usd] = entry;
    if (typeof at === "number" && typeof usd === "number" && Number.isFinite(usd))
      slot.buckets.push([at, usd]);
  }
  return slot;
}
