// SEAM, to be pointed at the client's `listUsers` at merge: a page of
// accounts with the order (`sort`) and the total that `GET /api/users` now
// answers. The client's `fetchUsers` (its types and REST transport belong
// to the contract change) carries neither yet, so while the transport's
// `fetchUsers` is the REST one this file asks the route itself, with the
// client's error mapping and wire reader; an app that replaced `fetchUsers`
// keeps its replacement (in creation order, without a total).

import { send } from "../_http.ts";
import { readUserPage } from "../_wire.ts";
import { fetchUsers } from "../admin_calls.ts";
import { activeTransport } from "../transport.ts";
import type { User } from "../types.ts";

/** The orders of the list. */
export type UserSort =
  | "created"
  | "-created"
  | "name"
  | "-name"
  | "email"
  | "-email";

/** What the list asks for. */
export interface UsersPageQuery {
  readonly limit: number;
  readonly cursor?: string;
  readonly q?: string;
  readonly sort: UserSort;
}

/** A page, with the total when the server counts. */
export interface UsersPage {
  readonly users: readonly User[];
  readonly nextCursor: string | null;
  /** Accounts matching over every page; null when unknown. */
  readonly total: number | null;
  /** Whether the page came in the order asked for. */
  readonly sorted: boolean;
}

// The REST operation in force when the screens loaded (apps configure
// their transport after their imports have run).
const restFetchUsers = activeTransport().fetchUsers;

/** A page of accounts in `query.sort`'s order, with the total. */
export async function listUsersPage(query: UsersPageQuery): Promise<UsersPage> {
  const { limit, cursor, q, sort } = query;
  if (activeTransport().fetchUsers !== restFetchUsers) {
    const page = await fetchUsers({
      limit,
      ...(cursor === undefined ? {} : { cursor }),
      ...(q === undefined ? {} : { q }),
    });
    return { ...page, total: null, sorted: sort === "created" };
  }
  const params = new URLSearchParams({ limit: String(limit) });
  if (cursor !== undefined) params.set("cursor", cursor);
  if (q !== undefined) params.set("q", q);
  if (sort !== "created") params.set("sort", sort);
  const response = await send({}, {
    method: "GET",
    path: `/api/users?${params}`,
    operation: "fetchUsers",
  });
  const body: unknown = await response.json().catch(() => null);
  const page = readUserPage(body, response.status);
  const total = (body as { total?: unknown } | null)?.total;
  const counted = typeof total === "number" && Number.isInteger(total);
  // A server that counts also orders (both came together); an older one
  // ignores `sort` and answers in creation order.
  return {
    ...page,
    total: counted ? total : null,
    sorted: counted || sort === "created",
  };
}
