// Reads lines from a byte stream, for `create-admin`'s password input: from
// a pipe (`--password-stdin`) or from a terminal in raw mode, where echo is
// off and the program itself has to apply the editing keys the terminal no
// longer handles.

/** Thrown when the person at the terminal presses Ctrl-C. */
export class InputCancelled extends Error {
  constructor() {
    super("Cancelled");
    this.name = "InputCancelled";
  }
}

const CTRL_C = "\x03";
const CTRL_D = "\x04";
const CTRL_U = "\x15";
const BACKSPACE = "\b";
const DELETE = "\x7f";

/**
 * Thrown when the input is not UTF-8: decoded leniently, such bytes would
 * become U+FFFD, a password other than the one typed.
 */
export class InputNotText extends Error {
  constructor() {
    super("The input is not UTF-8 text");
    this.name = "InputNotText";
  }
}

/** Thrown when a line runs past the length its reader was given. */
export class LineTooLong extends Error {
  constructor() {
    super("The line is too long");
    this.name = "LineTooLong";
  }
}

/** Lines from a stream, one at a time; several reads share one buffer. */
export class LineReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder("utf-8", { fatal: true });
  #pending: string[] = [];
  #ended = false;
  #afterCr = false;

  /** Locks `stream` until {@linkcode LineReader.release}. */
  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  /**
   * The next line without its end (`\n`, `\r\n` or `\r`), or null when the
   * input ends first. With `terminal`, Backspace/Delete erase a character,
   * Ctrl-U the line, Ctrl-D on an empty line ends input, and Ctrl-C throws
   * {@linkcode InputCancelled}. A line longer than `max` code points
   * throws {@linkcode LineTooLong} at once, without reading the rest: a
   * line with no end would otherwise be kept until memory ran out.
   */
  async readLine(
    terminal: boolean,
    max = Infinity,
  ): Promise<string | null> {
    const line: string[] = [];
    while (true) {
      const ch = await this.#next();
      if (ch === null) return line.length === 0 ? null : line.join("");
      if (this.#afterCr) {
        this.#afterCr = false;
        if (ch === "\n") continue;
      }
      if (ch === "\n") return line.join("");
      if (ch === "\r") {
        this.#afterCr = true;
        return line.join("");
      }
      if (terminal) {
        if (ch === CTRL_C) throw new InputCancelled();
        if (ch === CTRL_D) {
          if (line.length === 0) return null;
          continue;
        }
        if (ch === BACKSPACE || ch === DELETE) {
          line.pop();
          continue;
        }
        if (ch === CTRL_U) {
          line.length = 0;
          continue;
        }
      }
      line.push(ch);
      if (line.length > max) throw new LineTooLong();
    }
  }

  /** Releases the stream (it stays open for its owner). */
  release(): void {
    this.#reader.releaseLock();
  }

  // One code point at a time; bytes of a character split across chunks are
  // held by the decoder until the rest arrives.
  async #next(): Promise<string | null> {
    while (this.#pending.length === 0) {
      if (this.#ended) return null;
      const { done, value } = await this.#reader.read();
      let text: string;
      try {
        text = done
          ? this.#decoder.decode()
          : this.#decoder.decode(value, { stream: true });
      } catch {
        throw new InputNotText();
      }
      if (done) this.#ended = true;
      this.#pending = [...text].reverse();
    }
    return this.#pending.pop()!;
  }
}
