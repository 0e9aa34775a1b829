// A producer in a process of its own, on the BUILT package (dist/, reached through the package's
// self-reference "agentloop/queue"), for queue-steering.test.ts: sends one message to a run and prints
// `queue.send`'s result as JSON. Env: QUEUE_PREFIX, QUEUE_NAME, RUN_ID, MESSAGE. Prints "ready" once loaded and
// sends when its stdin ends (the package's import can take seconds on a loaded machine: the test waits for it
// before it starts the run the message is for).
import { createAgentQueue } from "agentloop/queue";

const env = process.env;
const queue = createAgentQueue({
  connection: { host: "127.0.0.1", port: 6379 },
  prefix: env.QUEUE_PREFIX,
  name: env.QUEUE_NAME,
});
process.stdout.write("ready\n");
await new Promise((resolve) => process.stdin.on("end", resolve).resume());
try {
  process.stdout.write(JSON.stringify(await queue.send(env.RUN_ID ?? "", env.MESSAGE ?? "")));
} finally {
  await queue.close();
}
