/**
 * Errors about reaching the service rather than refusals: no answer, a
 * server failure, an answer outside the contract, a server too old for a
 * feature, an invitation the server could not deliver.
 *
 * @module
 */

import { AuthClientError, type AuthClientErrorOptions } from "./errors.ts";

/**
 * No answer came: the network is down or the request was blocked. Code
 * `network_failed`, status 0; `cause` holds the fetch error.
 *
 * @example Offering a retry
 * ```ts
 * import { NetworkError } from "@gatehouse/client";
 *
 * const error = new NetworkError(undefined, { cause: new TypeError("Failed to fetch") });
 * console.assert(error.status === 0 && error.code === "network_failed");
 * ```
 */
export class NetworkError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Cannot reach the server",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "network_failed", status: 0, ...options });
    this.name = "NetworkError";
  }
}

/**
 * The server failed (`internal`, or any 5xx answer). Worth a retry later.
 *
 * @example Recognising it
 * ```ts
 * import { ServerError } from "@gatehouse/client";
 *
 * console.assert(new ServerError().status === 500);
 * ```
 */
export class ServerError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Internal server error",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "internal", status: 500, ...options });
    this.name = "ServerError";
  }
}

/**
 * An answer outside the HTTP contract: not JSON, a missing field, a status
 * no code explains (code `response_malformed` unless the server sent one).
 * Usually a proxy or a mismatched server version.
 *
 * @example Recognising it
 * ```ts
 * import { UnexpectedResponseError } from "@gatehouse/client";
 *
 * console.assert(new UnexpectedResponseError().code === "response_malformed");
 * ```
 */
export class UnexpectedResponseError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Unexpected answer from the server",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "response_malformed", ...options });
    this.name = "UnexpectedResponseError";
  }
}

/**
 * A feature an older server lacks, as SPEC.md names them: `invitations`
 * and `passwordResets` came with `@gatehouse/server` 0.12.0; `roleChanges`
 * (`PUT /api/users/{id}/role`) with the first release after 0.8.0.
 *
 * @example Hiding a feature
 * ```ts
 * import type { ServerFeature } from "@gatehouse/client/admin";
 *
 * const hidden = new Set<ServerFeature>(["invitations"]);
 * ```
 */
export type ServerFeature = "invitations" | "passwordResets" | "roleChanges";

const FEATURES: Record<ServerFeature, { words: string; server: string }> = {
  invitations: { words: "invitations", server: ">=0.12.0" },
  passwordResets: { words: "password resets", server: ">=0.12.0" },
  roleChanges: { words: "role changes", server: ">0.8.0" },
};

/**
 * The server answered 404 on a route of a feature it is too old for: the
 * invitation and reset routes before server 0.12.0, the role write on 0.8.0
 * or older. Everything else keeps working. Code `server_too_old`, status
 * 404.
 *
 * @example Explaining why a screen is unavailable
 * ```ts
 * import { ServerTooOldError } from "@gatehouse/client/admin";
 *
 * const error = new ServerTooOldError("invitations");
 * console.assert(error.requiredServer === ">=0.12.0");
 * console.assert(error.message === 'Server too old for invitations: they need @gatehouse/server ">=0.12.0"');
 * ```
 */
export class ServerTooOldError extends AuthClientError {
  /** The feature the server lacks. */
  readonly feature: ServerFeature;
  /** The `@gatehouse/server` versions that have it, as a semver range. */
  readonly requiredServer: string;

  /**
   * Builds the error for `feature`.
   *
   * @param feature The feature the server lacks.
   * @param options Code, status, meta and cause.
   */
  constructor(feature: ServerFeature, options: AuthClientErrorOptions = {}) {
    const { words, server } = FEATURES[feature];
    super(
      `Server too old for ${words}: they need @gatehouse/server "${server}"`,
      { code: "server_too_old", status: 404, ...options },
    );
    this.name = "ServerTooOldError";
    this.feature = feature;
    this.requiredServer = server;
  }
}

/**
 * The invitation was not delivered and no activation link came back
 * (`{delivered: false}` alone), so nobody can accept it. Code
 * `invitation_failed`.
 *
 * @example Recognising it
 * ```ts
 * import { InvitationFailedError } from "@gatehouse/client/admin";
 *
 * console.assert(new InvitationFailedError().code === "invitation_failed");
 * ```
 */
export class InvitationFailedError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "The invitation could not be delivered",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "invitation_failed", status: 200, ...options });
    this.name = "InvitationFailedError";
  }
}
