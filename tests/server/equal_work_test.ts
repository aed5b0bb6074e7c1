// Equal work where the answer must not tell: a wrong password makes the
// reads an unknown address makes (the account's sessions, whose number
// depends on the account, are listed only after a right password, and only
// at the cap), and a reset request writes its message whether or not the
// address has an account (only a live account's is sent), so neither the
// answer nor the work after it depends on the address.

import { assertEquals } from "../fixtures/assert.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import { from } from "../fixtures/api.ts";
import { addUser, hasher, PASSWORD } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import type { Handler, Store } from "../../mod.ts";
import type { Mailer, MailTemplates } from "../../server/mail.ts";
import { defaultMailTemplates } from "../../server/core/mail/templates.ts";
import { RuleStore } from "../../server/core/rules/mod.ts";
import { countingLists } from "../fixtures/counting_lists.ts";
import { settled } from "../../server/http/_background.ts";

const CAP = 4;

async function post(app: Handler, path: string, body: unknown) {
  const res = await app(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    undefined,
    from("203.0.113.7"),
  );
  await res.body?.cancel();
  return res.status;
}

testEachStore(
  "a wrong password, an unknown address and a right one below the cap list no sessions; at the cap a right one lists them once and keeps the cap",
  async (underlying) => {
    const { counted, lists } = countingLists(
      (underlying as RuleStore).records,
    );
    const store: Store = new RuleStore(counted);
    const ada = await addUser(store, { email: "ada@example.com" });
    const { app, gatehouse } = gatehouseApp({
      store,
      hasher,
      limits: { maxSessionsPerAccount: CAP, accountLockThreshold: 1000 },
      rateLimit: { maxFailures: 1000 },
    });
    const login = (email: string, password: string) =>
      post(app, "/api/auth/login", { email, password });
    const sessionLists = async () => {
      await gatehouse.settled();
      return lists.splice(0).filter((kind) => kind === "session").length;
    };

    assertEquals(await login("ada@example.com", "wrong guess"), 401);
    assertEquals(await sessionLists(), 0, "a wrong password lists nothing");
    assertEquals(await login("nobody@example.com", PASSWORD), 401);
    assertEquals(await sessionLists(), 0, "an unknown address neither");
    for (let i = 0; i < CAP; i++) {
      assertEquals(await login("ada@example.com", PASSWORD), 200);
    }
    assertEquals(await sessionLists(), 0, "below the cap no list is read");
    assertEquals(await login("ada@example.com", "wrong guess"), 401);
    assertEquals(await sessionLists(), 0, "nor at the cap for a wrong one");
    assertEquals(await login("ada@example.com", PASSWORD), 200);
    assertEquals(await sessionLists(), 1, "at the cap a right one lists");
    // (The test reads through the store underneath: nothing it lists is
    // counted.)
    const live = () => underlying.listSessions(ada.id, Date.now());
    assertEquals((await live()).length, CAP);
    // Ending one session lowers the count: the next sign-in is below the
    // cap again and reads no list.
    const [oldest] = await live();
    const at = Date.now();
    await underlying.deleteSessionById(ada.id, oldest!.id, {
      now: at,
      idleCutoff: at - 60 * 60_000,
    });
    assertEquals(await login("ada@example.com", PASSWORD), 200);
    assertEquals(await sessionLists(), 0);
    assertEquals((await live()).length, CAP);
  },
);

testEachStore(
  "a reset request writes its message for an unknown, a disabled and a known address alike, and sends only the known one's",
  async (store) => {
    await addUser(store, { email: "ada@example.com" });
    const off = await addUser(store, { email: "off@example.com" });
    await store.updateUser(off.id, { disabled: true });
    const written: string[] = [];
    const sent: string[] = [];
    const templates: MailTemplates = {
      password_reset: (data, locale) => {
        written.push(data.email);
        return defaultMailTemplates.password_reset(data, locale);
      },
    };
    const mailer: Mailer = {
      send: (message) => {
        sent.push(message.to);
        return Promise.resolve();
      },
    };
    const { app } = gatehouseApp({
      store,
      hasher,
      mailer,
      templates,
      publicUrl: "https://gatehouse.example",
    });
    for (
      const email of [
        "nobody@example.com",
        "off@example.com",
        "ada@example.com",
      ]
    ) {
      assertEquals(
        await post(app, "/api/auth/password-reset", { email }),
        202,
      );
    }
    await settled(store);
    assertEquals(written, [
      "nobody@example.com",
      "off@example.com",
      "ada@example.com",
    ]);
    assertEquals(sent, ["ada@example.com"]);
  },
);
