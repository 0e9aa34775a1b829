/**
 * Deadlines on one shared timer. A run sets several timeouts per turn (the request, its body, each tool call)
 * and clears almost all of them well before they fire; a Node timer per timeout costs a timer list made and
 * torn down each time (~8 µs per pair, measured in bench/profile.mjs). Here a deadline is one heap entry, a
 * cancel only marks it, and one timer is armed for the earliest live deadline. The timer holds the process
 * open only while some deadline is live, as a timer per timeout would. The timer is taken from the global
 * `setTimeout` when armed: fake timers installed before the first deadline work; fake timers installed while a
 * timer armed under real ones is pending take over once it fires.
 */

/** A deadline set by {@link setDeadline}. */
export interface Deadline {
  /** Stops the deadline from firing (a no-op once it fired or was cancelled). */
  cancel(): void;
}

/** Options of {@link setDeadline}. */
export interface SetDeadlineOptions {
  /** Milliseconds from now. */
  ms: number;
  /** Called once when the deadline passes, unless cancelled before. */
  onExpire: () => void;
}

class Entry implements Deadline {
  constructor(
    readonly at: number,
    public onExpire: (() => void) | undefined,
  ) {}

  cancel(): void {
    if (this.onExpire === undefined) return;
    this.onExpire = undefined;
    live--;
    if (live === 0) timer?.unref?.();
    else if (heap.length > 1024 && heap.length > 4 * live) compact();
  }
}

/** The longest delay a Node timer takes (longer ones fire at once, with a warning). */
const MAX_TIMER_MS = 2_147_483_647;

/** Min-heap of entries by `at` (cancelled ones stay until they reach the top or a compaction). */
let heap: Entry[] = [];
let live = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
/** The deadline the timer is armed for (`Infinity`: not armed). */
let armedAt = Number.POSITIVE_INFINITY;

function less(a: Entry, b: Entry): boolean {
  return a.at < b.at;
}

function push(entry: Entry): void {
  heap.push(entry);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const up = heap[parent] as Entry;
    if (!less(entry, up)) break;
    heap[i] = up;
    i = parent;
  }
  heap[i] = entry;
}

function pop(): Entry | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (top === undefined || last === undefined || heap.length === 0) return top;
  let i = 0;
  const n = heap.length;
  while (true) {
    const left = 2 * i + 1;
    if (left >= n) break;
    const right = left + 1;
    const child = right < n && less(heap[right] as Entry, heap[left] as Entry) ? right : left;
    if (!less(heap[child] as Entry, last)) break;
    heap[i] = heap[child] as Entry;
    i = child;
  }
  heap[i] = last;
  return top;
}

/** Drops cancelled entries (many long deadlines cancelled early would otherwise pile up). */
function compact(): void {
  const kept = heap.filter((entry) => entry.onExpire !== undefined);
  heap = [];
  for (const entry of kept) push(entry);
}

/** Arms the timer for the earliest live deadline (dropping cancelled ones from the top). */
function arm(): void {
  while (heap.length > 0 && (heap[0] as Entry).onExpire === undefined) pop();
  const next = heap[0];
  if (next === undefined) {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    armedAt = Number.POSITIVE_INFINITY;
    return;
  }
  if (timer !== undefined && armedAt <= next.at) return;
  if (timer !== undefined) clearTimeout(timer);
  armedAt = next.at;
  timer = setTimeout(expire, Math.min(MAX_TIMER_MS, Math.max(0, next.at - Date.now())));
  if (live === 0) timer.unref?.();
}

function expire(): void {
  timer = undefined;
  // Everything the timer was armed for is due, even if the clock went back since.
  const now = Math.max(Date.now(), armedAt);
  armedAt = Number.POSITIVE_INFINITY;
  const due: Array<() => void> = [];
  while (heap.length > 0 && (heap[0] as Entry).at <= now) {
    const entry = pop() as Entry;
    if (entry.onExpire === undefined) continue;
    due.push(entry.onExpire);
    entry.onExpire = undefined;
    live--;
  }
  arm();
  for (const onExpire of due) onExpire();
}

/**
 * Calls `onExpire` once `ms` milliseconds have passed, unless the returned deadline is cancelled first. The
 * callback runs from a timer: it must not throw (an exception there is uncaught, as from `setTimeout`).
 */
export function setDeadline({ ms, onExpire }: SetDeadlineOptions): Deadline {
  const entry = new Entry(Date.now() + ms, onExpire);
  live++;
  push(entry);
  if (live === 1) timer?.ref?.();
  if (entry.at < armedAt) arm();
  return entry;
}
