// The demo's single sign-on provider from GATEHOUSE_OIDC_* (DESIGN.md §13):
// every variable read, a mistake refused at start with the variable's
// name, and the result taken by createGatehouse as it is (a provider the
// demo cannot reach at start does not stop it).

import { assert, assertEquals, assertThrows } from "../fixtures/assert.ts";
import { memoryStore } from "../fixtures/kv.ts";
import { ROLES, ssoFromEnv } from "../../demo_config.ts";
import { createGatehouse } from "../../mod.ts";

const BASE = {
  GATEHOUSE_OIDC_ISSUER: "https://login.acme.example",
  GATEHOUSE_OIDC_CLIENT_ID: "gatehouse",
  GATEHOUSE_OIDC_CLIENT_SECRET: "s3cret",
};

Deno.test("without GATEHOUSE_OIDC_ISSUER the demo has no single sign-on", () => {
  assertEquals(ssoFromEnv({}), undefined);
  assertEquals(ssoFromEnv({ GATEHOUSE_OIDC_ISSUER: " " }), undefined);
});

Deno.test("GATEHOUSE_OIDC_* make one provider, with its defaults", () => {
  assertEquals(ssoFromEnv(BASE), {
    providers: [{
      id: "sso",
      name: "SSO",
      issuer: "https://login.acme.example",
      clientId: "gatehouse",
      clientSecret: "s3cret",
      domains: [],
      createAccounts: false,
      roleMap: [],
      syncRole: false,
      enforce: false,
    }],
  });
  const full = ssoFromEnv({
    ...BASE,
    GATEHOUSE_OIDC_NAME: "Acme",
    GATEHOUSE_OIDC_ID: "acme",
    GATEHOUSE_OIDC_DOMAINS: " acme.example , acme.test ,",
    GATEHOUSE_OIDC_CREATE: "1",
    GATEHOUSE_OIDC_ROLE_MAP: "gatehouse-admins=admin, staff = member",
    GATEHOUSE_OIDC_DEFAULT_ROLE: "member",
    GATEHOUSE_OIDC_SYNC_ROLE: "1",
    GATEHOUSE_OIDC_ENFORCE: "1",
  })!.providers[0]!;
  assertEquals(full.id, "acme");
  assertEquals(full.name, "Acme");
  assertEquals(full.domains, ["acme.example", "acme.test"]);
  assertEquals(full.roleMap, [["gatehouse-admins", "admin"], [
    "staff",
    "member",
  ]]);
  assertEquals(full.defaultRole, "member");
  assert(full.createAccounts && full.syncRole && full.enforce);
});

Deno.test("a mistake in GATEHOUSE_OIDC_* is refused at start, by name", () => {
  const cases: [Record<string, string>, string][] = [
    [{ GATEHOUSE_OIDC_ISSUER: "https://x.example" }, "CLIENT_ID"],
    [{ ...BASE, GATEHOUSE_OIDC_CREATE: "yes" }, "GATEHOUSE_OIDC_CREATE"],
    [{ ...BASE, GATEHOUSE_OIDC_ROLE_MAP: "admins" }, "ROLE_MAP"],
    [{ ...BASE, GATEHOUSE_OIDC_ROLE_MAP: "admins=root" }, "unknown role"],
    [{ ...BASE, GATEHOUSE_OIDC_DEFAULT_ROLE: "root" }, "DEFAULT_ROLE"],
  ];
  for (const [env, named] of cases) {
    assertThrows(() => ssoFromEnv(env), RangeError);
    const message = (() => {
      try {
        ssoFromEnv(env);
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    assert(message.includes(named), message);
    assert(!message.includes("s3cret"));
  }
});

Deno.test("createGatehouse takes the demo's provider, and checks it", async () => {
  const { store, close } = await memoryStore();
  try {
    const sso = ssoFromEnv({
      ...BASE,
      GATEHOUSE_OIDC_ISSUER: "http://127.0.0.1:9",
      GATEHOUSE_OIDC_DOMAINS: "acme.example",
      GATEHOUSE_OIDC_ENFORCE: "1",
    })!;
    const logger = { info() {}, warn() {}, error() {} };
    const gatehouse = createGatehouse({
      store,
      roles: ROLES,
      logger,
      publicUrl: "https://app.example",
      sso: { ...sso, timeoutSeconds: 1 },
    });
    const res = await gatehouse.sso.listSsoProviders(
      new Request("https://app.example/api/auth/sso"),
    );
    assertEquals((await res.json()).providers, [{
      id: "sso",
      name: "SSO",
      domains: ["acme.example"],
      enforce: true,
    }]);
    await gatehouse.settled();
    // Without publicUrl the redirect URI cannot be built.
    assertThrows(
      () => createGatehouse({ store, roles: ROLES, logger, sso }),
      TypeError,
    );
    // An https issuer is required off loopback.
    assertThrows(
      () =>
        createGatehouse({
          store,
          roles: ROLES,
          logger,
          publicUrl: "https://app.example",
          sso: ssoFromEnv({
            ...BASE,
            GATEHOUSE_OIDC_ISSUER: "http://login.acme.example",
          })!,
        }),
      TypeError,
    );
  } finally {
    await close();
  }
});
