/**
 * A small, mixed corpus for measuring the token estimator against gpt-tokenizer: prose in several scripts,
 * code, JSON tool results, logs, identifiers and noise. Test-only (excluded from the build).
 */
export const TOKEN_CORPUS: Readonly<Record<string, string>> = {
  englishProse:
    "The quarterly report shows that revenue grew by twelve percent compared with the same period last year, " +
    "driven mostly by the new subscription plans. Operating costs stayed flat, although the team hired four " +
    "engineers and moved to a larger office in March. The board asked for a forecast of the next two quarters " +
    "and for a short explanation of why churn increased among small customers. Customer support tickets fell " +
    "after the redesign of the onboarding flow, which suggests that the changes made in January were worth it.",
  englishChat:
    "Hi! Could you help me plan a three-day trip to Lisbon in early May? I'd like to see the old town, eat " +
    "good seafood, and maybe take a day trip to Sintra. I'm not a fan of crowded tourist traps, so any hidden " +
    "gems would be great. Also, what's the best way to get from the airport to the city centre?",
  englishTechnical:
    "To configure the retry policy, pass `retry: { maxAttempts: 4, baseDelayMs: 250 }` to the client. " +
    "Requests that fail with HTTP 429 or 5xx are retried with exponential backoff and full jitter; the " +
    "Retry-After header, when present, overrides the computed delay. Streams that already delivered a part " +
    "are never retried by the transport, because the consumer has seen partial output.",
  typescript: `export async function loadConfig(path: string): Promise<Config> {
  const text = await readFile(path, "utf8");
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null) {
    throw new InvalidArgumentError({ argument: "path", message: \`\${path} is not a JSON object\` });
  }
  const { timeoutMs = 30_000, retries = 2, endpoints = [] } = parsed as Partial<Config>;
  return { timeoutMs, retries, endpoints: endpoints.map((url) => new URL(url).toString()) };
}`,
  python: `def moving_average(values: list[float], window: int = 5) -> list[float]:
    if window <= 0:
        raise ValueError("window must be positive")
    result = []
    total = 0.0
    for index, value in enumerate(values):
        total += value
        if index >= window:
            total -= values[index - window]
        result.append(total / min(index + 1, window))
    return result`,
  jsonToolResult: JSON.stringify({
    results: [
      {
        id: 4812,
        title: "Quarterly revenue report",
        author: "m.silva",
        score: 0.92,
        tags: ["finance", "q3"],
      },
      { id: 4813, title: "Churn analysis for SMB", author: "j.okafor", score: 0.87, tags: ["analytics"] },
      {
        id: 5120,
        title: "Office move checklist",
        author: "a.novak",
        score: 0.41,
        tags: ["ops", "facilities"],
      },
    ],
    total: 3,
    nextCursor: null,
    tookMs: 38,
  }),
  prettyJson: JSON.stringify(
    {
      location: "Lisbon, PT",
      current: { temperatureC: 21.4, humidity: 0.63, wind: { speedKmh: 14, direction: "NW" } },
      forecast: [
        { day: "2025-05-02", minC: 14, maxC: 23, summary: "partly cloudy" },
        { day: "2025-05-03", minC: 15, maxC: 25, summary: "sunny" },
      ],
    },
    null,
    2,
  ),
  markdown: `## Installation

1. Install the package: \`npm install agentloop\`
2. Set \`OPENAI_API_KEY\` in your environment.
3. Run the example with \`node examples/demo.mjs\`.

| option | default | meaning |
|---|---|---|
| maxTurns | 20 | stop after this many model calls |
| timeoutMs | 120000 | abort the whole run after this long |`,
  logLines: `2025-11-21T14:03:12.481Z INFO  http  GET /api/v1/users/8812 200 12ms
2025-11-21T14:03:12.902Z WARN  db    slow query (812ms): SELECT * FROM orders WHERE user_id = $1
2025-11-21T14:03:13.015Z ERROR queue job 5f3a9c2e failed: ECONNRESET after 3 attempts
2025-11-21T14:03:13.420Z INFO  http  POST /api/v1/orders 201 48ms`,
  numbers: "3.14159 2.71828 1.41421 42 1024 65536 0.001 -17.5 1e-9 299792458 6.02214076e23 12,345,678.90",
  identifiers:
    "getUserById fetchOrderHistory MAX_RETRY_COUNT snake_case_name kebab-case-name XMLHttpRequest " +
    "parseISODateString __internal_cache_key__ i18nResourceBundle",
  url: "https://api.example.com/v2/search?q=token%20counting&lang=en-US&page=3&per_page=50#results",
  hex: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 e3b0c44298fc1c149afbf4c8996fb924",
  base64: "U29tZSBiaW5hcnkgZGF0YSBlbmNvZGVkIGFzIGJhc2U2NCBmb3IgdGhlIHRva2VuaXplciB0ZXN0IGNvcnB1cy4=",
  german:
    "Die Verhandlungen zwischen den Tarifparteien wurden am Donnerstag ohne Ergebnis abgebrochen. Beide " +
    "Seiten kündigten an, die Gespräche in der kommenden Woche fortzusetzen, sofern neue Vorschläge vorliegen.",
  french:
    "Le conseil municipal a approuvé jeudi soir le projet de rénovation de la gare, qui prévoit une nouvelle " +
    "passerelle piétonne, des quais élargis et un parking à vélos sécurisé de quatre cents places.",
  spanish:
    "El equipo presentó ayer los resultados del estudio, que muestran una mejora notable en la calidad del " +
    "agua del río después de la instalación de las nuevas plantas de tratamiento.",
  russian:
    "Вчера вечером в городе прошёл сильный дождь, и несколько улиц в центре были временно перекрыты. " +
    "Городские службы работали всю ночь, чтобы восстановить движение к утру.",
  greek:
    "Η συνάντηση των υπουργών ολοκληρώθηκε χωρίς συμφωνία, αλλά οι συζητήσεις θα συνεχιστούν την επόμενη εβδομάδα.",
  chinese:
    "今天下午，公司召开了季度总结会议。会议指出，本季度销售额同比增长百分之十二，主要得益于新推出的订阅服务。" +
    "管理层要求各部门在下周五之前提交下一季度的工作计划。",
  japanese:
    "昨日、東京で開かれた国際会議では、気候変動への対策について活発な議論が行われました。" +
    "参加者は、再生可能エネルギーの導入を加速する必要性を強調しました。",
  korean:
    "오늘 오후 회의에서는 다음 분기 마케팅 전략에 대해 논의했습니다. 팀은 새로운 고객층을 확보하기 위해 온라인 광고를 늘리기로 했습니다.",
  arabic: "أعلنت الشركة اليوم عن إطلاق منتج جديد يهدف إلى تحسين تجربة المستخدمين في المدن الكبرى.",
  hindi: "कल शाम शहर में भारी बारिश हुई और कई सड़कों पर पानी भर गया, जिससे यातायात प्रभावित हुआ।",
  emoji: "Great job team 🎉🎉 the release is out 🚀 — thanks everyone 🙏 see you at the retro 😄👍",
  mixed:
    "User asked: 请把这个函数改成异步的 (make it async). Assistant: Sure — here is `async function load()` " +
    "with await readFile(...). Привет from the Moscow office 👋",
  whitespaceHeavy:
    "    if (x) {\n        return y;\n    }\n\n\n    // TODO: handle the error case\n\t\tvalue = compute(a,  b,   c);\n",
  shortAnswer: "Yes.",
};
