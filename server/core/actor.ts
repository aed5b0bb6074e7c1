// Who an administrative change is made by, as the store checks it in the
// change's own commit (./rules/_actor.ts): the type every change's options
// share, in a file of its own so the store's two interface files both reach
// it without reaching each other.

/**
 * The administrator an administrative change is made by, as the guard
 * admitted its request: the change commits only while that account is still
 * enabled, in this role and (when given) under this generation, read in the
 * change's own commit. Otherwise `session_absent` (disabled, deleted, signed
 * out everywhere) or `role_insufficient` (its role changed).
 */
export interface ActorStanding {
  /** The administrator's account. */
  id: string;
  /** Its role when the guard admitted the request. */
  role: string;
  /** The generation its session was issued under; absent: any. */
  generation?: number;
}

/** A change an administrator makes, bound to its standing. */
export interface ByActor {
  /** Who makes the change; absent: nobody's standing is checked. */
  actor?: ActorStanding;
}
