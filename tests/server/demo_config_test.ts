// The demo's GATEHOUSE_REQUIRE_SECOND_FACTOR: comma-separated known roles.

import { assertEquals, assertThrows } from "../fixtures/assert.ts";
import { sessionSettingsFromEnv } from "../../demo_config.ts";

Deno.test("GATEHOUSE_REQUIRE_SECOND_FACTOR names known roles, comma-separated", () => {
  const read = (value: string) =>
    sessionSettingsFromEnv({ GATEHOUSE_REQUIRE_SECOND_FACTOR: value })
      .requireSecondFactor;
  assertEquals(read(" admin , member "), ["admin", "member"]);
  assertEquals(read(""), undefined);
  assertEquals(read(" , "), undefined);
  assertThrows(() => read("admin,root"), RangeError);
});
