import fc from "fast-check";
import { createToolCall, type Message } from "../../models/message.js";

/** Text of a random size: a repeated fragment (cheap to build even when huge) or a short random string. */
export const textArbitrary = (maxRepeat: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom("lorem ipsum ", "数据分析 ", '{"id":42,"ok":true} ', "x = f(y);\n", "Привет мир "),
          fc.integer({ min: 0, max: maxRepeat }),
        )
        .map(([fragment, repeat]) => fragment.repeat(repeat)),
    },
  );

type Step =
  | { kind: "user"; content: string }
  | { kind: "answer"; content: string }
  | { kind: "tools"; content: string; results: { name: string; args: string; content: string }[] };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 1, arbitrary: textArbitrary(60).map((content): Step => ({ kind: "user", content })) },
  { weight: 1, arbitrary: textArbitrary(60).map((content): Step => ({ kind: "answer", content })) },
  {
    weight: 4,
    arbitrary: fc
      .record({
        content: fc.oneof(fc.constant(""), textArbitrary(10)),
        results: fc.array(
          fc.record({
            name: fc.constantFrom("search", "read_file", "get_weather"),
            args: fc.constantFrom("{}", '{"q":"x"}', '{"path":"/tmp/a.txt","lines":[1,200]}'),
            // Tool results range from empty to huge (~20,000 characters).
            content: fc.oneof(
              { weight: 3, arbitrary: textArbitrary(40) },
              { weight: 1, arbitrary: textArbitrary(2000) },
            ),
          }),
          { minLength: 1, maxLength: 3 },
        ),
      })
      .map((tools): Step => ({ kind: "tools", ...tools })),
  },
);

/**
 * A random valid history: 0–2 system messages, then a user message, then a random sequence of user
 * messages, plain assistant answers and tool rounds (an assistant message with 1–3 calls followed by all
 * their results). An assistant message never follows another one (a user message is inserted after a plain
 * answer when needed), as in histories the loop builds.
 */
export const historyArbitrary: fc.Arbitrary<Message[]> = fc
  .tuple(
    fc.array(textArbitrary(80), { maxLength: 2 }),
    textArbitrary(30),
    fc.array(stepArbitrary, { minLength: 0, maxLength: 40 }),
  )
  .map(([systems, firstUser, steps]) => {
    const messages: Message[] = systems.map((content) => ({ role: "system", content }));
    messages.push({ role: "user", content: firstUser });
    let callId = 0;
    for (const step of steps) {
      const previous = messages[messages.length - 1]!;
      if (step.kind === "user") {
        messages.push({ role: "user", content: step.content });
        continue;
      }
      if (previous.role === "assistant") messages.push({ role: "user", content: "continue" });
      if (step.kind === "answer") {
        messages.push({ role: "assistant", content: step.content });
        continue;
      }
      const calls = step.results.map((result) =>
        createToolCall({ id: `call_${callId++}`, name: result.name, rawArguments: result.args }),
      );
      messages.push({ role: "assistant", content: step.content, toolCalls: calls });
      step.results.forEach((result, index) => {
        messages.push({
          role: "tool",
          toolCallId: calls[index]!.id,
          toolName: result.name,
          content: result.content,
        });
      });
    }
    return messages;
  });
