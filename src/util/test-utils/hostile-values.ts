// Values a careless or hostile tool, hook or model may throw: shared by the normaliser's unit tests and the
// loop's boundary tests.

/** Throws whenever it is called: a getter or Proxy trap that refuses to be read. */
export const trap = (): never => {
  throw new Error("trap");
};

/** A Proxy handler whose every trap throws (also `apply`/`construct`, for function targets). */
export const EVERY_TRAP: ProxyHandler<object> = {
  get: trap,
  set: trap,
  has: trap,
  ownKeys: trap,
  getPrototypeOf: trap,
  setPrototypeOf: trap,
  getOwnPropertyDescriptor: trap,
  defineProperty: trap,
  deleteProperty: trap,
  isExtensible: trap,
  preventExtensions: trap,
  apply: trap,
  construct: trap,
};

/** An Error whose `stack`, `message` and `name` getters throw. */
export function errorWithThrowingGetters(message = "hidden"): Error {
  const error = new Error(message);
  for (const key of ["stack", "message", "name"]) Object.defineProperty(error, key, { get: trap });
  return error;
}
