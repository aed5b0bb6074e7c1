// The demo's GATEHOUSE_REQUIRE_SECOND_FACTOR (comma-separated known roles),
// GATEHOUSE_TOTP_KEYS and GATEHOUSE_DEVICE_KEYS (comma-separated keys,
// checked by Gatehouse; a device key of the process, with a warning, when
// unset) and GATEHOUSE_TRUSTED_PROXY (a header, and the proxies).

import { assertEquals, assertThrows } from "../fixtures/assert.ts";
import {
  processDeviceKeys,
  sessionSettingsFromEnv,
  trustedProxyFromEnv,
} from "../../demo_config.ts";

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

Deno.test("GATEHOUSE_DEVICE_KEYS is a comma-separated list, the signing key first", () => {
  const read = (value: string) =>
    sessionSettingsFromEnv({ GATEHOUSE_DEVICE_KEYS: value }).deviceKeys;
  assertEquals(read(" a2V5MQ== , a2V5Mg== "), ["a2V5MQ==", "a2V5Mg=="]);
  assertEquals(read(""), undefined);
  assertEquals(read(" , "), undefined);
});

Deno.test("without GATEHOUSE_DEVICE_KEYS the demo makes a key of its process, and warns", () => {
  const lines: string[] = [];
  const logger = {
    info() {},
    warn: (message: string) => void lines.push(message),
    error() {},
  };
  const [key] = processDeviceKeys(logger);
  assertEquals(Uint8Array.fromBase64(key!).length, 32);
  assertEquals(lines, ["GATEHOUSE_DEVICE_KEYS is not set"]);
  assertEquals(processDeviceKeys(logger)[0] === key, false, "random");
});

Deno.test("GATEHOUSE_TRUSTED_PROXY: a header trusted from loopback peers, or @ the proxies named", () => {
  const read = (value: string) =>
    sessionSettingsFromEnv({ GATEHOUSE_TRUSTED_PROXY: value }).trustedProxy;
  assertEquals(read("x-forwarded-for"), {
    header: "x-forwarded-for",
    addresses: ["127.0.0.1", "::1"],
  });
  assertEquals(read(" x-forwarded-for@10.0.0.1, 10.0.0.2 "), {
    header: "x-forwarded-for",
    addresses: ["10.0.0.1", "10.0.0.2"],
  });
  assertEquals(read(""), undefined);
  assertThrows(() => read("@10.0.0.1"), RangeError);
  assertThrows(() => read("x-forwarded-for@ , "), RangeError);
});

Deno.test("a trusted proxy with a malformed address fails at start", async () => {
  // createGatehouse checks the proxy: a malformed address fails at start.
  const { createGatehouse } = await import("../../mod.ts");
  const { memoryStore } = await import("../fixtures/kv.ts");
  const { store, close } = await memoryStore();
  try {
    assertThrows(
      () =>
        createGatehouse({
          store,
          trustedProxy: trustedProxyFromEnv("x-forwarded-for@not-an-address"),
        }),
      TypeError,
    );
  } finally {
    await close();
  }
});
