import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { StateStore } from "../stores/session-store.js";
import { randomUUID } from "../util/random-uuid.js";
import {
  type BudgetSlot,
  type BudgetWindow,
  readSlot,
  slotSpent,
  trimSlot,
  windowBounds,
  writeSlot,
} from "./budget-ledger.js";

export type { BudgetWindow } from "./budget-ledger.js";

/** A hold on part of a {@link Budget}, taken before a model call and settled with its actual cost after. */
export interface BudgetReservation {
  readonly amountUsd: number;
}

/**
 * What a run does with a shared budget: reserve before a model call, settle after it, record an unreserved
 * cost. A {@link Budget} is one; a durable run wraps it so that replayed calls are not charged again.
 */
export type BudgetCharges = Pick<Budget, "reserve" | "settle" | "record">;

/** Options of {@link Budget}. */
export interface BudgetOptions {
  /** The cap in USD (per window when `window` is set). */
  limitUsd: number;
  /** Already spent when this object is made (counted once, in the current window). Default 0. */
  spentUsd?: number;
  /**
   * Reset the cap every hour or day: `{ period: "day" }` (calendar: UTC midnight to midnight) or
   * `{ period: "hour", rolling: true }` (the last 60 minutes, in 1-minute steps). Default: no window.
   */
  window?: BudgetWindow;
  /**
   * Where the budget's spending is kept, so several processes (and Budget objects) share it: any
   * {@link StateStore} (Redis, PostgreSQL, file, or a `MemoryStateStore` shared by Budget objects of one
   * process). Default: none, this object keeps its totals itself (nothing is shared, nothing is copied).
   */
  store?: StateStore;
  /** The budget's name in the store (one per user, team…). Default `"budget"`. */
  key?: string;
  /**
   * A reservation still counts for other processes this long after its holder last wrote (a process that
   * died mid-call stops holding the budget then). Default 15 minutes.
   */
  reservationTtlMs?: number;
}

/** A budget's totals, read from its store. */
export interface BudgetUsage {
  spentUsd: number;
  reservedUsd: number;
  remainingUsd: number;
  /** The current window (ms since epoch); undefined without a window. */
  windowStart?: number;
  windowEnd?: number;
}

/** How many times a reservation that lost a race with another process is tried again. */
const CONTENDED_RETRIES = 3;

/**
 * A spending cap shared by many runs (e.g. a daily budget per user): `new Budget({ limitUsd: 5 })`, passed as
 * `new Agent({ budget })` or `agent.run(input, { budget })`. Before each model call a run reserves the call's
 * expected cost; if that does not fit, the run stops with `cost_limit`. After the call the reservation is
 * settled with the actual cost, so concurrent runs cannot together reserve more than the limit.
 *
 * With `window`, the cap applies per hour or day (calendar or rolling). With `store`, several processes share
 * it: each Budget object writes only its own record (`<key>:w:<id>`, listed in `<key>:writers`) and reads the
 * others' to add them up, reserving with write-then-read so two processes never both take the last of the
 * budget (see docs/cost.md for the exact guarantee).
 */
export class Budget {
  readonly limitUsd: number;
  readonly window: BudgetWindow | undefined;
  readonly key: string;
  /** Undefined: no other writer can exist, so the totals are kept here and nothing is written or read. */
  private readonly store: StateStore | undefined;
  private readonly id = randomUUID();
  private readonly ttlMs: number;
  private readonly slot: BudgetSlot = { updatedAt: 0, reserved: [], buckets: [] };
  private initialSpent: number;
  private registered = false;
  private others = { spent: 0, reserved: 0 };
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: BudgetOptions) {
    const { limitUsd, spentUsd = 0, window, store, key = "budget", reservationTtlMs = 900_000 } = options;
    const check = (argument: string, ok: boolean, value: unknown) => {
      if (!ok) throw new InvalidArgumentError({ argument, message: `got ${String(value)}` });
    };
    check("limitUsd", Number.isFinite(limitUsd) && limitUsd >= 0, limitUsd);
    check("spentUsd", Number.isFinite(spentUsd) && spentUsd >= 0, spentUsd);
    check("reservationTtlMs", Number.isFinite(reservationTtlMs) && reservationTtlMs > 0, reservationTtlMs);
    check("key", typeof key === "string" && key !== "", key);
    if (window !== undefined) {
      check("window.period", window.period === "hour" || window.period === "day", window.period);
    }
    this.limitUsd = limitUsd;
    this.window = window;
    this.key = key;
    this.store = store;
    this.ttlMs = reservationTtlMs;
    this.initialSpent = spentUsd;
  }

  /** USD spent in the current window, as of this object's last operation (exact for one process). */
  get spentUsd(): number {
    return (
      this.others.spent +
      slotSpent({ slot: this.slot, window: this.window, now: Date.now() }) +
      this.initialSpent
    );
  }

  /** USD still available: the limit minus what is spent and reserved (as of this object's last operation). */
  get remainingUsd(): number {
    return Math.max(0, this.limitUsd - this.spentUsd - this.others.reserved - this.ownReserved());
  }

  /** Reads the budget's totals from its store (every process's spending and reservations). */
  usage(): Promise<BudgetUsage> {
    if (this.store === undefined) return Promise.resolve(this.totals(Date.now()));
    return this.serial(async () => {
      const now = Date.now();
      await this.register(now);
      await this.readOthers(now);
      return this.totals(now);
    });
  }

  /** Reserves `amountUsd`, or resolves undefined when it does not fit. */
  reserve(amountUsd: number): Promise<BudgetReservation | undefined> {
    if (this.store === undefined) return Promise.resolve(this.reserveHere(amountUsd));
    return this.serial(async () => {
      for (let attempt = 0; ; attempt++) {
        const now = Date.now();
        await this.register(now);
        const reservation = { amountUsd };
        this.slot.reserved.push(amountUsd);
        await this.save(now);
        // Write, then read: of two processes reserving at once, at least one sees the other's reservation.
        await this.readOthers(now);
        const total = this.spentUsd + this.others.reserved + this.ownReserved();
        if (total <= this.limitUsd + 1e-12) return reservation;
        this.removeReservation(amountUsd);
        await this.save(Date.now());
        // Refused because of other processes' reservations (which may be released soon): try again briefly.
        if (this.others.reserved === 0 || attempt >= CONTENDED_RETRIES) return undefined;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * (attempt + 1)));
      }
    });
  }

  /** Releases a reservation and records the actual cost (0 when the call failed without usage). */
  settle(reservation: BudgetReservation, actualUsd: number): Promise<void> {
    const settle = (now: number) => {
      this.removeReservation(reservation.amountUsd);
      if (actualUsd > 0 && Number.isFinite(actualUsd)) this.addSpent(actualUsd, now);
    };
    if (this.store === undefined) {
      const now = Date.now();
      settle(now);
      this.commit(now);
      return Promise.resolve();
    }
    return this.serial(async () => {
      const now = Date.now();
      settle(now);
      await this.save(now);
    });
  }

  /**
   * Records a cost that was not reserved first (a summary call made while compacting the context): it counts
   * against the budget like any settled call, even when that takes the budget past its limit.
   */
  record(actualUsd: number): Promise<void> {
    if (!(actualUsd > 0 && Number.isFinite(actualUsd))) return Promise.resolve();
    if (this.store === undefined) {
      const now = Date.now();
      this.addSpent(actualUsd, now);
      this.commit(now);
      return Promise.resolve();
    }
    return this.serial(async () => {
      const now = Date.now();
      this.addSpent(actualUsd, now);
      await this.save(now);
    });
  }

  /** {@link reserve} without a store: the same arithmetic on this object's totals alone. */
  private reserveHere(amountUsd: number): BudgetReservation | undefined {
    const now = Date.now();
    this.commit(now);
    this.slot.reserved.push(amountUsd);
    const total = this.spentUsd + this.others.reserved + this.ownReserved();
    if (total <= this.limitUsd + 1e-12) return { amountUsd };
    this.removeReservation(amountUsd);
    return undefined;
  }

  /** The totals as of now: this object's, plus the other writers' as last read. */
  private totals(now: number): BudgetUsage {
    const spentUsd = this.spentUsd;
    const reservedUsd = this.others.reserved + this.ownReserved();
    const usage: BudgetUsage = {
      spentUsd,
      reservedUsd,
      remainingUsd: Math.max(0, this.limitUsd - spentUsd - reservedUsd),
    };
    if (this.window !== undefined) {
      const { start, end } = windowBounds({ window: this.window, now });
      usage.windowStart = start;
      usage.windowEnd = end;
    }
    return usage;
  }

  private ownReserved(): number {
    let total = 0;
    for (const amount of this.slot.reserved) total += amount;
    return total;
  }

  private removeReservation(amountUsd: number): void {
    const index = this.slot.reserved.indexOf(amountUsd);
    if (index >= 0) this.slot.reserved.splice(index, 1);
  }

  private addSpent(amountUsd: number, now: number): void {
    const { start } = windowBounds({ window: this.window, now, bucket: true });
    const last = this.slot.buckets.at(-1);
    if (last !== undefined && last[0] === start) last[1] += amountUsd;
    else this.slot.buckets.push([start, amountUsd]);
  }

  /** One operation at a time per object: its own record is then always written whole, in order. */
  private serial<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.queue.then(operation, operation);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private slotKey(id: string): string {
    return `${this.key}:w:${id}`;
  }

  /** Moves the initial spending into the record and drops the buckets that left the window. */
  private commit(now: number): void {
    if (this.initialSpent > 0) {
      this.addSpent(this.initialSpent, now);
      this.initialSpent = 0;
    }
    trimSlot({ slot: this.slot, window: this.window, now });
  }

  private async save(now: number): Promise<void> {
    this.commit(now);
    if (this.store === undefined) return;
    await writeSlot({
      store: this.store,
      key: this.slotKey(this.id),
      slot: this.slot,
      window: this.window,
      now,
    });
  }

  /** Lists this object in the budget's roster (once; again if another process's write dropped it). */
  private async register(now: number): Promise<void> {
    const store = this.store;
    if (this.registered || store === undefined) return;
    const writersKey = `${this.key}:writers`;
    const roster = await store.load(writersKey);
    const ids = Array.isArray(roster) ? roster.filter((id): id is string => typeof id === "string") : [];
    if (!ids.includes(this.id)) {
      await this.save(now);
      await store.save(writersKey, [...ids, this.id]);
    }
    this.registered = true;
  }

  /** Adds up the other writers' spending in the window and their live reservations. */
  private async readOthers(now: number): Promise<void> {
    const store = this.store;
    if (store === undefined) return;
    const writersKey = `${this.key}:writers`;
    const roster = await store.load(writersKey);
    const ids = Array.isArray(roster) ? roster.filter((id): id is string => typeof id === "string") : [];
    if (!ids.includes(this.id)) this.registered = false; // re-listed at the next operation
    const slots = await Promise.all(
      ids.filter((id) => id !== this.id).map((id) => readSlot({ store, key: this.slotKey(id) })),
    );
    let spent = 0;
    let reserved = 0;
    for (const slot of slots) {
      if (slot === undefined) continue;
      spent += slotSpent({ slot, window: this.window, now });
      if (now - slot.updatedAt <= this.ttlMs) for (const amount of slot.reserved) reserved += amount;
    }
    this.others = { spent, reserved };
  }
}
