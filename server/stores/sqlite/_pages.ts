// The two paged reads on SQLite: accounts (the search, the orders of
// `AccountQuery.sort` and the keyset cursor, as ../_user_listing.ts defines
// them in memory) and audit events (newest first by id). Folded keys compare
// in SQLite's binary order of UTF-8: code points, as Postgres's `COLLATE "C"`.

import type { SQLInputValue } from "node:sqlite";
import type {
  AccountPage,
  AccountQuery,
  AccountRecord,
  AuditEvent,
  EventQuery,
} from "../../core/records.ts";
import { type Connection, parse } from "./_connection.ts";
import { field, RECORDS } from "./_schema.ts";

// The column of each order. Ids (UUIDv7, so creation order) are the key and
// break ties.
const ORDERS = {
  created: "key",
  name: field("nameKey"),
  email: field("emailKey"),
};

/** The page of accounts `query` asks for, and how many match in all. */
export function accountPage(c: Connection, query: AccountQuery): AccountPage {
  const sort = query.sort ?? "created";
  const descending = sort.startsWith("-");
  const order = ORDERS[sort.replace("-", "") as keyof typeof ORDERS];
  const args: Record<string, SQLInputValue> = {};
  let matching = `FROM ${RECORDS} WHERE kind = 'account'`;
  if (query.q) {
    // instr(), not LIKE: LIKE folds ASCII case and reads % and _.
    matching += ` AND (instr(${field("emailKey")}, :q) > 0` +
      ` OR instr(${field("nameKey")}, :q) > 0)`;
    args.q = query.q;
  }
  const total = c.statement(`SELECT count(*) AS n ${matching}`).get(args)!;
  if (query.cursor !== undefined) {
    // The cursor is the previous page's last id; in creation order it says
    // where to go on by itself, otherwise its account gives the sort key
    // (none: an empty page, as in memory).
    const after = descending ? "<" : ">";
    matching += order === "key"
      ? ` AND key ${after} :cursor`
      : ` AND (${order}, key) ${after} (
        SELECT ${order}, key FROM ${RECORDS}
        WHERE kind = 'account' AND key = :cursor)`;
    args.cursor = query.cursor;
  }
  const direction = descending ? " DESC" : "";
  // One row more than asked tells whether another page follows.
  const rows = c.statement(`SELECT value ${matching}
    ORDER BY ${order}${direction}, key${direction} LIMIT :limit`)
    .all({ ...args, limit: query.limit + 1 });
  const accounts = rows.slice(0, query.limit).map(parse<AccountRecord>);
  return {
    accounts,
    nextCursor: rows.length > query.limit ? accounts.at(-1)!.id : null,
    total: Number(total.n),
  };
}

/** A page of events, newest first, of one account and type if asked. */
export function eventPage(c: Connection, query: EventQuery): AuditEvent[] {
  const where = ["kind = 'event'"];
  const args: Record<string, SQLInputValue> = { limit: query.limit };
  if (query.userId !== undefined) {
    where.push(
      `(${field("actorId")} = :user OR ${field("targetId")} = :user)`,
    );
    args.user = query.userId;
  }
  if (query.type !== undefined) {
    where.push(`${field("type")} = :type`);
    args.type = query.type;
  }
  if (query.cursor !== undefined) {
    where.push("key < :cursor");
    args.cursor = query.cursor;
  }
  return c.statement(`SELECT value FROM ${RECORDS}
    WHERE ${where.join(" AND ")} ORDER BY key DESC LIMIT :limit`)
    .all(args).map(parse<AuditEvent>);
}
