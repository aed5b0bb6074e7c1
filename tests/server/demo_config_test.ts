// The demo's GATEHOUSE_REQUIRE_SECOND_FACTOR (comma-separated known roles)
// and GATEHOUSE_TOTP_KEYS (comma-separated keys, checked by Gatehouse).

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

Deno.test("GATEHOUSE_TOTP_KEYS is a comma-separated list, the sealing key first", () => {
  const read = (value: string) =>
    sessionSettingsFromEnv({ GATEHOUSE_TOTP_KEYS: value }).totpKeys;
  assertEquals(read(" a2V5MQ== , a2V5Mg== "), ["a2V5MQ==", "a2V5Mg=="]);
  assertEquals(read(""), undefined);
  assertEquals(read(" , "), undefined);
});
