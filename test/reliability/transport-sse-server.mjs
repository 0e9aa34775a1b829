// A small OpenAI-compatible SSE server for the early-break tests, usable in-process (`startSseServer`) and as
// a separate process (`node transport-sse-server.mjs` prints its port on stdout, exits when stdin closes).
// The request's `model` picks the behaviour:
// - "flood": a text delta every millisecond until the client goes away;
// - "complete": a whole short answer (20 deltas, finish_reason, [DONE]) in one write;
// - "stall-N": N deltas, then silence with the connection open;
// - "slow": 30 deltas, one every 10 ms, then the end.
import http from "node:http";

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

function answer(model, res) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(chunk({ role: "assistant", content: "" }));
  if (model === "complete") {
    let text = "";
    for (let i = 0; i < 20; i++) text += chunk({ content: `word${i} ` });
    res.end(`${text}${chunk({}, "stop")}data: [DONE]\n\n`);
    return;
  }
  const stall = /^stall-(\d+)$/.exec(model);
  if (stall) {
    for (let i = 0; i < Number(stall[1]); i++) res.write(chunk({ content: `word${i} ` }));
    return; // silence; the connection stays open until the client closes it
  }
  let i = 0;
  const limit = model === "slow" ? 30 : Number.POSITIVE_INFINITY;
  const timer = setInterval(
    () => {
      if (i >= limit) {
        clearInterval(timer);
        res.end(`${chunk({}, "stop")}data: [DONE]\n\n`);
        return;
      }
      res.write(chunk({ content: `word${i++} ` }));
    },
    model === "slow" ? 10 : 1,
  );
  res.on("close", () => clearInterval(timer));
}

/** Starts the server on 127.0.0.1 (a free port); resolves with its base URL and a close function. */
export async function startSseServer() {
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (part) => {
      body += part;
    });
    req.on("end", () => {
      let model = "flood";
      try {
        model = JSON.parse(body).model ?? model;
      } catch {}
      answer(model, res);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const { url, close } = await startSseServer();
  process.stdout.write(`${url}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => close().then(() => process.exit(0)));
}
