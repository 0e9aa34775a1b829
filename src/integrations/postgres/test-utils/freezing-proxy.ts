import { type AddressInfo, connect, createServer, type Socket } from "node:net";

/** A running {@link startFreezingProxy}. */
export interface FreezingProxy {
  /** The local port to connect to (on 127.0.0.1). */
  port: number;
  /** From now on, nothing the server sends reaches the clients: a server that stopped answering. */
  freeze(): void;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 to `127.0.0.1:<target>` that can freeze (after `freeze()` the server's replies are
 * dropped), for testing that a client gives up on a server that stalls after the connection was made.
 */
export async function startFreezingProxy({ target }: { target: number }): Promise<FreezingProxy> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const server = createServer((client) => {
    const upstream = connect(target, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(socket);
      });
    }
    client.on("data", (chunk) => upstream.write(chunk));
    upstream.on("data", (chunk) => {
      if (!frozen) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
