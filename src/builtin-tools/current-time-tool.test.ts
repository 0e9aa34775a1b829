import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { ToolContext } from "../tools/tool.js";
import { currentTimeTool } from "./current-time-tool.js";

const ctx: ToolContext = { signal: new AbortController().signal, toolCallId: "call", turn: 1 };
const now = (): Date => new Date("2024-03-01T12:34:56.000Z");

describe("current_time", () => {
  it("describes a fixed instant in the given time zone", async () => {
    const time = await currentTimeTool({ now }).execute({ timeZone: "America/New_York" }, ctx);
    expect(time).toEqual({
      iso: "2024-03-01T12:34:56.000Z",
      timeZone: "America/New_York",
      localIso: "2024-03-01T07:34:56-05:00",
      weekday: "Friday",
      local: expect.stringMatching(/^Friday, March 1, 2024 at 7:34:56\sAM EST$/),
    });
  });

  it("uses the default time zone, and UTC offsets across midnight", async () => {
    const tool = currentTimeTool({ now, defaultTimeZone: "Asia/Tokyo" });
    expect(await tool.execute({}, ctx)).toMatchObject({
      timeZone: "Asia/Tokyo",
      localIso: "2024-03-01T21:34:56+09:00",
      weekday: "Friday",
    });
    const late = currentTimeTool({ now: () => new Date("2024-03-01T23:30:00Z"), defaultTimeZone: "UTC" });
    expect(await late.execute({}, ctx)).toMatchObject({ localIso: "2024-03-01T23:30:00+00:00" });
    expect(await late.execute({ timeZone: "Pacific/Kiritimati" }, ctx)).toMatchObject({
      localIso: "2024-03-02T13:30:00+14:00",
      weekday: "Saturday",
    });
  });

  it("falls back to the system time zone", async () => {
    const time = await currentTimeTool({ now }).execute({}, ctx);
    expect(time.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it("reports an unknown time zone clearly", () => {
    const tool = currentTimeTool({ now });
    expect(() => tool.execute({ timeZone: "Mars/Olympus_Mons" }, ctx)).toThrow(InvalidArgumentError);
    expect(() => tool.execute({ timeZone: "Mars/Olympus_Mons" }, ctx)).toThrow(
      /Invalid timeZone: unknown time zone "Mars\/Olympus_Mons"; use an IANA name/,
    );
    expect(() => currentTimeTool({ defaultTimeZone: "Nowhere" })).toThrow(/Invalid defaultTimeZone/);
  });
});
