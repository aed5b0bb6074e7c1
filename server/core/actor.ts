// Who an administrative change is made by, as the store checks it in the
// change's own commit (./rules/_actor.ts): the type every change's options
// share, in a file of its own so the store's two interface files both reach
// it without reaching each other.

/**
 * The account a change is made by, as the guard admitted its request (an
 * administrator's change, or a security change to one's own account): the
 * change commits only while that account is still enabled, (when given) in
 * this role and under this generation, read in the change's own commit.
 * Otherwise `session_absent` (disabled, deleted, signed out everywhere, its
 * password reset) or `role_insufficient` (its role changed).
 */
export interface ActorStanding {
  /** The administrator's account. */
  id: string;
  /**
   * Its role when the guard admitted the request; absent: any (a change to
   * one's own account, whose guard asks for no role).
   */
  role?: string;
  /** The generation its session was issued under; absent: any. */
  generation?: number;
  /**
   * The key of the session the request came with (the digest of its
   * token); absent: any (an administrator's change). With it, the change
   * commits only while that session is still stored: one its owner ended
   * alone from another device refuses it as a sign-out everywhere does.
   */
  session?: string;
}

/** A change made by a signed-in account, bound to its standing. */
export interface ByActor {
  /** Who makes the change; absent: nobody's standing is checked. */
  actor?: ActorStanding;
}
