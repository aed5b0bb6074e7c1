// The input boundary (DESIGN.md §5) on the routes of account security, the
// second factor, passkeys and the audit trail (§8–§10): every hostile string
// in every field, path value and query value answers a JSON 4xx with its
// code, never a 5xx, and nothing is written: the account keeps its
// password, its session, no factor and no passkey.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { HOSTILE, urlComponent } from "../fixtures/hostile.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { securityApi, UNTHROTTLED } from "../fixtures/security.ts";
import { testEachStore } from "../fixtures/stores.ts";

testEachStore(
  "hostile strings on every account-security, second-factor, passkey and audit route answer a JSON 4xx and write nothing",
  async (store) => {
    const api = securityApi(store, UNTHROTTLED);
    const admin = await addUser(store, {
      email: "owner@example.com",
      role: "admin",
    });
    const cookie = await api.login(admin.email);
    for (const s of HOSTILE) {
      const u = urlComponent(s);
      const calls: Array<[string, string, unknown]> = [
        ["POST", "/api/auth/password", {
          current_password: s,
          new_password: s,
        }],
        ["POST", "/api/auth/reauthenticate", { password: s }],
        ["POST", "/api/auth/reauthenticate", { code: s }],
        ["POST", "/api/auth/reauthenticate", { recovery_code: s }],
        ["POST", "/api/auth/reauthenticate", { passkey: s }],
        ["DELETE", `/api/auth/sessions/${u}`, undefined],
        ["DELETE", `/api/users/${u}/sessions`, undefined],
        ["POST", "/api/auth/totp/confirm", { code: s }],
        ["POST", "/api/auth/second-factor", { code: s }],
        ["POST", "/api/auth/second-factor", { recovery_code: s }],
        ["POST", "/api/auth/second-factor", { passkey: s }],
        ["DELETE", `/api/users/${u}/second-factor`, undefined],
        ["POST", "/api/auth/passkeys", { response: s, name: s }],
        ["PATCH", `/api/auth/passkeys/${u}`, { name: s }],
        ["DELETE", `/api/auth/passkeys/${u}`, undefined],
        ["POST", "/api/auth/passkeys/login", { response: s }],
        ["GET", `/api/audit?user_id=${u}`, undefined],
        ["GET", `/api/audit?type=${u}`, undefined],
        ["GET", `/api/audit?cursor=${u}`, undefined],
        ["GET", `/api/audit?limit=${u}`, undefined],
        ["GET", `/api/auth/activity?cursor=${u}`, undefined],
        ["GET", `/api/auth/activity?limit=${u}`, undefined],
      ];
      for (const [method, path, body] of calls) {
        const what = `${method} ${path.slice(0, 60)} ${
          JSON.stringify(s.slice(0, 30))
        }`;
        const res = await api.call(method, path, body, { cookie });
        if (res.status === 200) {
          // A filter or cursor nothing matches is an empty page, not an error.
          assert(method === "GET", `${what}: answered 200`);
          await res.body?.cancel();
          continue;
        }
        assert(res.status >= 400 && res.status < 500, `${what}: ${res.status}`);
        const answer = await res.json();
        assertEquals(typeof answer.code, "string", `${what}: no code`);
      }
    }
    assert(await api.live(cookie), "the session survived every call");
    await api.login(admin.email, PASSWORD);
    assertEquals(await store.accountFactors(admin.id), {
      totpEnabled: false,
      passkeyCount: 0,
      factorVersion: 0,
      hasPassword: true,
    });
    assertEquals(await store.listPasskeys(admin.id), []);
  },
);
