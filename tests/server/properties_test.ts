// Property-based tests (npm:fast-check): random sequences of API calls with
// adversarial strings (NUL, lone surrogates, controls, huge, look-alikes,
// injection-shaped) against both stores, in process, checked against a
// small reference model of accounts, sessions and links. Whatever the
// sequence: never a 5xx, every refusal a known code with its status, every
// answer the one the model predicts, and the store's accounts equal to the
// model's after each call. Runs are bounded so each store takes seconds.

import fc from "fast-check";
import type { Identity, Store } from "../../mod.ts";
import { ERROR_STATUS } from "../../server/http/errors.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { apiOn, tokenOf } from "../fixtures/api.ts";
import { HOSTILE } from "../fixtures/hostile.ts";
import { addUser } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";

// ---------------------------------------------------------------- the model
// The rules of DESIGN.md §4–§5, written out plainly.

const fold = (s: string) => s.normalize("NFC").toLowerCase();
const chars = (s: string) => [...s].length;
const SPACE_OR_CONTROL = /[\s\p{Cc}\p{Cf}]/u;
const COMMON = new Set(["password1234", "qwerty123456"]);
const KNOWN_ROLES = new Set(["", "admin", "support", "member"]);

function modelEmail(raw: string): string | null {
  if (!raw.isWellFormed()) return null;
  const email = raw.trim().normalize("NFC");
  const parts = email.split("@");
  const ok = chars(email) <= 254 && parts.length === 2 && parts[0] !== "" &&
    parts[1] !== "" && !SPACE_OR_CONTROL.test(email);
  return ok ? email : null;
}

// The code a name is refused with, or its stored form.
function modelName(raw: string): { code: string } | { name: string } {
  if (!raw.isWellFormed() || /\p{Cc}/u.test(raw)) {
    return { code: "body_malformed" };
  }
  const name = raw.trim().normalize("NFC");
  if (name === "") return { code: "name_required" };
  return chars(name) > 100 ? { code: "name_too_long" } : { name };
}

function passwordRefusal(raw: string): string | null {
  if (!raw.isWellFormed() || raw.includes("\0")) return "body_malformed";
  if (chars(raw) < 12) return "password_too_short";
  if (chars(raw) > 256) return "password_too_long";
  return COMMON.has(fold(raw)) ? "password_too_common" : null;
}

interface Account {
  id: string;
  email: string;
  name: string;
  role: string;
  disabled: boolean;
  password: string;
  generation: number;
}

interface Model {
  accounts: Account[];
  sessions: Array<{ cookie: string; id: string; generation: number }>;
  resets: Array<{ token: string; id: string; generation: number }>;
  // `replaced`: a later invitation to the same address killed its link.
  invitations: Array<
    {
      token: string;
      email: string;
      name: string;
      role: string;
      replaced?: boolean;
    }
  >;
}

// A body over 16 KiB is refused before anything in it is read.
const tooLarge = (body: unknown) =>
  new TextEncoder().encode(JSON.stringify(body)).length > 16 * 1024;
const TOO_LARGE: [number, string | null] = [413, "body_too_large"];

const byKey = (m: Model, email: string) =>
  m.accounts.find((a) => fold(a.email) === fold(email));

// What creating an account (or inviting one) must answer, by the rules in
// the order the handlers apply them; `password` is absent for an invitation.
function predictNewAccount(
  m: Model,
  body: { email: string; name: string; password?: string; role: string },
) {
  const address = modelEmail(body.email);
  const name = modelName(body.name);
  const refusal = tooLarge(body)
    ? "body_too_large"
    : address === null
    ? "email_invalid"
    : "code" in name
    ? name.code
    : (body.password === undefined ? null : passwordRefusal(body.password)) ??
      (!KNOWN_ROLES.has(body.role)
        ? "role_unknown"
        : body.password !== undefined && byKey(m, address)
        ? "email_taken"
        : null);
  return {
    address: address!,
    name: (name as { name?: string }).name!,
    refusal,
  };
}

// ------------------------------------------------------------- the system

interface Real {
  t: ReturnType<typeof apiOn>;
  store: Store;
  owner: Identity;
}

// Checks the answer's shape, and returns its status and code.
async function answer(res: Response): Promise<[number, string | null]> {
  assert(res.status < 500, `answered ${res.status}`);
  if (res.status < 400) {
    await res.body?.cancel();
    return [res.status, null];
  }
  const body = await res.json();
  assertEquals(typeof body.error, "string");
  assertEquals(
    ERROR_STATUS[body.code as keyof typeof ERROR_STATUS],
    res.status,
    `code ${body.code}`,
  );
  return [res.status, body.code];
}

async function sameAccounts(m: Model, r: Real): Promise<void> {
  const stored = (await r.store.listUsers({ limit: 100 })).users;
  assertEquals(
    stored.map((u) => [u.id, u.email, u.name, u.role, u.disabled]),
    m.accounts.map((a) => [a.id, a.email, a.name, a.role, a.disabled]),
  );
}

type Step = fc.AsyncCommand<Model, Real>;

function step(
  label: string,
  run: (m: Model, r: Real) => Promise<void>,
): Step {
  return {
    check: () => true,
    async run(m, r) {
      await run(m, r);
      await sameAccounts(m, r);
    },
    toString: () => label,
  };
}

// ------------------------------------------------------------- the strings

// Mostly strings that pass, so sequences get somewhere; the rest hostile.
const LOCAL = [
  "ada",
  "Ada",
  "ADA",
  "\u0130x",
  "i\u0307x",
  "jos\u00e9",
  "jose\u0301",
];
const emails = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(...LOCAL).map((l) => `${l}@example.com`),
  },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(" ada@example.com ", "a@b", "a@@b") },
);
const names = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("Ada", " Ada ", "Jose\u0301") },
  { weight: 1, arbitrary: fc.constantFrom("", "x".repeat(101), ...HOSTILE) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
);
const GOOD = ["correct horse battery staple", "another fine passphrase"];
const passwords = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...GOOD) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "password1234",
      "QWERTY123456",
      "short",
      "x".repeat(257),
      "nul\u0000 in a passphrase",
      "\ud800 a lonely surrogate",
    ),
  },
);
const roles = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("", "member", "support", "admin") },
  { weight: 1, arbitrary: fc.constantFrom("root", "\u0000", "ADMIN") },
);
const queries = fc.oneof(
  fc.constantFrom(
    "ada",
    "\u00c4DA",
    "JOSE\u0301",
    "%",
    "_",
    "\u0000",
    "x".repeat(101),
  ),
  fc.string({ unit: "binary", maxLength: 4 }),
);
const picks = fc.nat({ max: 20 });
// One call in five uses a link token that was never issued.
const garbage = fc.nat({ max: 4 }).map((n) => n === 0);

// --------------------------------------------------------------- the calls

const createUser = fc.tuple(emails, names, passwords, roles).map((
  [email, rawName, password, role],
) =>
  step(
    `createUser(${
      JSON.stringify([
        email.slice(0, 30),
        rawName.slice(0, 20),
        password.slice(0, 20),
        role,
      ])
    })`,
    async (m, r) => {
      const body = { email, name: rawName, password, role };
      const res = await r.t.asActor(r.owner, "POST", "/api/users", body);
      const [status, code] = await answer(res);
      const { address, name, refusal } = predictNewAccount(m, body);
      assertEquals(code, refusal);
      if (status === 201) {
        const [stored] = (await r.store.listUsers({ limit: 100 })).users.slice(
          -1,
        );
        m.accounts.push({
          id: stored!.id,
          email: address,
          name,
          role,
          disabled: false,
          password,
          generation: 0,
        });
      }
    },
  )
);

const login = fc.tuple(emails, passwords).map(([email, password]) =>
  step(
    `login(${JSON.stringify([email.slice(0, 30), password.slice(0, 20)])})`,
    async (m, r) => {
      const res = await r.t.call("POST", "/api/auth/login", {
        email,
        password,
      });
      const cookie = res.headers.get("set-cookie")?.split(";")[0];
      const [status, code] = await answer(res);
      if (tooLarge({ email, password })) {
        return assertEquals([status, code], TOO_LARGE);
      }
      const address = modelEmail(email);
      const account = address === null ? undefined : byKey(m, address);
      const ok = account !== undefined && !account.disabled &&
        account.password === password;
      assertEquals(
        [status, code],
        ok ? [200, null] : [401, "credentials_invalid"],
      );
      if (ok) {
        m.sessions.push({
          cookie: cookie!,
          id: account.id,
          generation: account.generation,
        });
      }
    },
  )
);

const session = picks.map((i) =>
  step(`session(#${i})`, async (m, r) => {
    const s = m.sessions[i % Math.max(1, m.sessions.length)];
    if (s === undefined) return;
    const res = await r.t.call("GET", "/api/auth/session", undefined, {
      cookie: s.cookie,
    });
    const account = m.accounts.find((a) => a.id === s.id)!;
    const live = s.generation === account.generation && !account.disabled;
    assertEquals(
      await answer(res),
      live ? [200, null] : [401, "session_absent"],
    );
  })
);

const logout = picks.map((i) =>
  step(`logout(#${i})`, async (m, r) => {
    const s = m.sessions[i % Math.max(1, m.sessions.length)];
    if (s === undefined) return;
    const res = await r.t.call("POST", "/api/auth/logout", undefined, {
      cookie: s.cookie,
    });
    assertEquals(await answer(res), [204, null]);
    s.generation = -1; // ended
  })
);

const setDisabled = fc.tuple(picks, fc.boolean()).map(([i, disabled]) =>
  step(`setDisabled(#${i}, ${disabled})`, async (m, r) => {
    const others = m.accounts.filter((a) => a.id !== r.owner.id);
    const target = others[i % Math.max(1, others.length)];
    if (target === undefined) return;
    const res = await r.t.asActor(r.owner, "PATCH", `/api/users/${target.id}`, {
      disabled,
    });
    assertEquals(await answer(res), [200, null]);
    if (disabled && !target.disabled) target.generation++;
    target.disabled = disabled;
  })
);

const requestReset = emails.map((email) =>
  step(`requestReset(${JSON.stringify(email.slice(0, 30))})`, async (m, r) => {
    const mailed = r.t.mail.length;
    const res = await r.t.call("POST", "/api/auth/password-reset", { email });
    const address = modelEmail(email);
    assertEquals(
      await answer(res),
      tooLarge({ email })
        ? TOO_LARGE
        : address === null
        ? [400, "email_invalid"]
        : [202, null],
    );
    await r.t.settled(); // the mail is sent after the answer
    const account = address === null ? undefined : byKey(m, address);
    if (account !== undefined && !account.disabled) {
      assertEquals(r.t.mail.length, mailed + 1);
      m.resets.push({
        token: tokenOf(r.t.mail.at(-1)!.link!),
        id: account.id,
        generation: account.generation,
      });
    } else {
      assertEquals(r.t.mail.length, mailed);
    }
  })
);

const confirmReset = fc.tuple(picks, passwords, garbage).map((
  [i, password, garbage],
) =>
  step(
    `confirmReset(#${i}, ${JSON.stringify(password.slice(0, 20))}, ${garbage})`,
    async (m, r) => {
      const link = garbage
        ? undefined
        : m.resets[i % Math.max(1, m.resets.length)];
      const res = await r.t.call("POST", "/api/auth/password-reset/confirm", {
        token: link?.token ?? "A".repeat(43),
        password,
      });
      const [status, code] = await answer(res);
      const refusal = passwordRefusal(password);
      if (refusal !== null) return assertEquals(code, refusal);
      const account = m.accounts.find((a) => a.id === link?.id);
      const ok = link !== undefined && account !== undefined &&
        !account.disabled && account.generation === link.generation;
      assertEquals([status, code], ok ? [204, null] : [410, "token_invalid"]);
      if (link !== undefined) link.generation = -1; // spent, either way
      if (ok) {
        account.password = password;
        account.generation++;
      }
    },
  )
);

const invite = fc.tuple(emails, names, roles).map(([email, rawName, role]) =>
  step(
    `invite(${
      JSON.stringify([email.slice(0, 30), rawName.slice(0, 20), role])
    })`,
    async (m, r) => {
      const body = { email, name: rawName, role };
      const res = await r.t.asActor(r.owner, "POST", "/api/users/invite", body);
      const link = res.status === 200
        ? (await res.clone().json()).activation_link
        : null;
      const [, code] = await answer(res);
      const { address, name, refusal } = predictNewAccount(m, body);
      assertEquals(code, refusal);
      if (link !== null) {
        // One pending invitation per address: the new one replaces any
        // earlier one, whose link then answers 410.
        for (const earlier of m.invitations) {
          if (fold(earlier.email) === fold(address)) earlier.replaced = true;
        }
        m.invitations.push({
          token: tokenOf(link),
          email: address,
          name,
          role,
        });
      }
    },
  )
);

const acceptInvite = fc.tuple(picks, passwords, garbage).map((
  [i, password, garbage],
) =>
  step(
    `acceptInvite(#${i}, ${JSON.stringify(password.slice(0, 20))}, ${garbage})`,
    async (m, r) => {
      const index = i % Math.max(1, m.invitations.length);
      const link = garbage ? undefined : m.invitations[index];
      const res = await r.t.call("POST", "/api/auth/invite/accept", {
        token: link?.token ?? "A".repeat(43),
        password,
      });
      const cookie = res.headers.get("set-cookie")?.split(";")[0];
      const [status, code] = await answer(res);
      const refusal = passwordRefusal(password);
      if (refusal !== null) return assertEquals(code, refusal);
      const ok = link !== undefined && link.replaced !== true &&
        byKey(m, link.email) === undefined;
      assertEquals([status, code], ok ? [200, null] : [410, "token_invalid"]);
      if (link !== undefined) m.invitations.splice(index, 1); // spent, either way
      if (ok) {
        const [stored] = (await r.store.listUsers({ limit: 100 })).users.slice(
          -1,
        );
        m.accounts.push({
          id: stored!.id,
          email: link.email,
          name: link.name,
          role: link.role,
          disabled: false,
          password,
          generation: 0,
        });
        m.sessions.push({ cookie: cookie!, id: stored!.id, generation: 0 });
      }
    },
  )
);

const listUsers = queries.map((q) =>
  step(`listUsers(${JSON.stringify(q.slice(0, 20))})`, async (m, r) => {
    const url = q.isWellFormed()
      ? `/api/users?q=${encodeURIComponent(q)}`
      : "/api/users?q=%ED%A0%80";
    const res = await r.t.asActor(r.owner, "GET", url);
    // Invalid UTF-8 in a query decodes to one U+FFFD per byte.
    const text = q.isWellFormed() ? q : "\ufffd\ufffd\ufffd";
    const malformed = /\p{Cc}/u.test(text) ||
      chars(text.trim().normalize("NFC")) > 100;
    if (malformed) {
      return assertEquals(await answer(res), [400, "body_malformed"]);
    }
    assertEquals(res.status, 200);
    const needle = fold(text.trim());
    const found = (await res.json()).users.map((u: { id: string }) => u.id);
    assertEquals(
      found,
      m.accounts.filter((a) =>
        needle === "" || fold(a.email).includes(needle) ||
        fold(a.name).includes(needle)
      ).map((a) => a.id).slice(0, 50),
    );
  })
);

const CALLS = [
  createUser,
  login,
  session,
  logout,
  setDisabled,
  requestReset,
  confirmReset,
  invite,
  acceptInvite,
  listUsers,
];

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `random API call sequences with hostile strings keep the store equal to the model (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      await fc.assert(
        fc.asyncProperty(
          fc.commands(CALLS, { maxCommands: 40, size: "max" }),
          async (calls) => {
            const { store, close } = await backend.open();
            try {
              const t = apiOn(store, { mail: true, maxFailures: 100_000 });
              const user = await addUser(store, {
                email: "owner@example.com",
                name: "Owner",
                role: "admin",
              });
              const owner: Identity = { ...user };
              const model: Model = {
                accounts: [{
                  ...user,
                  password: "correct horse battery staple",
                  generation: 0,
                }],
                sessions: [],
                resets: [],
                invitations: [],
              };
              await fc.asyncModelRun(
                () => ({ model, real: { t, store, owner } }),
                calls,
              );
            } finally {
              await close();
            }
          },
        ),
        { numRuns: 15 },
      );
    },
  });
}
