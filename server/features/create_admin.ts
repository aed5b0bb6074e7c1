/**
 * `runCreateAdmin`: the command behind `deno task create-admin --email E
 * --name N --role R [--password-stdin]`. It opens (and migrates) the store,
 * asks for the password twice without echo (or reads one line from stdin),
 * and creates an enabled account with a role the privileged list admits.
 * Every refusal is one line on stderr and a non-zero exit code.
 *
 * @module
 */

import { adminRules } from "../core/_admin_rules.ts";
import { authority } from "../core/_authority.ts";
import { uuidv7 } from "../core/_crypto.ts";
import {
  InputCancelled,
  InputNotText,
  LineReader,
  LineTooLong,
} from "../core/_line_reader.ts";
import { readEmail, readName, readNewPassword } from "../core/_input.ts";
import type { RoleDefinition, RoleRegistry } from "../core/roles.ts";
import { AuthError } from "../http/errors.ts";
import { type Limits, resolveLimits } from "../http/limits.ts";
import { argon2Hasher, type PasswordHasher } from "../core/password.ts";
import type { Store } from "../core/store.ts";

/** The terminal of {@linkcode runCreateAdmin}; tests replace it. */
export interface CreateAdminIo {
  /** Bytes typed or piped in; `Deno.stdin.readable` by default. */
  input: ReadableStream<Uint8Array>;
  /** Whether `input` is an interactive terminal; `Deno.stdin.isTerminal()`. */
  isTerminal(): boolean;
  /** Turns the terminal's echo and line editing off (true) or back on. */
  setRaw(raw: boolean): void;
  /** Writes to standard output: the result. */
  write(text: string): void;
  /** Writes to standard error: prompts and refusals. */
  writeError(text: string): void;
}

/** A store opened for the command, closed when it is done. */
export interface OpenedStoreHandle {
  /** The store, migrated. */
  store: Store;
  /** Releases it. */
  close(): Promise<void> | void;
}

/** Options of {@linkcode runCreateAdmin}. */
export interface CreateAdminOptions {
  /** Opens and migrates the store; called once arguments are valid. */
  openStore?: () => Promise<OpenedStoreHandle>;
  /** A store to use as it is (not closed); instead of `openStore`. */
  store?: Store;
  /** Roles that may administer accounts; the new account's role must be one. Empty admits every role. */
  privileged?: readonly string[];
  /**
   * The roles, as `createGatehouse` takes them: the new account's role must
   * carry `USERS_MANAGE`. Give this or `privileged`, not both.
   */
  roles?: RoleRegistry | Readonly<Record<string, RoleDefinition>>;
  /**
   * @deprecated Use {@linkcode CreateAdminOptions.roles}, which also decides
   * who is privileged.
   */
  capabilities?: RoleRegistry;
  /** Password hasher; argon2id at OWASP parameters by default. */
  hasher?: PasswordHasher;
  /** Overrides of the input limits (name and password lengths). */
  limits?: Partial<Limits>;
  /** The clock, in ms since the epoch; `Date.now` by default. */
  now?: () => number;
  /** Replacements for stdin, stdout, stderr and the terminal mode. */
  io?: Partial<CreateAdminIo>;
}

/** Exit code: the account was created (or `--help`). */
export const EXIT_CREATED = 0;
/** Exit code: refused (bad value, role not admitted, email taken, passwords differ, store failure). */
export const EXIT_REFUSED = 1;
/** Exit code: the arguments were wrong. */
export const EXIT_USAGE = 2;
/** Exit code: Ctrl-C at the password prompt. */
export const EXIT_CANCELLED = 130;

const USAGE =
  "Usage: deno task create-admin --email E --name N --role R [--password-stdin]";

class Refusal extends Error {
  constructor(message: string, readonly exitCode: number = EXIT_REFUSED) {
    super(message);
  }
}

interface Arguments {
  email: string;
  name: string;
  role: string;
  passwordStdin: boolean;
  help: boolean;
}

/**
 * Runs `create-admin` with command-line `args`. Writes the result to stdout,
 * prompts and any refusal (one line) to stderr, and returns the exit code:
 * {@linkcode EXIT_CREATED}, {@linkcode EXIT_REFUSED}, {@linkcode EXIT_USAGE}
 * or {@linkcode EXIT_CANCELLED}. Throws only for invalid `options`.
 *
 * @param args `--email E --name N --role R [--password-stdin]` (`--flag=value` works too).
 * @param options The store (or how to open it), the roles, and the terminal.
 * @returns The exit code.
 *
 * @example Creating the first administrator from a script
 * ```ts
 * import { runCreateAdmin } from "@gatehouse/server/create-admin";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const password = "correct horse battery staple\n";
 * const output: string[] = [];
 * const code = await runCreateAdmin(
 *   ["--email", "ada@example.com", "--name", "Ada", "--role", "admin", "--password-stdin"],
 *   {
 *     store,
 *     privileged: ["admin"],
 *     io: {
 *       input: ReadableStream.from([new TextEncoder().encode(password)]),
 *       write: (text) => output.push(text),
 *     },
 *   },
 * );
 * console.assert(code === 0 && output[0]?.startsWith("Created administrator"));
 * kv.close();
 * ```
 */
export async function runCreateAdmin(
  args: readonly string[],
  options: CreateAdminOptions,
): Promise<number> {
  if (options.store === undefined && options.openStore === undefined) {
    throw new TypeError(
      "Invalid create-admin options: pass a store or openStore",
    );
  }
  // With `roles`, the roles carrying USERS_MANAGE are the privileged ones,
  // as in createGatehouse; the older `capabilities` keeps the list given.
  const { privileged, roles } = options.roles !== undefined
    ? authority(options)
    : { privileged: options.privileged ?? [], roles: options.capabilities };
  const rules = adminRules(privileged, roles);
  const limits = resolveLimits(options.limits);
  const now = options.now ?? Date.now;
  const io = terminal(options.io ?? {});
  try {
    const parsed = parseArgs(args);
    if (parsed.help) {
      io.write(USAGE + "\n");
      return EXIT_CREATED;
    }
    const { email, key } = readEmail(parsed.email, limits);
    const name = readName(parsed.name, limits);
    const admitted = rules.privileged;
    if (admitted.length > 0 && !admitted.includes(parsed.role)) {
      throw new Refusal(
        `Role "${parsed.role}" may not administer users: use ${
          admitted.map((role) => `"${role}"`).join(" or ")
        }`,
      );
    }
    await rules.assertKnown(parsed.role);
    const opened = await openStore(options);
    try {
      const store = opened.store;
      if (await store.credentialsByEmail(key) !== null) throw taken(email);
      const password = await readPassword(io, parsed.passwordStdin, limits);
      const hasher = options.hasher ?? argon2Hasher();
      const createdAt = now();
      const user = await store.createUser({
        id: uuidv7(createdAt),
        email,
        emailKey: key,
        name,
        role: parsed.role,
        passwordHash: await hasher.hash(password),
        createdAt,
      }).catch((err) => {
        throw err instanceof AuthError && err.code === "email_taken"
          ? taken(email)
          : err;
      });
      io.write(
        `Created administrator "${user.email}" with role "${user.role}" (id ${user.id})\n`,
      );
      return EXIT_CREATED;
    } finally {
      await opened.close();
    }
  } catch (err) {
    const [code, reason] = refusalOf(err);
    io.writeError(oneLine(reason) + "\n");
    return code;
  }
}

function parseArgs(args: readonly string[]): Arguments {
  const values = new Map<string, string>();
  let passwordStdin = false;
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--password-stdin") passwordStdin = true;
    else if (arg === "--help" || arg === "-h") help = true;
    else {
      const match = /^--(email|name|role)(?:=(.*))?$/s.exec(arg);
      if (match === null) throw usage(`Unknown argument: "${arg}"`);
      const flag = match[1]!;
      let value = match[2];
      if (value === undefined) {
        value = args[i + 1];
        if (value === undefined || value.startsWith("--")) {
          throw usage(`Missing value for --${flag}`);
        }
        i++;
      }
      if (values.has(flag)) throw usage(`--${flag} is given twice`);
      values.set(flag, value);
    }
  }
  const required = (flag: string) => {
    const value = values.get(flag);
    if (value === undefined && !help) throw usage(`Missing --${flag}`);
    return value ?? "";
  };
  return {
    email: required("email"),
    name: required("name"),
    role: required("role"),
    passwordStdin,
    help,
  };
}

async function openStore(
  options: CreateAdminOptions,
): Promise<OpenedStoreHandle> {
  if (options.store !== undefined) {
    return { store: options.store, close() {} };
  }
  try {
    return await options.openStore!();
  } catch (err) {
    throw new Refusal(`Cannot open the store: ${messageOf(err)}`);
  }
}

async function readPassword(
  io: CreateAdminIo,
  fromStdin: boolean,
  limits: Limits,
): Promise<string> {
  if (!fromStdin && !io.isTerminal()) {
    throw new Refusal(
      "Cannot prompt for the password: stdin is not a terminal (pass --password-stdin)",
    );
  }
  const reader = new LineReader(io.input);
  // Past twice the limit no password can pass (readNewPassword counts
  // characters, a code point here may be two): stop reading there.
  const max = 2 * limits.maxPasswordLength;
  try {
    if (fromStdin) {
      const line = await reader.readLine(false, max);
      if (line === null || line === "") {
        throw new Refusal("No password on stdin: send it as one line");
      }
      return await readNewPassword(line, limits);
    }
    const first = await readNewPassword(
      await prompt(io, reader, "Password: ", max),
      limits,
    );
    const second = await prompt(io, reader, "Repeat password: ", max);
    if (first !== second) throw new Refusal("Passwords do not match");
    return first;
  } catch (err) {
    if (!(err instanceof LineTooLong)) throw err;
    throw new Refusal(
      `Password is too long: use at most ${limits.maxPasswordLength} characters`,
    );
  } finally {
    reader.release();
  }
}

// Echo is off while the person types, so the password never shows; the
// newline they typed is not echoed either, hence the one written after.
async function prompt(
  io: CreateAdminIo,
  reader: LineReader,
  label: string,
  max: number,
): Promise<string> {
  // Raw first: anything typed once the prompt shows is never echoed.
  io.setRaw(true);
  let line: string | null;
  try {
    io.writeError(label);
    line = await reader.readLine(true, max);
  } finally {
    io.setRaw(false);
    io.writeError("\n");
  }
  if (line === null) throw new Refusal("No password given");
  // Line editing is off, so a key the reader does not apply (an arrow key
  // sends ESC [ D, Tab a tab) lands in the password as a control
  // character: typed alike twice, it made a password no browser can type.
  if (/\p{Cc}/u.test(line)) {
    throw new Refusal(
      "The password holds a control character (an arrow key or Tab?): only Backspace and Ctrl-U edit at the prompt",
    );
  }
  return line;
}

function taken(email: string): Refusal {
  return new Refusal(`Email address is already in use: "${email}"`);
}

function usage(message: string): Refusal {
  return new Refusal(`${message} (${USAGE})`, EXIT_USAGE);
}

function refusalOf(err: unknown): [code: number, reason: string] {
  if (err instanceof Refusal) return [err.exitCode, err.message];
  if (err instanceof AuthError) return [EXIT_REFUSED, err.message];
  if (err instanceof InputCancelled) return [EXIT_CANCELLED, "Cancelled"];
  if (err instanceof InputNotText) {
    return [EXIT_REFUSED, "The password is not UTF-8 text"];
  }
  return [EXIT_REFUSED, `Cannot create administrator: ${messageOf(err)}`];
}

// The first line of an unexpected error: some carry a stack trace after it.
function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0]!;
}

// A refusal is one line whatever a value contained: control characters
// (a newline in an argument, say) are shown escaped.
function oneLine(text: string): string {
  return text.replace(
    /\p{Cc}/gu,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const encoder = new TextEncoder();

function writeAll(file: { writeSync(p: Uint8Array): number }, text: string) {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
}

// Deno's stdin is touched only when a password is read, so tests that pass
// their own terminal never lock the process's stdin.
function terminal(io: Partial<CreateAdminIo>): CreateAdminIo {
  return {
    get input() {
      return io.input ?? Deno.stdin.readable;
    },
    isTerminal: io.isTerminal ?? (() => Deno.stdin.isTerminal()),
    setRaw: io.setRaw ?? ((raw) => Deno.stdin.setRaw(raw)),
    write: io.write ?? ((text) => writeAll(Deno.stdout, text)),
    writeError: io.writeError ?? ((text) => writeAll(Deno.stderr, text)),
  };
}
