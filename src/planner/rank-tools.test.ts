import { describe, expect, it } from "vitest";
import { tool } from "../tools/tool.js";
import { rankTools, tokenize } from "./rank-tools.js";

const make = (name: string, description: string) =>
  tool({ name, description, parameters: { type: "object", properties: {} }, execute: () => "ok" });

describe("tokenize", () => {
  it("splits names, drops stopwords, singularises and pairs CJK characters", () => {
    expect(tokenize("getWeather for the cities")).toEqual(["weather", "city"]);
    expect(tokenize("send_email forecasts class")).toEqual(["send", "email", "forecast", "class"]);
    expect(tokenize("北京天气")).toEqual(["北京", "京天", "天气"]);
    expect(tokenize("天")).toEqual(["天"]);
  });
});

describe("rankTools", () => {
  const tools = [
    make("send_email", "Send an email to a recipient"),
    make("get_weather", "Current weather and forecast for a city"),
    make("calculator", "Evaluate an arithmetic expression"),
    make("translate", "Translate text between languages"),
  ];

  it("returns every tool in order when there are no more than the limit", () => {
    expect(rankTools({ query: "weather", tools, limit: 4 })).toEqual(tools);
  });

  it("keeps the most relevant tools, most relevant first, ties in original order", () => {
    const names = (query: string, limit: number) => rankTools({ query, tools, limit }).map((t) => t.name);
    expect(names("What's the weather forecast in Paris?", 1)).toEqual(["get_weather"]);
    expect(names("translate this email", 2).sort()).toEqual(["send_email", "translate"]);
    expect(names("nothing relevant at all", 2)).toEqual(["send_email", "get_weather"]);
  });

  it("is deterministic", () => {
    const a = rankTools({ query: "email the weather", tools, limit: 2 });
    const b = rankTools({ query: "email the weather", tools, limit: 2 });
    expect(a).toEqual(b);
  });

  it("matches Chinese queries against Chinese descriptions", () => {
    const zh = [make("a", "发送电子邮件"), make("b", "查询城市的天气预报"), make("c", "计算数学表达式")];
    expect(rankTools({ query: "北京明天天气怎么样", tools: zh, limit: 1 }).map((t) => t.name)).toEqual(["b"]);
  });
});
