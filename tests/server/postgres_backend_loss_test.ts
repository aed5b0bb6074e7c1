// The database process behind a request dying mid-call (an administrator's
// pg_terminate_backend, an out-of-memory kill, a failover): the three
// account changes that once ran as postgres.js `sql.begin()` transactions
// must reject or complete, never take the process down (porsager/postgres
// #1208: the driver's own ROLLBACK written to a dead socket threw from a
// timer callback), and the store must work again on the next call.
//
// The store's pool gets an application_name of its own, so the test
// terminates exactly its backends, never those of a test running beside it.
// A second, direct pool sets up the schema and holds a row lock, so the call
// is caught waiting inside its statement when its backend is terminated.

import assert from "node:assert/strict";
import postgres from "postgres";
import type { Store } from "../../mod.ts";
import type { UserRecord } from "../../server/core/store.ts";
import { PostgresStore } from "../../server/stores/postgres/mod.ts";
import {
  acceptance,
  addLink,
  addUser,
  hash,
  HOUR,
} from "../../server/stores/conformance/_helpers.ts";
import {
  DATABASE_URL,
  ignorePostgres,
  pool,
  POOL_OPTIONS,
  uniqueSchema,
} from "../fixtures/postgres.ts";
import { gate } from "../fixtures/instrument.ts";

/** The accounts a case starts from, made through the direct pool. */
interface Accounts {
  admin: UserRecord;
  member: UserRecord;
}

/** One account change and the account row it waits on while locked. */
interface Operation {
  name: string;
  /** The account whose row, locked elsewhere, holds the call in flight. */
  lockedAccount(accounts: Accounts): UserRecord;
  /** Prepares what the call spends (a link) and returns the call. */
  prepare(
    setup: Store,
    accounts: Accounts,
  ): Promise<(store: Store) => Promise<unknown>>;
  /** What a successful call answers. */
  assertDone(answer: unknown, accounts: Accounts): void;
}

const OPERATIONS: Operation[] = [
  {
    name: "updateUser()",
    lockedAccount: ({ member }) => member,
    prepare: (_, { member }) =>
      Promise.resolve((store) =>
        store.updateUser(member.id, {
          role: "member",
          keepPrivileged: ["admin"],
        })
      ),
    assertDone(answer, { member }) {
      assert.deepEqual(answer, { ...member, role: "member" });
    },
  },
  {
    name: "acceptInvitation()",
    // The call waits on its inviter's row (FOR SHARE).
    lockedAccount: ({ admin }) => admin,
    async prepare(setup, { admin }) {
      const now = Date.now();
      const token = await addLink(setup, "invitation", {
        email: "invited@example.com",
        invitedBy: admin.id,
        expiresAt: now + HOUR,
      });
      // The same acceptance on a retry: a call that rejected wrote nothing.
      const accepted = acceptance(now);
      return (store) => store.acceptInvitation(token, accepted);
    },
    assertDone(answer) {
      assert.equal((answer as UserRecord | null)?.email, "invited@example.com");
    },
  },
  {
    name: "confirmReset()",
    lockedAccount: ({ member }) => member,
    async prepare(setup, { member }) {
      const now = Date.now();
      const token = await addLink(setup, "reset", {
        email: member.email,
        userId: member.id,
        expiresAt: now + HOUR,
      });
      return (store) =>
        store.confirmReset(token, { passwordHash: hash("new"), now });
    },
    assertDone(answer, { member }) {
      assert.deepEqual(answer, member);
    },
  },
];

// Polls until `check` holds; the test's own timeout bounds it.
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
}

// Collects what escapes every promise chain and every callback while `work`
// runs, and a little after (the driver's failing write ran from a timer),
// keeping it from ending the process so the test can report it.
async function escapedErrors(work: () => Promise<void>): Promise<unknown[]> {
  const escaped: unknown[] = [];
  const onRejection = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    escaped.push(event.reason);
  };
  const onError = (event: ErrorEvent) => {
    event.preventDefault();
    escaped.push(event.error);
  };
  globalThis.addEventListener("unhandledrejection", onRejection);
  globalThis.addEventListener("error", onError);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    globalThis.removeEventListener("unhandledrejection", onRejection);
    globalThis.removeEventListener("error", onError);
  }
  return escaped;
}

for (const operation of OPERATIONS) {
  Deno.test({
    name:
      `PostgresStore.${operation.name} survives its backend being terminated mid-call`,
    ignore: ignorePostgres,
    async fn() {
      const direct = pool();
      const schema = uniqueSchema();
      const applicationName = `gh_${schema.slice(-12)}`;
      const victim = postgres(DATABASE_URL, {
        ...POOL_OPTIONS,
        connection: { application_name: applicationName },
      });
      const release = gate();
      try {
        const setup = new PostgresStore(direct, { schema });
        await setup.migrate();
        const accounts = {
          admin: await addUser(setup, {
            email: "admin@example.com",
            role: "admin",
          }),
          member: await addUser(setup, {
            email: "member@example.com",
            role: "admin",
          }),
        };
        const call = await operation.prepare(setup, accounts);
        const store = new PostgresStore(victim, { schema });
        // The pool is warm, so the call's statement is what gets cut.
        assert.equal(await store.hasUsers(), true);

        const escaped = await escapedErrors(async () => {
          const locked = gate();
          const holding = direct.begin(async (tx) => {
            await tx.unsafe(
              `SELECT 1 FROM "${schema}".users WHERE id = $1 FOR UPDATE`,
              [operation.lockedAccount(accounts).id],
            );
            locked.open();
            await release.opened;
          });
          await locked.opened;
          const inFlight = call(store).then(
            (answer) => ({ answer }),
            (error: unknown) => ({ error }),
          );
          await until(async () => {
            const [row] = await direct`
              SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE application_name = ${applicationName}
                AND wait_event_type = 'Lock'`;
            return row!.n > 0;
          });
          await direct`
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = ${applicationName}`;
          const outcome = await inFlight;
          release.open();
          await holding;

          // A later call works; a call that rejected wrote nothing, so the
          // same change is still there to make.
          assert.equal(
            (await store.userById(accounts.admin.id))?.id,
            accounts.admin.id,
          );
          if ("error" in outcome) {
            operation.assertDone(await call(store), accounts);
          } else {
            operation.assertDone(outcome.answer, accounts);
          }
        });
        assert.deepEqual(escaped, []);
      } finally {
        release.open();
        await victim.end({ timeout: 0 });
        await direct.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await direct.end();
      }
    },
  });
}
