// Bad input on every single sign-on route (DESIGN.md §13) through the HTTP
// API on Deno KV, Postgres and SQLite: provider ids, return paths, callback
// parameters, logout bodies and identity ids that attackers send each get
// a clear answer — a JSON 4xx, or for the browser navigations the redirect
// the contract names — and never a 5xx. Every answer is also checked
// against the contract by the fixtures' mount.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { HOSTILE, urlComponent } from "../fixtures/hostile.ts";
import { addUser } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import {
  signedInWithPassword,
  ssoWorld,
  TestBrowser,
} from "../fixtures/sso.ts";

// What a URL may carry: the 70,000-character string goes in bodies only.
const IN_URLS = HOSTILE.filter((s) => s.length < 4096);

async function jsonRefusal(
  res: Response,
  status: number,
  code: string,
  what: string,
): Promise<void> {
  assertEquals(res.status, status, what);
  assert(
    res.headers.get("content-type")?.startsWith("application/json"),
    what,
  );
  assertEquals((await res.json()).code, code, what);
}

// The status of an answer that is no 5xx, and its JSON body if it has one.
async function answered(
  res: Response,
  what: string,
): Promise<{ status: number; body: Record<string, unknown> | null }> {
  const text = await res.text();
  assert(res.status < 500, `${what}: ${res.status} ${text.slice(0, 200)}`);
  return { status: res.status, body: text === "" ? null : JSON.parse(text) };
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `bad input on every single sign-on route answers a clear 4xx, never a 5xx (${backend.name})`,
    ignore: backend.ignore,
    async fn(t) {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, {
        accounts: {
          ada: { email: "ada@acme.example", email_verified: true },
          bob: { email: "bob@acme.example", email_verified: true },
        },
        // Bob's account is made by his sign-in: it has no password.
        provider: { createAccounts: true },
      });
      const { origin } = world;
      try {
        await addUser(store, { email: "ada@acme.example" });

        await t.step("unknown or hostile provider ids: 404", async () => {
          for (
            const id of [...IN_URLS, "nope", "ACME", "acme-", "a".repeat(33)]
          ) {
            if (id === "" || id === "acme") continue;
            for (const route of ["start", "callback"]) {
              const res = await fetch(
                `${origin}/api/auth/sso/${urlComponent(id)}/${route}`,
                { redirect: "manual" },
              );
              const { status, body } = await answered(res, id);
              assertEquals(status, 404, `${route} ${JSON.stringify(id)}`);
              assert(
                body?.code === "provider_not_found" ||
                  body?.code === "not_found",
                JSON.stringify(id),
              );
            }
            const res = await fetch(
              `${origin}/api/auth/sso/${urlComponent(id)}/backchannel-logout`,
              {
                method: "POST",
                headers: {
                  "content-type": "application/x-www-form-urlencoded",
                },
                body: "logout_token=x",
              },
            );
            assertEquals((await answered(res, id)).status, 404);
          }
        });

        await t.step(
          "hostile return paths start a sign-in that returns to /",
          async () => {
            for (const returnTo of [...IN_URLS, "/" + "x".repeat(5000)]) {
              const res = await fetch(
                `${origin}/api/auth/sso/acme/start?return_to=${
                  urlComponent(returnTo)
                }&reauthenticate=${urlComponent(returnTo)}`,
                { redirect: "manual" },
              );
              assertEquals((await answered(res, returnTo)).status, 302);
              assert(
                res.headers.get("location")!.startsWith(world.idp!.issuer),
              );
            }
            const flows = await store.spendSsoFlow("no such flow");
            assertEquals(flows, null);
          },
        );

        await t.step(
          "a re-authentication without a session: 401 session_absent",
          async () => {
            await jsonRefusal(
              await fetch(`${origin}/api/auth/sso/acme/start?reauthenticate=1`),
              401,
              "session_absent",
              "reauthenticate",
            );
          },
        );

        await t.step(
          "hostile callback parameters and cookies: a 303 to sso_error, never a 5xx",
          async () => {
            for (const value of IN_URLS) {
              const query = ["code", "state", "iss", "error"]
                .map((name) => `${name}=${urlComponent(value)}`).join("&");
              for (
                const cookie of [
                  undefined,
                  "__Host-gatehouse-sso=" + "A".repeat(43),
                  `__Host-gatehouse-sso=${urlComponent(value)}`,
                ]
              ) {
                const res = await fetch(
                  `${origin}/api/auth/sso/acme/callback?${query}&state=2`,
                  {
                    redirect: "manual",
                    ...(cookie === undefined ? {} : { headers: { cookie } }),
                  },
                );
                assertEquals((await answered(res, value)).status, 303);
                assertEquals(
                  res.headers.get("location"),
                  "/?sso_error=sso_state_invalid",
                );
              }
            }
          },
        );

        await t.step("back-channel logout bodies", async () => {
          const logout = (body: BodyInit | null, type?: string) =>
            fetch(`${origin}/api/auth/sso/acme/backchannel-logout`, {
              method: "POST",
              ...(type === undefined
                ? {}
                : { headers: { "content-type": type } }),
              body,
            });
          const form = "application/x-www-form-urlencoded";
          await jsonRefusal(
            await logout(
              JSON.stringify({ logout_token: "x" }),
              "application/json",
            ),
            400,
            "body_malformed",
            "json",
          );
          await jsonRefusal(await logout(null), 400, "body_malformed", "none");
          await jsonRefusal(
            await logout("", form),
            400,
            "body_field_required",
            "empty",
          );
          await jsonRefusal(
            await logout("logout_token=a&logout_token=b", form),
            400,
            "body_malformed",
            "twice",
          );
          await jsonRefusal(
            await logout(new Uint8Array([0x6c, 0x3d, 0xff, 0xfe]), form),
            400,
            "body_malformed",
            "not UTF-8",
          );
          await jsonRefusal(
            await logout(`logout_token=${"a".repeat(70_000)}`, form),
            413,
            "body_too_large",
            "huge",
          );
          for (const token of HOSTILE.filter((s) => s.length < 10_000)) {
            const res = await logout(
              new URLSearchParams({ logout_token: token }),
              form,
            );
            await jsonRefusal(
              res,
              400,
              "logout_token_invalid",
              JSON.stringify(token.slice(0, 30)),
            );
          }
        });

        await t.step("identities need a session", async () => {
          await jsonRefusal(
            await fetch(`${origin}/api/auth/sso/identities`),
            401,
            "session_absent",
            "list",
          );
        });

        await t.step(
          "unlinking: malformed ids 400, unknown and others' ids 404, cross-origin 403",
          async () => {
            const bob = new TestBrowser();
            await world.signIn(bob, "bob");
            const [bobs] = (await (await world.call(
              bob,
              "GET",
              "/api/auth/sso/identities",
            )).json()).identities;
            const ada = await signedInWithPassword(world, "ada@acme.example");
            for (const id of IN_URLS) {
              if (id === "" || id === " ") continue;
              const res = await world.call(
                ada,
                "DELETE",
                `/api/auth/sso/identities/${urlComponent(id)}`,
              );
              const { status, body } = await answered(res, id);
              assert(status === 400 || status === 404, `${id}: ${status}`);
              assertEquals(
                body?.code,
                status === 400 ? "identity_id_malformed" : "not_found",
                id,
              );
            }
            for (
              const id of [crypto.randomUUID(), bobs.id, bobs.id.toUpperCase()]
            ) {
              await jsonRefusal(
                await world.call(
                  ada,
                  "DELETE",
                  `/api/auth/sso/identities/${id}`,
                ),
                404,
                "identity_not_found",
                id,
              );
            }
            const crossed = await ada.request(
              `${origin}/api/auth/sso/identities/${bobs.id}`,
              { method: "DELETE", headers: { origin: "https://evil.example" } },
            );
            await jsonRefusal(crossed, 403, "request_cross_origin", "cross");
            // Bob's own, in upper case: his last way in, refused 409.
            await jsonRefusal(
              await world.call(
                bob,
                "DELETE",
                `/api/auth/sso/identities/${bobs.id.toUpperCase()}`,
              ),
              409,
              "last_sign_in_method",
              "last",
            );
          },
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
