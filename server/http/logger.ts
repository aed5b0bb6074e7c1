/**
 * The logging surface Gatehouse writes to. Library code never prints on its
 * own: it calls the logger the caller gave, `console` by default.
 *
 * @module
 */

/**
 * A structured logger. `console` fits it, as do most logging libraries.
 *
 * @example A logger that keeps lines in memory
 * ```ts
 * import type { Logger } from "@gatehouse/server";
 *
 * const lines: string[] = [];
 * const logger: Logger = {
 *   info: (message) => lines.push(message),
 *   warn: (message) => lines.push(message),
 *   error: (message) => lines.push(message),
 * };
 * logger.warn("write refused", { reason: "origin" });
 * ```
 */
export interface Logger {
  /** Normal operation worth recording, e.g. a mailed link in development. */
  info(message: string, fields?: Record<string, unknown>): void;
  /** A refusal or misconfiguration an operator should see. */
  warn(message: string, fields?: Record<string, unknown>): void;
  /** A failure, with its cause in `fields`. */
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The default logger: the global `console`. */
export const defaultLogger: Logger = console;
