// Records what the client sent to the fake server, so tests can check
// methods, paths, query strings and bodies against the HTTP contract.

import type { TestEnvironment } from "@gatehouse/client/testing";

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
