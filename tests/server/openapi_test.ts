// The OpenAPI description: a maintained parser validates it; it lists
// exactly the operations `routes` mounts; GET /api/openapi.json serves it; and the check
// that the fixtures run on every answer refuses what the description does
// not allow.

import { validate } from "@readme/openapi-parser";
import {
  OPERATION_NAMES,
  type OperationName,
  SHAPES,
} from "@gatehouse/contract";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import {
  contractProblems,
  DOCUMENT,
  operationOf,
} from "../fixtures/contract.ts";
import { hasher, memoryStore } from "../fixtures/kv.ts";
import { USERS_MANAGE } from "../../mod.ts";
import { Ajv2020 } from "ajv/dist/2020.js";

const ROLES = { admin: { capabilities: [USERS_MANAGE] } };

Deno.test("the OpenAPI description parses and validates as OpenAPI 3.1", async () => {
  // The parser dereferences in place: give it a copy.
  const result = await validate(structuredClone(DOCUMENT) as never);
  assert(
    result.valid,
    JSON.stringify("errors" in result ? result.errors : [], null, 2),
  );
  assertEquals(DOCUMENT.openapi, "3.1.0");
});

Deno.test("every route of createGatehouse is in the description, and nothing else is", async () => {
  const { store, close } = await memoryStore();
  try {
    const { gatehouse } = gatehouseApp({ store, roles: ROLES, hasher });
    const described = new Set<string>();
    for (const [path, item] of Object.entries(DOCUMENT.paths)) {
      for (const method of Object.keys(item)) {
        described.add(`${method.toUpperCase()} ${path}`);
      }
    }
    const mounted = new Set(
      gatehouse.routes.map((route) =>
        `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`
      ),
    );
    assertEquals([...described].sort(), [...mounted].sort());
    assertEquals(
      gatehouse.routes.map((route) => route.operation),
      OPERATION_NAMES,
    );
    for (const route of gatehouse.routes) {
      assertEquals(
        operationOf(route.method, `http://x${route.path}`),
        route.operation,
      );
    }
  } finally {
    await close();
  }
});

Deno.test("GET /api/openapi.json serves the description, with the session cookie's name", async () => {
  const { store, close } = await memoryStore();
  try {
    const { app } = gatehouseApp({
      store,
      roles: ROLES,
      hasher,
      cookieName: "__Host-sid",
      publicUrl: "https://app.example",
    });
    const res = await app(new Request("http://localhost/api/openapi.json"));
    assertEquals(res.status, 200);
    const served = await res.json();
    assertEquals(served.paths, JSON.parse(JSON.stringify(DOCUMENT.paths)));
    assertEquals(served.components.securitySchemes.session.name, "__Host-sid");
    assertEquals(served.servers, [{ url: "https://app.example" }]);
  } finally {
    await close();
  }
});

const answer = (status: number, body?: unknown, headers: HeadersInit = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers,
  });
const USER = {
  id: "0190f0a0-0000-7000-8000-000000000001",
  email: "a@example.com",
  name: "A",
  role: "",
  disabled: false,
  created_at: "2026-01-01T00:00:00.000Z",
};
const URL_OF = (path: string) => `http://localhost${path}`;

// One row per way an answer can leave the contract: [what, method, path, answer].
const OUTSIDE: Array<[string, string, string, () => Response]> = [
  [
    "a status the operation does not list",
    "POST",
    "/api/users",
    () => answer(200, USER),
  ],
  [
    "a code the operation does not answer",
    "POST",
    "/api/auth/login",
    () => answer(400, { error: "x", code: "user_id_malformed" }),
  ],
  [
    "a code with another code's status",
    "GET",
    "/api/users",
    () => answer(403, { error: "x", code: "session_absent" }),
  ],
  [
    "a field the schema does not name",
    "POST",
    "/api/users",
    () => answer(201, { ...USER, password_hash: "$argon2id$" }),
  ],
  ["a missing field", "POST", "/api/users", () => {
    const { disabled: _, ...rest } = USER;
    return answer(201, rest);
  }],
  [
    "a body where none is documented",
    "POST",
    "/api/auth/password-reset",
    () => answer(202, { ok: true }),
  ],
  [
    "an identity without its cookie",
    "POST",
    "/api/auth/login",
    () =>
      answer(200, { id: USER.id, email: "a@example.com", name: "A", role: "" }),
  ],
  [
    "a 429 without Retry-After",
    "POST",
    "/api/auth/login",
    () => answer(429, { error: "x", code: "login_rate_limited" }),
  ],
  [
    "an error body that is not JSON",
    "GET",
    "/api/auth/session",
    () => new Response("Unauthorized", { status: 401 }),
  ],
];

for (const [what, method, path, make] of OUTSIDE) {
  Deno.test(`the answer check refuses ${what}`, async () => {
    const problems = await contractProblems(method, URL_OF(path), make());
    assertEquals(problems.length, 1, problems.join("\n"));
  });
}

Deno.test("the answer check admits answers within the contract", async () => {
  const within: Array<[string, string, Response]> = [
    ["POST", "/api/users", answer(201, USER)],
    ["GET", "/api/users", answer(200, { users: [USER], next_cursor: null })],
    [
      "POST",
      "/api/auth/logout",
      answer(204, undefined, { "set-cookie": "a=; Max-Age=0" }),
    ],
    [
      "POST",
      "/api/users/invite",
      answer(200, {
        delivered: false,
        activation_link: "https://app.example/invite#token=x",
      }),
    ],
    [
      "POST",
      "/api/auth/login",
      answer(429, { error: "x", code: "login_rate_limited" }, {
        "retry-after": "60",
      }),
    ],
    [
      "PATCH",
      `/api/users/${USER.id}`,
      answer(409, { error: "x", code: "role_changed" }),
    ],
  ];
  for (const [method, path, res] of within) {
    assertEquals(await contractProblems(method, URL_OF(path), res), []);
  }
});

// Requests as the client sends them, against the documented request bodies.
const REQUESTS: Array<[OperationName, unknown]> = [
  ["login", {
    email: "a@example.com",
    password: "correct horse battery staple",
  }],
  ["createUser", {
    email: "a@example.com",
    name: "A",
    password: "long enough password",
    role: "member",
  }],
  ["setUserDisabled", { disabled: true, role: "member" }],
  ["setUserRole", { role: "admin" }],
  ["invite", { email: "a@example.com", name: "A" }],
  ["acceptInvite", { token: "t", password: "long enough password" }],
  ["requestPasswordReset", { email: "a@example.com" }],
  ["resetPassword", { token: "t", password: "long enough password" }],
];

Deno.test("request examples match the documented request bodies", () => {
  const ajv = new Ajv2020({ strict: false });
  for (const [name, body] of REQUESTS) {
    const schema = SHAPES[name].body;
    assert(schema !== undefined, `${name} documents a body`);
    assert(ajv.validate(schema, body), `${name}: ${ajv.errorsText()}`);
    assert(!ajv.validate(schema, {}), `${name} requires its fields`);
  }
});
