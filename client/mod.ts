/**
 * `@gatehouse/client`: the browser side of Gatehouse (work in progress).
 *
 * @module
 */

/** The package version. */
export const VERSION = "0.8.0";
