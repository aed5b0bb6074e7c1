// Revoking an invitation the list no longer shows as pending: its address
// got an account another way (an administrator created it), so the link
// can only die and `GET /api/users/invitations` leaves it out. Revoking it
// by its id answers 404 `invitation_not_found`, as for any invitation no
// longer pending, and records no `invitation.revoked` for it. On every
// store, over a real server.

import { assertEquals } from "../fixtures/assert.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import { addUser, PASSWORD, serveHandler } from "../fixtures/kv.ts";
import { cheapHasher } from "../fixtures/cheap_hasher.ts";
import { ROLES } from "../fixtures/admin.ts";
import { testEachStore } from "../fixtures/stores.ts";

testEachStore(
  "revoking an invitation whose address got an account since answers 404 and records nothing",
  async (store) => {
    const { app, gatehouse } = gatehouseApp({
      store,
      hasher: cheapHasher,
      roles: ROLES,
      publicUrl: "https://app.example",
    });
    const server = serveHandler(app);
    try {
      const root = await addUser(store, {
        email: "root@example.com",
        role: "admin",
        passwordHash: await cheapHasher.hash(PASSWORD),
      });
      let cookie = "";
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(server.url + path, {
          method,
          headers: { "content-type": "application/json", cookie },
          body: body === undefined ? null : JSON.stringify(body),
        });
        const text = await res.text();
        const set = res.headers.get("set-cookie");
        if (set !== null) cookie = set.split(";")[0]!;
        return {
          status: res.status,
          body: text === "" ? null : JSON.parse(text),
        };
      };
      assertEquals(
        (await call("POST", "/api/auth/login", {
          email: root.email,
          password: PASSWORD,
        })).status,
        200,
      );
      const invited = await call("POST", "/api/users/invite", {
        email: "bob@example.com",
        name: "Bob",
        role: "member",
      });
      assertEquals(invited.status, 200);
      const listed = await call("GET", "/api/users/invitations");
      const [invitation] = listed.body.invitations;
      assertEquals(invitation.email, "bob@example.com");
      const created = await call("POST", "/api/users", {
        email: "bob@example.com",
        name: "Bob",
        password: "a long enough password for bob",
        role: "member",
      });
      assertEquals(created.status, 201);
      assertEquals(
        (await call("GET", "/api/users/invitations")).body.invitations,
        [],
      );
      const revoked = await call(
        "DELETE",
        `/api/users/invitations/${invitation.id}`,
      );
      assertEquals(
        [revoked.status, revoked.body?.code],
        [404, "invitation_not_found"],
      );
      const events = await store.listAuditEvents({
        limit: 10,
        type: "invitation.revoked",
      });
      assertEquals(events.events.length, 0);
      await gatehouse.settled();
    } finally {
      await server.close();
    }
  },
);
