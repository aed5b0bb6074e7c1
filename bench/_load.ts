// The load generator: raw HTTP/1.1 over `Deno.connect`, one request in
// flight per socket (no pipelining), keep-alive, 127.0.0.1 only.
//
// Why not `fetch` or `node:http`: on two cores the generator shares the CPU
// with the server under test, so every microsecond it spends is one the
// server does not get. Writing a fixed byte string and reading the answer
// up to its Content-Length costs a fraction of a `fetch` round trip (see the
// `loadgen` scenario, which measures both against the ceiling server).

import { latencyPercentiles, Samples } from "./_stats.ts";

/** Options of {@linkcode runLoad}. */
export interface LoadOptions {
  /** Port on 127.0.0.1. */
  port: number;
  /**
   * Raw requests; each connection cycles through them, the connections
   * spread evenly over the list (connection i starts at entry
   * i × ⌊length / connections⌋, or i when the list is shorter), so the
   * requests in flight differ and a run goes round the whole list, not a
   * window sliding along it. An entry with its own `port` goes to that
   * server instead (each connection then keeps one socket per server), so
   * two servers can be compared request by request.
   */
  requests: readonly (Uint8Array | { port: number; bytes: Uint8Array })[];
  /** Concurrent keep-alive connections; 50 by default. */
  connections?: number;
  /** Stop starting requests after this many ms. */
  durationMs: number;
  /** Also stop when this settles (e.g. a sweep finished). */
  until?: Promise<unknown>;
  /** Status every answer should have; others count as errors. 200 by default. */
  expectStatus?: number;
  /**
   * The group of each entry of `requests` (e.g. `[0, 1, 0, 1]`): also
   * report the median latency of each group on its own. Interleaving two
   * kinds of request on one connection and splitting the samples compares
   * them under the very same machine conditions, which back-to-back runs on
   * a noisy machine do not.
   */
  groups?: readonly number[];
}

/** What one bounded run measured. */
export interface LoadResult {
  /** Completed requests with the expected status. */
  requests: number;
  /** Answers with another status, or broken connections. */
  errors: number;
  /** Wall time of the run, s. */
  seconds: number;
  /** Requests per second. */
  rps: number;
  /** Median latency, ms. */
  p50: number;
  /** 99th percentile latency, ms. */
  p99: number;
  /** First unexpected answer, for diagnosis. */
  firstError?: string;
  /** With `groups`: the median latency of each group, ms. */
  p50ByGroup?: number[];
}

const CRLFCRLF = [13, 10, 13, 10] as const;
const latin1 = new TextDecoder("latin1");
const encoder = new TextEncoder();

/** Builds a raw HTTP/1.1 request. */
export function httpRequest(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Uint8Array {
  const payload = body === undefined ? undefined : encoder.encode(body);
  let head = `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    head += `${name}: ${value}\r\n`;
  }
  if (payload !== undefined) head += `content-length: ${payload.length}\r\n`;
  head += "\r\n";
  const bytes = encoder.encode(head);
  if (payload === undefined) return bytes;
  const out = new Uint8Array(bytes.length + payload.length);
  out.set(bytes);
  out.set(payload, bytes.length);
  return out;
}

/** Runs closed-loop load for a bounded time and measures it. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const connections = options.connections ?? 50;
  const expect = options.expectStatus ?? 200;
  const samples = new Samples();
  const groups = options.groups;
  const byGroup = groups === undefined
    ? undefined
    : Array.from({ length: Math.max(...groups) + 1 }, () => new Samples());
  const state = { errors: 0, firstError: undefined as string | undefined };
  let stopped = false;
  options.until?.finally(() => stopped = true);
  const ports = [
    ...new Set([
      options.port,
      ...options.requests.map((r) => portOf(r, options.port)),
    ]),
  ];
  const conns = await Promise.all(
    Array.from(
      { length: connections },
      async () =>
        new Map(
          await Promise.all(
            ports.map(async (port) =>
              [port, await Connection.open(port)] as const
            ),
          ),
        ),
    ),
  );
  const start = performance.now();
  const deadline = start + options.durationMs;
  const stride = Math.max(
    1,
    Math.floor(options.requests.length / connections),
  );
  await Promise.all(conns.map((conn, i) =>
    drive(conn, i * stride, {
      port: options.port,
      requests: options.requests,
      expect,
      samples,
      groupOf: (index) =>
        groups === undefined ? undefined : byGroup![groups[index]!]!,
      state,
      running: () => !stopped && performance.now() < deadline,
    })
  ));
  const seconds = (performance.now() - start) / 1000;
  const { p50, p99 } = latencyPercentiles(samples.values());
  return {
    requests: samples.length,
    errors: state.errors,
    seconds,
    rps: samples.length / seconds,
    p50,
    p99,
    ...(state.firstError === undefined ? {} : { firstError: state.firstError }),
    ...(byGroup === undefined ? {} : {
      p50ByGroup: byGroup.map((s) => latencyPercentiles(s.values()).p50),
    }),
  };
}

/** An answer read off a {@linkcode Connection}. */
export interface Answer {
  /** The status code. */
  status: number;
  /** The status line and headers as sent (latin1), without the blank line. */
  head: string;
  /** The body; a view valid until the connection's next `send`. */
  body: Uint8Array;
}

/**
 * A keep-alive HTTP/1.1 connection to 127.0.0.1 that sends one raw request
 * at a time and reads its whole answer: the load generator's socket, also
 * for drivers whose next request depends on the last answer (a cookie).
 */
export class Connection {
  #conn: Deno.TcpConn;
  #buf = new Uint8Array(16 * 1024);

  private constructor(conn: Deno.TcpConn) {
    this.#conn = conn;
  }

  /** Connects to `port` on 127.0.0.1. */
  static async open(port: number): Promise<Connection> {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    conn.setNoDelay(true);
    return new Connection(conn);
  }

  /** Writes `request` and reads its answer up to its end. */
  async send(request: Uint8Array): Promise<Answer> {
    let written = 0;
    while (written < request.length) {
      written += await this.#conn.write(request.subarray(written));
    }
    let length = 0;
    let bodyStart = -1;
    let total = -1;
    let chunked = false;
    let head = "";
    for (;;) {
      if (length === this.#buf.length) {
        const bigger = new Uint8Array(this.#buf.length * 2);
        bigger.set(this.#buf);
        this.#buf = bigger;
      }
      const n = await this.#conn.read(this.#buf.subarray(length));
      if (n === null) throw new Error("connection closed by server");
      const from = Math.max(0, length - 3);
      length += n;
      if (bodyStart < 0) {
        const end = indexOf(this.#buf, CRLFCRLF, from, length);
        if (end < 0) continue;
        bodyStart = end + 4;
        head = latin1.decode(this.#buf.subarray(0, end));
        const cl = CONTENT_LENGTH.exec(head);
        if (cl) total = bodyStart + Number(cl[1]);
        else chunked = CHUNKED.test(head);
        if (!cl && !chunked) total = bodyStart; // e.g. 204
      }
      if (
        total >= 0 ? length >= total : chunked && endsChunked(this.#buf, length)
      ) {
        break;
      }
    }
    return {
      status: Number(head.slice(9, 12)),
      head,
      body: this.#buf.subarray(bodyStart, length),
    };
  }

  /** Closes the socket. */
  close(): void {
    this.#conn.close();
  }
}

const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding: *chunked/i;

function portOf(
  request: LoadOptions["requests"][number],
  fallback: number,
): number {
  return request instanceof Uint8Array ? fallback : request.port;
}

interface Driver {
  port: number;
  requests: LoadOptions["requests"];
  expect: number;
  samples: Samples;
  /** Where the latency of request `index` also goes, if anywhere. */
  groupOf(index: number): Samples | undefined;
  state: { errors: number; firstError: string | undefined };
  running(): boolean;
}

// One connection's closed loop: write a request, read its whole answer,
// record the latency, repeat.
async function drive(
  sockets: Map<number, Connection>,
  offset: number,
  d: Driver,
) {
  let next = offset;
  try {
    while (d.running()) {
      const index = next++ % d.requests.length;
      const entry = d.requests[index]!;
      const request = entry instanceof Uint8Array ? entry : entry.bytes;
      const conn = sockets.get(portOf(entry, d.port))!;
      const t0 = performance.now();
      const answer = await conn.send(request);
      if (answer.status === d.expect) {
        const latency = performance.now() - t0;
        d.samples.push(latency);
        d.groupOf(index)?.push(latency);
      } else {
        d.state.errors++;
        d.state.firstError ??= `status ${answer.status}: ${
          latin1.decode(answer.body.subarray(0, 200))
        }`;
      }
    }
  } catch (err) {
    d.state.errors++;
    d.state.firstError ??= String(err);
  } finally {
    for (const conn of sockets.values()) conn.close();
  }
}

function indexOf(
  buf: Uint8Array,
  needle: readonly number[],
  from: number,
  to: number,
): number {
  outer: for (let i = from; i <= to - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (buf[i + j] !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}

// The last chunk of a chunked body is `0\r\n\r\n`.
function endsChunked(buf: Uint8Array, length: number): boolean {
  return length >= 5 && buf[length - 5] === 48 &&
    indexOf(buf, [13, 10, 13, 10], length - 4, length) === length - 4;
}
