// Records what the client sent to the fake server, so tests can check
// methods, paths, query strings and bodies against the HTTP contract; and
// answers the harness refuses to give, for the tests whose point is one.

import type { Endpoint, TestEnvironment } from "@gatehouse/client/testing";
import { ERROR_STATUS, type ErrorCode, OPERATIONS } from "@gatehouse/contract";
import { http, type HttpHandler, HttpResponse } from "msw";

export interface SentRequest {
  method: string;
  url: URL;
  body: unknown;
}

export interface Recorder {
  /** The requests so far, with their JSON bodies read. */
  requests(): Promise<SentRequest[]>;
  stop(): void;
}

/** Starts recording every request the fake server sees. */
export function recordRequests(env: TestEnvironment): Recorder {
  const sent: Promise<SentRequest>[] = [];
  const listener = ({ request }: { request: Request }) => {
    const method = request.method;
    const url = new URL(request.url);
    sent.push(
      request.clone().text().then((text) => ({
        method,
        url,
        body: text === "" ? undefined : JSON.parse(text),
      })),
    );
  };
  env.server.events.on("request:start", listener);
  return {
    requests: () => Promise.all(sent),
    stop: () => env.server.events.removeListener("request:start", listener),
  };
}

/** What `promise` rejected with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/**
 * Refuses `operation` with `code` where the contract does not declare it:
 * a code of an application's own guard in front of the route, an older
 * server's answer, or any code on one route for a test of the client's
 * code→class table. `refuse()` of the harness answers only what the
 * contract lets a Gatehouse server answer, so such a test says so here.
 */
export function refuseOutsideContract(
  operation: Endpoint,
  code: ErrorCode,
  options: { meta?: Record<string, string>; message?: string } = {},
): HttpHandler {
  const { method, path } = OPERATIONS[operation];
  const status = ERROR_STATUS[code];
  const body = {
    error: options.message ?? `Refused: ${code}`,
    code,
    ...(options.meta === undefined ? {} : { meta: options.meta }),
  };
  const verb = method.toLowerCase() as Lowercase<typeof method>;
  return http[verb](`*${path}`, () => HttpResponse.json(body, { status }));
}
