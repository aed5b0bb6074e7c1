// An invitation's mail goes out before its link is stored (a failed mail
// leaves nothing), so it must not go out for an inviter the store would then
// refuse. Two instances on one store, each behind a real HTTP server: an
// administrator's invitation on instance A is held at its read of the
// address's invitations, before the mail; meanwhile instance B disables that
// administrator, demotes it, or signs it out everywhere. When the held
// request goes on, it is refused as the commit would refuse it, and no mail
// has gone out: neither a link nobody can accept nor the "you already have
// an account" notice. On every store.

import { assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import {
  addUser,
  hasher,
  hashOf,
  PASSWORD,
  serveHandler,
} from "../fixtures/kv.ts";
import { ADMIN_INTERVENTIONS, ROLES, sendJson } from "../fixtures/admin.ts";
import { held } from "../fixtures/instrument.ts";
import type { Store } from "../../mod.ts";
import type { MailMessage } from "../../server/mail.ts";
import { fold } from "../../server/core/_fold.ts";

const PUBLIC_URL = "https://app.example";

pairTest(
  "send no invitation mail for an inviter disabled, demoted or signed out while the invitation was in flight",
  async (pair) => {
    const passwordHash = await hashOf(PASSWORD);
    let n = 0;
    // An address without an account gets the invitation's link; one with
    // an account gets the notice instead.
    for (const existing of [false, true]) {
      for (const intervention of ADMIN_INTERVENTIONS) {
        n++;
        const sent: MailMessage[] = [];
        const gate = held(pair.a, "invitationsFor");
        const instance = (store: Store) =>
          gatehouseApp({
            store,
            hasher,
            roles: ROLES,
            publicUrl: PUBLIC_URL,
            mailer: {
              send(message) {
                sent.push(message);
                return Promise.resolve();
              },
            },
          });
        const a = instance(gate.store);
        const b = instance(pair.b);
        const serverA = serveHandler(a.app);
        const serverB = serveHandler(b.app);
        try {
          const root = await addUser(pair.b, {
            email: `root${n}@example.com`,
            role: "admin",
            passwordHash,
          });
          const actor = await addUser(pair.b, {
            email: `actor${n}@example.com`,
            role: "admin",
            passwordHash,
          });
          const invitee = `invitee${n}@example.com`;
          if (existing) {
            await addUser(pair.b, {
              email: invitee,
              role: "member",
              passwordHash,
            });
          }
          const signIn = async (url: string, email: string) => {
            const res = await sendJson(url, "POST", "/api/auth/login", "", {
              email,
              password: PASSWORD,
            });
            assertEquals(res.status, 200);
            return res.cookie!;
          };
          const rootCookie = await signIn(serverB.url, root.email);
          const actorCookie = await signIn(serverA.url, actor.email);
          const before = sent.length;

          gate.arm();
          const inFlight = sendJson(
            serverA.url,
            "POST",
            "/api/users/invite",
            actorCookie,
            { email: invitee, name: "Invitee", role: "member" },
          );
          await gate.reached();
          const [m, p, bd] = intervention.request(actor.id);
          const done = await sendJson(serverB.url, m, p, rootCookie, bd);
          assertEquals(done.status === 200 || done.status === 204, true);
          gate.release();
          const answer = await inFlight;
          const label = `${
            existing ? "an account's address" : "a new address"
          }, the inviter ${intervention.name}`;
          assertEquals(
            [answer.status, answer.code],
            [...intervention.refusal],
            label,
          );
          assertEquals(
            sent.slice(before).map((mail) => mail.kind),
            [],
            label,
          );
          assertEquals(
            (await pair.b.invitationsFor(fold(invitee))).length,
            0,
            label,
          );
          await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
        } finally {
          gate.release();
          await Promise.all([serverA.close(), serverB.close()]);
        }
      }
    }
  },
);
