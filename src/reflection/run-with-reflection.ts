import type { Agent } from "../agent.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { AgentResult } from "../loop/agent-result.js";
import type { Model } from "../models/model.js";
import { parseCritique } from "./parse-critique.js";

/** Options of {@link runWithReflection}. */
export interface RunWithReflectionOptions {
  /** The agent that acts (each round is a fresh `agent.run`). */
  agent: Agent;
  /** The task. */
  input: string;
  /** Stop once a round scores at least this (0–10). Default 8. */
  targetScore?: number;
  /** At most this many act-critique rounds. Default 3. */
  maxRounds?: number;
  /** The model that critiques (default: the agent's model). */
  critic?: Model;
  /** Replaces the critic's instructions (it must still answer with `{"score": n, "feedback": "..."}`). */
  criticInstructions?: string;
  signal?: AbortSignal;
}

/** One act-critique round. */
export interface ReflectionRound {
  text: string;
  /** The critic's score, 0–10 (0 when its answer could not be read). */
  score: number;
  feedback: string;
  /** The agent run that produced `text`. */
  result: AgentResult;
}

/** What {@link runWithReflection} returns: the best answer and every round. */
export interface ReflectionResult {
  /** The best round's answer. */
  text: string;
  best: ReflectionRound;
  rounds: ReflectionRound[];
}

const DEFAULT_INSTRUCTIONS =
  "You are a strict reviewer. Judge how well the answer accomplishes the task: correctness, completeness, " +
  'clarity. Reply with only a JSON object: {"score": <integer 0-10>, "feedback": "<what to fix, concretely>"}.';

function redoPrompt({ input, previous }: { input: string; previous: ReflectionRound }): string {
  return (
    `${input}\n\nA previous attempt answered:\n${previous.text}\n\nA reviewer scored it ${previous.score}/10 and said:\n` +
    `${previous.feedback}\n\nWrite an improved answer that addresses the feedback.`
  );
}

/**
 * Act → critique → redo: runs `agent` on `input`, asks `critic` for a score (0–10) and feedback, and runs again
 * with the feedback until a round reaches `targetScore` or `maxRounds` run out. Returns the best round (the
 * later one on a tie) and every round. Each round is a fresh agent run; a critic answer that is not the
 * expected JSON scores 0 with its text as feedback (a critic failure rejects).
 */
export async function runWithReflection(options: RunWithReflectionOptions): Promise<ReflectionResult> {
  if (typeof options !== "object" || options === null || !("agent" in options) || !("input" in options)) {
    throw new InvalidArgumentError({
      argument: "options",
      message:
        "runWithReflection takes one options object since agentloop 0.2: runWithReflection({ agent, input, ... })",
    });
  }
  const { agent, input: task } = options;
  const targetScore = options.targetScore ?? 8;
  const maxRounds = options.maxRounds ?? 3;
  if (!Number.isInteger(maxRounds) || maxRounds < 1) {
    throw new InvalidArgumentError({
      argument: "maxRounds",
      message: `expected a positive integer, got ${maxRounds}`,
    });
  }
  if (!(targetScore >= 0 && targetScore <= 10)) {
    throw new InvalidArgumentError({ argument: "targetScore", message: `expected 0-10, got ${targetScore}` });
  }
  const critic = options.critic ?? agent.model;
  const rounds: ReflectionRound[] = [];
  let best: ReflectionRound | undefined;
  for (let round = 0; round < maxRounds; round++) {
    const input = best === undefined ? task : redoPrompt({ input: task, previous: rounds.at(-1) ?? best });
    const result = await agent.run(input, options.signal === undefined ? {} : { signal: options.signal });
    const review = await critic.generate(
      {
        messages: [
          { role: "system", content: options.criticInstructions ?? DEFAULT_INSTRUCTIONS },
          { role: "user", content: `Task:\n${task}\n\nAnswer:\n${result.text}` },
        ],
        temperature: 0,
      },
      options.signal === undefined ? {} : { signal: options.signal },
    );
    const { score, feedback } = parseCritique(review.text);
    const current: ReflectionRound = { text: result.text, score, feedback, result };
    rounds.push(current);
    if (best === undefined || current.score >= best.score) best = current;
    if (current.score >= targetScore) break;
  }
  if (best === undefined) throw new Error("unreachable: at least one round runs");
  return { text: best.text, best, rounds };
}
