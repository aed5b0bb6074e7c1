// What every KvStore module needs of an account: the public record of a
// stored value, and the enabled counters (`role_count/{role}`,
// `enabled_count`) that an account's creation or change moves.

import type { UserRecord } from "../../core/store.ts";
import { type KvKeys, MINUS_ONE, type UserValue } from "./_keys.ts";

/** The account as the `Store` interface shows it: no credential material. */
export function toRecord(value: UserValue): UserRecord {
  return {
    id: value.id,
    email: value.email,
    name: value.name,
    role: value.role,
    disabled: value.disabled,
    createdAt: value.createdAt,
  };
}

/** Adds `by` to the counters of an enabled account with `role`. */
export function countEnabled(
  op: Deno.AtomicOperation,
  k: KvKeys,
  role: string,
  by: bigint,
): void {
  op.sum(k.roleCount(role), by).sum(k.enabledCount(), by);
}

/**
 * Net change of the enabled counters between two states of one account;
 * one mutation per key, since a commit may not touch a key twice.
 */
export function moveCounts(
  op: Deno.AtomicOperation,
  k: KvKeys,
  before: UserValue,
  after: UserValue,
): void {
  if (before.disabled === after.disabled && before.role === after.role) {
    return;
  }
  if (before.disabled !== after.disabled) {
    op.sum(k.enabledCount(), after.disabled ? MINUS_ONE : 1n);
  }
  if (!before.disabled && !after.disabled) {
    op.sum(k.roleCount(before.role), MINUS_ONE);
    op.sum(k.roleCount(after.role), 1n);
  } else if (!before.disabled) {
    op.sum(k.roleCount(before.role), MINUS_ONE);
  } else if (!after.disabled) {
    op.sum(k.roleCount(after.role), 1n);
  }
}
