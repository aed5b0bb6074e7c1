// Old links after the account moved on, on every store over a real server:
// a reset link sent before the account was disabled stays dead once it is
// enabled again (a disable ends every session and reset link for good, so a
// link an attacker requested or intercepted does not come back with the
// account).

import { assertEquals } from "../fixtures/assert.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import {
  addUser,
  hasher,
  hashOf,
  PASSWORD,
  serveHandler,
} from "../fixtures/kv.ts";
import { ROLES } from "../fixtures/admin.ts";
import { linkToken } from "../fixtures/mail.ts";
import { testEachStore } from "../fixtures/stores.ts";
import type { MailMessage } from "../../server/mail.ts";

const NEW_PASSWORD = "a brand new horse battery";

testEachStore(
  "a reset link sent before a disable stays dead once the account is enabled again",
  async (store) => {
    const sent: MailMessage[] = [];
    const { app, gatehouse } = gatehouseApp({
      store,
      hasher,
      roles: ROLES,
      publicUrl: "https://app.example",
      mailer: {
        send(message) {
          sent.push(message);
          return Promise.resolve();
        },
      },
    });
    const server = serveHandler(app);
    try {
      const passwordHash = await hashOf(PASSWORD);
      const root = await addUser(store, {
        email: "root@example.com",
        role: "admin",
        passwordHash,
      });
      const target = await addUser(store, {
        email: "target@example.com",
        role: "member",
        passwordHash,
      });
      const call = async (
        method: string,
        path: string,
        body: unknown,
        cookie = "",
      ) => {
        const res = await fetch(server.url + path, {
          method,
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify(body),
        });
        const text = await res.text();
        return {
          status: res.status,
          code: text === "" ? null : JSON.parse(text).code ?? null,
          cookie: res.headers.get("set-cookie")?.split(";")[0] ?? "",
        };
      };
      const login = await call("POST", "/api/auth/login", {
        email: root.email,
        password: PASSWORD,
      });
      assertEquals(login.status, 200);
      assertEquals(
        (await call("POST", "/api/auth/password-reset", {
          email: target.email,
        })).status,
        202,
      );
      await gatehouse.settled();
      const reset = sent.find((m) => m.kind === "password_reset");
      const token = linkToken(reset!.text, "/reset");
      for (const disabled of [true, false]) {
        const res = await call("PATCH", `/api/users/${target.id}`, {
          disabled,
        }, login.cookie);
        assertEquals(res.status, 200);
      }
      const confirm = await call("POST", "/api/auth/password-reset/confirm", {
        token,
        password: NEW_PASSWORD,
      });
      assertEquals([confirm.status, confirm.code], [410, "token_invalid"]);
      // The password is the one it had.
      const again = await call("POST", "/api/auth/login", {
        email: target.email,
        password: PASSWORD,
      });
      assertEquals(again.status, 200);
      assertEquals((await store.userById(target.id))?.disabled, false);
      await gatehouse.settled();
    } finally {
      await server.close();
    }
  },
);
