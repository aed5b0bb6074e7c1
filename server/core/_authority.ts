// Who may administer users, decided in one place for createGatehouse and
// runCreateAdmin: the roles that carry USERS_MANAGE.

import { USERS_MANAGE } from "@gatehouse/contract";
import {
  type RoleDefinition,
  type RoleRegistry,
  roleRegistry,
} from "./roles.ts";

// Who may administer users, decided once: the roles that carry
// USERS_MANAGE. Without a registry, the privileged list is turned into one
// (its roles carry USERS_MANAGE; the known roles stay the privileged ones,
// and every known role stays grantable, as without a registry).
export function authority(
  options: {
    roles?: RoleRegistry | Readonly<Record<string, RoleDefinition>> | undefined;
    privileged?: readonly string[] | undefined;
  },
): { privileged: readonly string[]; roles: RoleRegistry } {
  if (options.roles !== undefined) {
    if (options.privileged !== undefined) {
      throw new TypeError(
        `Invalid options: give roles or privileged, not both (the roles carrying "${USERS_MANAGE}" are the privileged ones)`,
      );
    }
    const roles = isRegistry(options.roles)
      ? options.roles
      : roleRegistry(options.roles);
    const privileged = synchronous(roles.roles()).filter((role) =>
      synchronous(roles.capabilitiesOf(role)).includes(USERS_MANAGE)
    );
    if (privileged.length === 0) {
      throw new TypeError(
        `Invalid options: no role carries "${USERS_MANAGE}", so nobody could administer users`,
      );
    }
    return { privileged: Object.freeze(privileged), roles };
  }
  const privileged = Object.freeze([...(options.privileged ?? [])]);
  const admitted = new Set(privileged);
  const manage: readonly string[] = Object.freeze([USERS_MANAGE]);
  const none: readonly string[] = Object.freeze([]);
  return {
    privileged,
    roles: {
      capabilitiesOf: (role: string) =>
        admitted.size === 0 || admitted.has(role) ? manage : none,
      roles: () => privileged,
    },
  };
}

function isRegistry(
  roles: RoleRegistry | Readonly<Record<string, RoleDefinition>>,
): roles is RoleRegistry {
  return typeof roles.capabilitiesOf === "function" &&
    typeof roles.roles === "function";
}

function synchronous<T>(answer: T | Promise<T>): T {
  if (answer instanceof Promise) {
    throw new TypeError(
      "Invalid options: the role registry must answer synchronously here, to know who may administer users (compose by hand for a registry that looks roles up)",
    );
  }
  return answer;
}
