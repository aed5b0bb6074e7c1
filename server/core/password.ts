/**
 * Password hashing with argon2id. The native addon (npm:@node-rs/argon2)
 * runs off the main thread; where native addons cannot load (Deno Deploy, no
 * `--allow-ffi`) the same PHC strings are produced and verified by a
 * WebAssembly build (npm:hash-wasm), chosen automatically.
 *
 * @module
 */

import type { Logger } from "../http/logger.ts";

/**
 * Hashes and verifies passwords. `createAuth` takes one, so tests can count
 * verifications and apps can bring their own.
 *
 * @example Counting verifications around the real hasher
 * ```ts
 * import { argon2Hasher, type PasswordHasher } from "@gatehouse/server";
 *
 * const real = argon2Hasher();
 * let verifications = 0;
 * const counting: PasswordHasher = {
 *   hash: (password) => real.hash(password),
 *   verify: (hash, password) => {
 *     verifications++;
 *     return real.verify(hash, password);
 *   },
 *   needsRehash: (hash) => real.needsRehash(hash),
 * };
 * ```
 */
export interface PasswordHasher {
  /** Hashes `password` into a self-describing (PHC) string. */
  hash(password: string): Promise<string>;
  /** Whether `password` matches `hash`; false for a malformed hash. */
  verify(hash: string, password: string): Promise<boolean>;
  /** Whether `hash` was made with other parameters than the current ones. */
  needsRehash(hash: string): boolean;
}

/** Options of {@linkcode argon2Hasher}. */
export interface Argon2Options {
  /** Memory in KiB; at least OWASP's 19456 (the default). */
  memoryCost?: number;
  /** Passes; at least 2 (the default). */
  timeCost?: number;
  /** Lanes; 1 by default. */
  parallelism?: number;
  /** `auto` (default) tries native first, then WebAssembly. */
  backend?: "auto" | "native" | "wasm";
  /** Told once when `auto` falls back to WebAssembly. */
  logger?: Logger;
}

/** The argon2id parameters of a hasher. */
export interface Argon2Params {
  /** Memory in KiB. */
  memoryCost: number;
  /** Passes. */
  timeCost: number;
  /** Lanes. */
  parallelism: number;
}

/** OWASP's minimum recommendation for argon2id (m=19 MiB, t=2, p=1). */
export const OWASP_ARGON2ID: Readonly<Argon2Params> = Object.freeze({
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
});

interface Backend {
  name: "native" | "wasm";
  hash(password: string, params: Argon2Params): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

const ARGON2ID_VERSION = 2; // @node-rs/argon2's Algorithm.Argon2id (a const enum)

async function loadNative(): Promise<Backend> {
  const native = await import("@node-rs/argon2");
  return {
    name: "native",
    hash: (password, params) =>
      native.hash(password, {
        ...params,
        algorithm: ARGON2ID_VERSION,
        outputLen: 32,
      }),
    verify: (hash, password) => native.verify(hash, password),
  };
}

async function loadWasm(): Promise<Backend> {
  const wasm = await import("hash-wasm");
  return {
    name: "wasm",
    hash: (password, params) =>
      wasm.argon2id({
        password,
        salt: crypto.getRandomValues(new Uint8Array(16)),
        parallelism: params.parallelism,
        iterations: params.timeCost,
        memorySize: params.memoryCost,
        hashLength: 32,
        outputType: "encoded",
      }),
    verify: (hash, password) => wasm.argon2Verify({ hash, password }),
  };
}

/**
 * An argon2id {@linkcode PasswordHasher} at OWASP parameters or stronger.
 * Throws a `RangeError` for parameters below OWASP's minimum.
 *
 * @param options Parameters and backend choice.
 * @returns The hasher; `backend()` says which implementation runs.
 *
 * @example Hash and verify
 * ```ts
 * import { argon2Hasher } from "@gatehouse/server";
 *
 * const hasher = argon2Hasher();
 * const hash = await hasher.hash("correct horse battery");
 * console.assert(hash.startsWith("$argon2id$v=19$m=19456,t=2,p=1$"));
 * console.assert(await hasher.verify(hash, "correct horse battery"));
 * ```
 */
export function argon2Hasher(
  options: Argon2Options = {},
): PasswordHasher & { backend(): Promise<"native" | "wasm"> } {
  const params: Argon2Params = {
    memoryCost: options.memoryCost ?? OWASP_ARGON2ID.memoryCost,
    timeCost: options.timeCost ?? OWASP_ARGON2ID.timeCost,
    parallelism: options.parallelism ?? OWASP_ARGON2ID.parallelism,
  };
  if (
    params.memoryCost < OWASP_ARGON2ID.memoryCost ||
    params.timeCost < OWASP_ARGON2ID.timeCost || params.parallelism < 1
  ) {
    throw new RangeError(
      "Invalid argon2id parameters: below OWASP's minimum (m=19456, t=2, p=1)",
    );
  }
  const choice = options.backend ?? "auto";
  let loading: Promise<Backend> | undefined;
  const backend = (): Promise<Backend> => {
    loading ??= choice === "wasm" ? loadWasm() : loadNative().catch((cause) => {
      if (choice === "native") throw cause;
      options.logger?.warn(
        "argon2id: native addon unavailable, using WebAssembly",
        { cause: String(cause) },
      );
      return loadWasm();
    });
    return loading;
  };
  return {
    async hash(password) {
      return (await backend()).hash(password, params);
    },
    async verify(hash, password) {
      if (!hash.startsWith("$argon2")) return false;
      try {
        return await (await backend()).verify(hash, password);
      } catch {
        return false; // A corrupt stored hash is a failed login, not a 500.
      }
    },
    needsRehash(hash) {
      const parsed = parsePhc(hash);
      return parsed === null || parsed.memoryCost !== params.memoryCost ||
        parsed.timeCost !== params.timeCost ||
        parsed.parallelism !== params.parallelism;
    },
    async backend() {
      return (await backend()).name;
    },
  };
}

const PHC =
  /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

/**
 * Reads the parameters of an argon2id (v=19) PHC string.
 *
 * @param hash A stored hash.
 * @returns Its parameters, or null for anything else.
 *
 * @example
 * ```ts
 * import { parsePhc } from "./password.ts";
 *
 * const params = parsePhc("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA");
 * console.assert(params?.memoryCost === 19456);
 * ```
 */
export function parsePhc(hash: string): Argon2Params | null {
  const match = PHC.exec(hash);
  if (match === null) return null;
  return {
    memoryCost: Number(match[1]),
    timeCost: Number(match[2]),
    parallelism: Number(match[3]),
  };
}
