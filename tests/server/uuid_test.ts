import { assert, assertEquals } from "../fixtures/assert.ts";
import { isUuid, uuidv7 } from "../../server/core/_crypto.ts";

Deno.test("uuidv7() makes version 7, variant 1 UUIDs carrying the time", () => {
  const now = Date.UTC(2026, 10, 21);
  const id = uuidv7(now);
  assert(isUuid(id), id);
  assertEquals(id[14], "7");
  assert("89ab".includes(id[19]!), id);
  assertEquals(parseInt(id.replaceAll("-", "").slice(0, 12), 16) >= now, true);
});

Deno.test("uuidv7() ids sort in the order they were made, even within one millisecond", () => {
  const ids = Array.from({ length: 10_000 }, () => uuidv7(Date.now()));
  assertEquals([...ids].sort(), ids);
  assertEquals(new Set(ids).size, ids.length);
  // A clock that stands still or steps back does not break the order.
  const frozen = Array.from({ length: 5000 }, () => uuidv7(1_000));
  assertEquals([...frozen].sort(), frozen);
  assert(frozen[0]! > ids.at(-1)!);
});
