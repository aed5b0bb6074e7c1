// The input boundary (DESIGN.md §5) on every operation of the contract, read
// from the contract itself so that a route added later is covered without a
// line here: each hostile string in each field of its body (JSON or form),
// each path value and each query value, and each malformed body, sent by a
// signed-in administrator whose sign-in is fresh, answers within the
// contract: a success or a refusal the operation declares (the fixtures'
// mount checks the status, the body's schema and the code of every answer
// and throws on anything else), never a 5xx and never a stack trace.
// The per-area tests (input_boundary_test.ts, security_input_boundary_test.ts,
// sso_input_test.ts) say what each refusal is and that nothing was written.

import { assert } from "../fixtures/assert.ts";
import { type OperationName, OPERATIONS } from "@gatehouse/contract/operations";
import { type JsonSchema, SHAPES } from "@gatehouse/contract/shapes";
import { from } from "../fixtures/api.ts";
import { HOSTILE, urlComponent } from "../fixtures/hostile.ts";
import { addUser, hasher, PASSWORD } from "../fixtures/kv.ts";
import { rememberingHasher } from "../fixtures/remembering_hasher.ts";
import {
  CHROME_LINUX,
  securityApi,
  UNTHROTTLED,
} from "../fixtures/security.ts";
import { testEachStore } from "../fixtures/stores.ts";

// Operations that end the caller's own sign-in whatever they are sent: the
// sweep would go on signed out. Their input is covered where they are tested.
const ENDS_THE_SIGN_IN: ReadonlySet<OperationName> = new Set(["logout"]);

// Whole bodies that are not the object an operation reads.
const MALFORMED_BODIES: readonly string[] = [
  "",
  "not json",
  "null",
  "[]",
  "1",
  '"a string"',
  '{"email":',
  "\u0000",
  "[".repeat(200_000),
  JSON.stringify({ padding: "a".repeat(2 * 1024 * 1024) }),
];

// The field names of a body schema, nested choices included.
function fieldsOf(schema: JsonSchema | undefined): string[] {
  if (schema === undefined) return [];
  const names = new Set<string>(
    Object.keys((schema.properties ?? {}) as Record<string, unknown>),
  );
  for (const keyword of ["oneOf", "anyOf", "allOf"]) {
    for (const part of (schema[keyword] ?? []) as JsonSchema[]) {
      for (const name of fieldsOf(part)) names.add(name);
    }
  }
  return [...names];
}

// A value of the right type for a field, so that a hostile value in one
// field is judged with the others well-formed.
function plausible(field: string): unknown {
  if (field.includes("email")) return "someone@example.com";
  if (field.includes("password")) return "another correct horse battery";
  if (field === "role") return "member";
  return "plausible";
}

const pathValues = (name: OperationName): string[] =>
  [...OPERATIONS[name].path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);

testEachStore(
  "every operation of the contract answers hostile fields, path values, query values and malformed bodies within the contract, never a 5xx",
  async (store) => {
    // The same well-formed password is checked against the same hash for
    // each hostile value of the other fields: argon2 judges each distinct
    // pair once (hostile passwords included), repeats are remembered.
    const api = securityApi(store, {
      ...UNTHROTTLED,
      hasher: rememberingHasher(hasher),
    });
    const admin = await addUser(store, {
      email: "owner@example.com",
      role: "admin",
    });
    let cookie = await api.login(admin.email, PASSWORD);
    const placeholder = "0190f0a0-0000-7000-8000-00000000abcd";
    let calls = 0;

    async function send(
      name: OperationName,
      path: string,
      body: string | null,
      contentType: string,
      what: string,
    ): Promise<void> {
      const { method } = OPERATIONS[name];
      const headers: Record<string, string> = {
        "user-agent": CHROME_LINUX,
        cookie,
      };
      if (body !== null) headers["content-type"] = contentType;
      const req = new Request(`http://localhost${path}`, {
        method,
        headers,
        body: method === "GET" ? null : body,
      });
      calls++;
      let res: Response;
      try {
        res = await api.app(req, undefined, from("203.0.113.5"));
      } catch (error) {
        throw new Error(`${name} ${what}: outside the contract`, {
          cause: error,
        });
      }
      const text = await res.text();
      assert(res.status < 500, `${name} ${what}: ${res.status} ${text}`);
      assert(!/\bat .+:\d+:\d+/.test(text), `${name} ${what}: a stack trace`);
      if (res.status >= 400) {
        const answer = JSON.parse(text);
        assert(typeof answer.code === "string", `${name} ${what}: no code`);
      }
      // An operation may end or replace the sweep's sign-in (a password
      // change it accepted, sessions revoked): sign in again.
      if (!(await api.live(cookie))) {
        cookie = await api.login(admin.email, PASSWORD);
      }
    }

    for (const name of Object.keys(OPERATIONS) as OperationName[]) {
      if (ENDS_THE_SIGN_IN.has(name)) continue;
      const shape = SHAPES[name];
      const params = pathValues(name);
      const pathWith = (values: Record<string, string>) =>
        OPERATIONS[name].path.replace(
          /:([A-Za-z_]\w*)/g,
          (_, key: string) => values[key] ?? placeholder,
        );
      const form = shape.form !== undefined;
      const fields = fieldsOf(shape.form ?? shape.body);
      const contentType = form
        ? "application/x-www-form-urlencoded"
        : "application/json";
      const encode = (values: Record<string, unknown>) =>
        form
          ? new URLSearchParams(values as Record<string, string>).toString()
          : JSON.stringify(values);
      const wellFormed = Object.fromEntries(
        fields.map((field) => [field, plausible(field)]),
      );
      const baseBody = fields.length === 0 && shape.body === undefined &&
          !form
        ? null
        : encode(wellFormed);
      const basePath = pathWith({});

      for (const s of HOSTILE) {
        const shown = JSON.stringify(s.slice(0, 20));
        for (const field of fields) {
          await send(
            name,
            basePath,
            encode({ ...wellFormed, [field]: s }),
            contentType,
            `${field}=${shown}`,
          );
        }
        for (const param of params) {
          // Encoded as a broken client would (lone surrogates as bytes).
          const path = OPERATIONS[name].path.replace(
            /:([A-Za-z_]\w*)/g,
            (_, key: string) => key === param ? urlComponent(s) : placeholder,
          );
          await send(name, path, baseBody, contentType, `:${param}=${shown}`);
        }
        for (const query of Object.keys(shape.query ?? {})) {
          await send(
            name,
            `${basePath}?${query}=${urlComponent(s)}`,
            baseBody,
            contentType,
            `?${query}=${shown}`,
          );
        }
      }
      if (shape.body !== undefined || form) {
        for (const raw of MALFORMED_BODIES) {
          await send(
            name,
            basePath,
            raw,
            contentType,
            `body ${JSON.stringify(raw.slice(0, 12))}`,
          );
        }
        // Every field of the wrong type.
        for (const wrong of [null, 1, true, [], {}, ["a"]]) {
          await send(
            name,
            basePath,
            JSON.stringify(
              Object.fromEntries(fields.map((field) => [field, wrong])),
            ),
            "application/json",
            `fields ${JSON.stringify(wrong)}`,
          );
        }
      }
    }
    // The sweep reached every operation but the ones that end the sign-in.
    assert(calls > Object.keys(OPERATIONS).length * 5, `only ${calls} calls`);
    assert(await api.live(cookie), "the administrator is still signed in");
    await api.gatehouse.settled();
  },
);
