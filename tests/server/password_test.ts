// argon2id: parameters, the WebAssembly fallback, equal work on every failed
// login path, and the upgrade of weaker hashes on the next successful login.

import { hash as nativeHash } from "@node-rs/argon2";
import { assert, assertEquals, assertThrows } from "../fixtures/assert.ts";
import { addUser, hasher, memoryStore, PASSWORD } from "../fixtures/kv.ts";
import { argon2Hasher, createAuth, type PasswordHasher } from "../../mod.ts";
import { parsePhc } from "../../server/core/password.ts";

Deno.test("argon2Hasher() hashes at OWASP parameters and refuses weaker ones", async () => {
  const hash = await hasher.hash("a password of some length");
  assertEquals(parsePhc(hash), {
    memoryCost: 19456,
    timeCost: 2,
    parallelism: 1,
  });
  assert(await hasher.verify(hash, "a password of some length"));
  assertEquals(await hasher.verify(hash, "another password"), false);
  assertEquals(await hasher.verify("not a hash", "x"), false);
  assertEquals(
    await hasher.verify("$argon2id$v=19$m=19456,t=2,p=1$bad$bad", "x"),
    false,
  );
  assertThrows(() => argon2Hasher({ memoryCost: 4096 }), RangeError);
  assertThrows(() => argon2Hasher({ timeCost: 1 }), RangeError);
  assertEquals(await hasher.backend(), "native");
});

Deno.test("the WebAssembly backend produces and verifies the same PHC strings", async () => {
  const wasm = argon2Hasher({ backend: "wasm" });
  assertEquals(await wasm.backend(), "wasm");
  const fromWasm = await wasm.hash(PASSWORD);
  const fromNative = await hasher.hash(PASSWORD);
  assertEquals(parsePhc(fromWasm), parsePhc(fromNative));
  assert(
    await hasher.verify(fromWasm, PASSWORD),
    "native verifies a wasm hash",
  );
  assert(
    await wasm.verify(fromNative, PASSWORD),
    "wasm verifies a native hash",
  );
  assertEquals(await wasm.verify(fromNative, "wrong password"), false);
});

function counting(real: PasswordHasher) {
  const counts = { hash: 0, verify: 0 };
  const wrapped: PasswordHasher = {
    hash: (password) => {
      counts.hash++;
      return real.hash(password);
    },
    verify: (hash, password) => {
      counts.verify++;
      return real.verify(hash, password);
    },
    needsRehash: (hash) => real.needsRehash(hash),
  };
  return { counts, hasher: wrapped };
}

Deno.test("every failed login path runs exactly one argon2 verification", async () => {
  const { store, close } = await memoryStore();
  try {
    await addUser(store, { email: "ada@example.com" });
    const bob = await addUser(store, { email: "bob@example.com" });
    await store.updateUser(bob.id, { disabled: true });
    const { counts, hasher: countingHasher } = counting(hasher);
    const auth = createAuth({ store, hasher: countingHasher });
    await auth.authenticate("ada@example.com", PASSWORD); // warms the dummy hash
    const paths: Array<[string, string, string]> = [
      ["unknown email", "nobody@example.com", PASSWORD],
      ["wrong password", "ada@example.com", "not the password"],
      ["disabled account", "bob@example.com", PASSWORD],
      ["success", "ada@example.com", PASSWORD],
    ];
    for (const [label, email, password] of paths) {
      const before = { ...counts };
      await auth.authenticate(email, password).catch(() => null);
      assertEquals(counts.verify - before.verify, 1, label);
      assertEquals(counts.hash - before.hash, 0, label);
    }
  } finally {
    await close();
  }
});

Deno.test("a weaker stored hash is upgraded on the next successful login", async () => {
  const { store, close } = await memoryStore();
  try {
    const weak = await nativeHash(PASSWORD, {
      memoryCost: 8192,
      timeCost: 1,
      parallelism: 1,
    });
    const user = await addUser(store, {
      email: "ada@example.com",
      passwordHash: weak,
    });
    const auth = createAuth({ store, hasher });
    await auth.authenticate("ada@example.com", "wrong password!").catch(() =>
      null
    );
    assertEquals(
      (await store.credentialsByEmail("ada@example.com"))?.passwordHash,
      weak,
    );
    assertEquals(
      (await auth.authenticate("ada@example.com", PASSWORD)).id,
      user.id,
    );
    const upgraded =
      (await store.credentialsByEmail("ada@example.com"))!.passwordHash;
    assertEquals(parsePhc(upgraded), {
      memoryCost: 19456,
      timeCost: 2,
      parallelism: 1,
    });
    assert(await hasher.verify(upgraded, PASSWORD));
    assertEquals(
      (await auth.authenticate("ada@example.com", PASSWORD)).id,
      user.id,
    );
    assertEquals(
      (await store.credentialsByEmail("ada@example.com"))!.passwordHash,
      upgraded,
    );
  } finally {
    await close();
  }
});
