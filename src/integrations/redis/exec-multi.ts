import type { ChainableCommander } from "ioredis";

/** Runs the commands of a MULTI and returns their results, throwing the first command error. */
export async function execMulti(multi: ChainableCommander): Promise<unknown[]> {
  const replies = await multi.exec();
  if (replies === null) throw new Error("the transaction was aborted");
  return replies.map(([error, result]) => {
    if (error !== null) throw error;
    return result;
  });
}
