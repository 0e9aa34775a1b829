import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { type Tool, tool } from "../tools/tool.js";

/** Options of {@link currentTimeTool}. */
export interface CurrentTimeToolOptions {
  /** The clock. Default `() => new Date()`; pass a fixed date in tests. */
  now?: () => Date;
  /** The IANA time zone used when the model gives none. Default the system's time zone. */
  defaultTimeZone?: string;
}

/** Arguments of the `current_time` tool. */
export interface CurrentTimeArgs extends Record<string, unknown> {
  /** An IANA time zone such as `"Europe/Paris"`. Default the tool's `defaultTimeZone`. */
  timeZone?: string;
}

/** The result of the `current_time` tool (sent to the model as JSON). */
export interface CurrentTime {
  /** The instant in UTC, e.g. `"2024-03-01T12:00:00.000Z"`. */
  iso: string;
  /** The time zone used. */
  timeZone: string;
  /** The local date and time with its offset, e.g. `"2024-03-01T13:00:00+01:00"`. */
  localIso: string;
  /** The local weekday, e.g. `"Friday"`. */
  weekday: string;
  /** The local time for people, e.g. `"Friday, March 1, 2024 at 1:00:00 PM GMT+1"`. */
  local: string;
}

function checkTimeZone(argument: string, timeZone: string): void {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch (error) {
    throw new InvalidArgumentError({
      argument,
      message: `unknown time zone ${JSON.stringify(timeZone)}; use an IANA name such as "Europe/Paris", "America/New_York" or "UTC"`,
      cause: error,
    });
  }
}

/** Describes `date` in `timeZone` (already checked). */
function describeTime({ date, timeZone }: { date: Date; timeZone: string }): CurrentTime {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "long",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZoneName: "longOffset",
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((p) => p.type === type)?.value ?? "";
  const offset = part("timeZoneName").replace(/^GMT/, "") || "+00:00";
  const localIso = `${part("year")}-${part("month")}-${part("day")}T${part("hour")}:${part("minute")}:${part("second")}${offset}`;
  return {
    iso: date.toISOString(),
    timeZone,
    localIso,
    weekday: part("weekday"),
    local: new Intl.DateTimeFormat("en-US", { timeZone, dateStyle: "full", timeStyle: "long" }).format(date),
  };
}

/**
 * Creates the `current_time` tool: the current instant as an ISO timestamp, plus the weekday, the local date
 * and time with its offset, and a readable form in an IANA time zone (the model's `timeZone`, else
 * `defaultTimeZone`, else the system's). An unknown time zone is reported to the model as an
 * `InvalidArgumentError`; an invalid `defaultTimeZone` throws {@link InvalidArgumentError} here.
 */
export function currentTimeTool(options: CurrentTimeToolOptions = {}): Tool<CurrentTimeArgs, CurrentTime> {
  const { now = () => new Date(), defaultTimeZone } = options;
  if (typeof now !== "function")
    throw new InvalidArgumentError({ argument: "now", message: "expected a function" });
  if (defaultTimeZone !== undefined) checkTimeZone("defaultTimeZone", defaultTimeZone);
  return tool<CurrentTimeArgs, CurrentTime>({
    name: "current_time",
    description:
      "Returns the current date and time: an ISO timestamp (UTC), the weekday and the local time in an IANA " +
      'time zone (e.g. "Europe/Paris"; default ' +
      (defaultTimeZone === undefined ? "the server's time zone" : JSON.stringify(defaultTimeZone)) +
      ").",
    parameters: {
      type: "object",
      properties: {
        timeZone: {
          type: "string",
          minLength: 1,
          maxLength: 100,
          description: 'IANA time zone name, e.g. "America/New_York", "Asia/Tokyo" or "UTC"',
        },
      },
      additionalProperties: false,
    },
    execute: ({ timeZone }) => {
      const zone = timeZone ?? defaultTimeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
      checkTimeZone("timeZone", zone);
      const date = now();
      if (!(date instanceof Date) || Number.isNaN(date.getTime()))
        throw new Error("The clock returned an invalid date");
      return describeTime({ date, timeZone: zone });
    },
  });
}
