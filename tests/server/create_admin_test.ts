// runCreateAdmin() in process, with a scripted terminal: the password prompt
// (twice, echo off, editing keys, Ctrl-C), --password-stdin, and one case per
// refusal, each a single line on stderr and a non-zero exit code.

import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import { addUser, hasher, memoryStore, PASSWORD } from "../fixtures/kv.ts";
import { ROLES } from "../../demo_config.ts";

// The role of the demo's ROLES that carries users.manage.
const PRIVILEGED = ["admin"];
import { createAuth, type Store } from "../../mod.ts";
import { roleRegistry } from "../../server/core/roles.ts";
import {
  type CreateAdminIo,
  type CreateAdminOptions,
  runCreateAdmin,
} from "../../server/features/create_admin.ts";

const ARGS = ["--email", "Ada@Example.com", "--name", "Ada", "--role", "admin"];

// A terminal whose keystrokes arrive in `chunks`; it records what was shown
// and every switch of raw mode.
function scriptedTerminal(chunks: string[], terminal = true) {
  const encoder = new TextEncoder();
  const shown = { out: "", err: "", raw: [] as boolean[], reads: 0 };
  const io: CreateAdminIo = {
    input: new ReadableStream({
      pull(controller) {
        shown.reads++;
        const chunk = chunks.shift();
        if (chunk === undefined) controller.close();
        else controller.enqueue(encoder.encode(chunk));
      },
    }, { highWaterMark: 0 }),
    isTerminal: () => terminal,
    setRaw: (raw) => void shown.raw.push(raw),
    write: (text) => void (shown.out += text),
    writeError: (text) => void (shown.err += text),
  };
  return { io, shown };
}

async function run(
  store: Store,
  args: string[],
  chunks: string[],
  options: Partial<CreateAdminOptions> & { terminal?: boolean } = {},
) {
  const { io, shown } = scriptedTerminal(chunks, options.terminal);
  const code = await runCreateAdmin(args, {
    store,
    roles: ROLES,
    hasher,
    io,
    ...options,
  });
  return { code, ...shown };
}

Deno.test("runCreateAdmin() asks for the password twice with echo off and creates the account", async () => {
  const { store, close } = await memoryStore();
  try {
    const r = await run(store, ARGS, [`${PASSWORD}\r`, `${PASSWORD}\r`]);
    assertEquals(r.code, 0);
    assertEquals(r.raw, [true, false, true, false]);
    assertEquals(r.err, "Password: \nRepeat password: \n");
    assertMatch(
      r.out,
      /^Created administrator "Ada@Example\.com" with role "admin" \(id [0-9a-f-]{36}\)\n$/,
    );
    assert(!r.out.includes(PASSWORD) && !r.err.includes(PASSWORD));
    const auth = createAuth({ store, privileged: PRIVILEGED, hasher });
    const identity = await auth.authenticate("ada@example.com", PASSWORD);
    assertEquals([identity.name, identity.role], ["Ada", "admin"]);
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() refuses passwords that do not match, creating nothing", async () => {
  const { store, close } = await memoryStore();
  try {
    const r = await run(store, ARGS, [
      `${PASSWORD}\r`,
      `${PASSWORD}!\r`,
    ]);
    assertEquals(r.code, 1);
    assertEquals(
      r.err,
      "Password: \nRepeat password: \nPasswords do not match\n",
    );
    assertEquals(r.out, "");
    assertEquals(r.raw, [true, false, true, false]);
    assertEquals(await store.hasUsers(), false);
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() applies Backspace and Ctrl-U at the prompt and takes \\n or \\r\\n as Enter", async () => {
  const { store, close } = await memoryStore();
  try {
    // Both answers in one chunk, the first split across two.
    const r = await run(store, ARGS, [
      "wrong start\x15correct horse battery stapp",
      `\x7fle\n${PASSWORD}X\b\r\n`,
    ]);
    assertEquals(r.code, 0, r.err);
    const auth = createAuth({ store, privileged: PRIVILEGED, hasher });
    assertEquals(
      (await auth.authenticate("ada@example.com", PASSWORD)).email,
      "Ada@Example.com",
    );
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() stops at Ctrl-C with exit code 130 and restores the terminal", async () => {
  const { store, close } = await memoryStore();
  try {
    const r = await run(store, ARGS, ["correct\x03"]);
    assertEquals(r.code, 130);
    assertEquals(r.err, "Password: \nCancelled\n");
    assertEquals(r.raw, [true, false]);
    assertEquals(await store.hasUsers(), false);
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() refuses input that ends before a password is typed", async () => {
  const { store, close } = await memoryStore();
  try {
    const eof = await run(store, ARGS, []);
    assertEquals(eof.code, 1);
    assertEquals(eof.err, "Password: \nNo password given\n");
    const ctrlD = await run(store, ARGS, [`${PASSWORD}\r`, "\x04"]);
    assertEquals(ctrlD.code, 1);
    assertEquals(ctrlD.raw, [true, false, true, false]);
    assertEquals(await store.hasUsers(), false);
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() checks the password length before asking again", async () => {
  const { store, close } = await memoryStore();
  try {
    const r = await run(store, ARGS, ["short\r", "short\r"]);
    assertEquals(r.code, 1);
    assertEquals(
      r.err,
      "Password: \nPassword is too short: use at least 12 characters\n",
    );
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() will not prompt when stdin is not a terminal", async () => {
  const { store, close } = await memoryStore();
  try {
    const r = await run(store, ARGS, [`${PASSWORD}\n`], { terminal: false });
    assertEquals(r.code, 1);
    assertEquals(
      r.err,
      "Cannot prompt for the password: stdin is not a terminal (pass --password-stdin)\n",
    );
    assertEquals(r.reads, 0);
    assertEquals(r.raw, []);
    assertEquals(await store.hasUsers(), false);
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() with --password-stdin reads one line, without prompts or raw mode", async () => {
  const { store, close } = await memoryStore();
  try {
    const r = await run(
      store,
      [
        "--email=grace@example.com",
        "--name=Grace Hopper",
        "--role=admin",
        "--password-stdin",
      ],
      [`${PASSWORD}\r\nsecond line\n`],
      { terminal: false },
    );
    assertEquals(r.code, 0, r.err);
    assertEquals(r.err, "");
    assertEquals(r.raw, []);
    const auth = createAuth({ store, privileged: PRIVILEGED, hasher });
    const identity = await auth.authenticate("grace@example.com", PASSWORD);
    assertEquals(identity.name, "Grace Hopper");
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() with --password-stdin refuses empty input", async () => {
  const { store, close } = await memoryStore();
  try {
    for (const input of [[], ["\n"]]) {
      const r = await run(store, [...ARGS, "--password-stdin"], input);
      assertEquals(r.code, 1);
      assertEquals(r.err, "No password on stdin: send it as one line\n");
    }
  } finally {
    await close();
  }
});

// [case, args, stdin, exit code, the one line on stderr]
const REFUSALS: Array<[string, string[], string, number, string | RegExp]> = [
  [
    "a missing --email",
    ["--name", "A", "--role", "admin"],
    "",
    2,
    /^Missing --email \(Usage: deno task create-admin --email E --name N --role R \[--password-stdin\]\)$/,
  ],
  [
    "a missing --name",
    ["--email", "a@b.c", "--role", "admin"],
    "",
    2,
    /^Missing --name \(Usage: /,
  ],
  [
    "a missing --role",
    ["--email", "a@b.c", "--name", "A"],
    "",
    2,
    /^Missing --role \(Usage: /,
  ],
  [
    "a flag without its value",
    ["--name", "A", "--role", "admin", "--email"],
    "",
    2,
    /^Missing value for --email \(Usage: /,
  ],
  [
    "a flag followed by another flag",
    ["--email", "--name", "A", "--role", "admin"],
    "",
    2,
    /^Missing value for --email \(Usage: /,
  ],
  [
    "an unknown argument",
    [...ARGS, "--admin"],
    "",
    2,
    /^Unknown argument: "--admin" \(Usage: /,
  ],
  [
    "a flag given twice",
    [...ARGS, "--role", "admin"],
    "",
    2,
    /^--role is given twice \(Usage: /,
  ],
  [
    "an invalid email",
    ["--email", "ada.example.com", "--name", "A", "--role", "admin"],
    "",
    1,
    'Email address is not valid: "ada.example.com"',
  ],
  [
    "an email with a newline",
    ["--email", "ada\n@example.com", "--name", "A", "--role", "admin"],
    "",
    1,
    'Email address is not valid: "ada\\u000a@example.com"',
  ],
  [
    "a blank name",
    ["--email", "a@b.c", "--name", " ", "--role", "admin"],
    "",
    1,
    "Name is required",
  ],
  [
    "a name over 100 characters",
    ["--email", "a@b.c", "--name", "n".repeat(101), "--role", "admin"],
    "",
    1,
    "Name is too long: the limit is 100 characters",
  ],
  [
    "a role the privileged list does not admit",
    ["--email", "a@b.c", "--name", "A", "--role", "member"],
    `${PASSWORD}\n`,
    1,
    'Role "member" may not administer users: use "admin"',
  ],
  [
    "no role",
    ["--email", "a@b.c", "--name", "A", "--role", ""],
    `${PASSWORD}\n`,
    1,
    'Role "" may not administer users: use "admin"',
  ],
  [
    "a short password",
    [...ARGS, "--password-stdin"],
    "eleven char\n",
    1,
    "Password is too short: use at least 12 characters",
  ],
  [
    "a long password",
    [...ARGS, "--password-stdin"],
    "p".repeat(257) + "\n",
    1,
    "Password is too long: use at most 256 characters",
  ],
  [
    "a common password",
    [...ARGS, "--password-stdin"],
    "Password1234\n",
    1,
    "Password is too common: choose one that is harder to guess",
  ],
  [
    "an email with a control character",
    ["--email", "ada\u0000@example.com", "--name", "A", "--role", "admin"],
    `${PASSWORD}\n`,
    1,
    'Email address is not valid: "ada\\u0000@example.com"',
  ],
];

for (const [name, args, stdin, code, line] of REFUSALS) {
  Deno.test(`runCreateAdmin() refuses ${name} with exit code ${code} and one line`, async () => {
    const { store, close } = await memoryStore();
    try {
      const piped = args.includes("--password-stdin")
        ? args
        : [...args, "--password-stdin"];
      const r = await run(store, piped, [stdin], { terminal: false });
      assertEquals(r.code, code);
      assertEquals(r.out, "");
      assertMatch(r.err, /^[^\n]+\n$/);
      const text = r.err.slice(0, -1);
      if (typeof line === "string") assertEquals(text, line);
      else assertMatch(text, line);
      assertEquals(await store.hasUsers(), false);
    } finally {
      await close();
    }
  });
}

Deno.test("runCreateAdmin() refuses an email that has an account in any case, before asking for the password", async () => {
  const { store, close } = await memoryStore();
  try {
    await addUser(store, { email: "ada@example.com", role: "member" });
    const r = await run(store, ARGS, [`${PASSWORD}\r`, `${PASSWORD}\r`]);
    assertEquals(r.code, 1);
    assertEquals(r.err, 'Email address is already in use: "Ada@Example.com"\n');
    assertEquals(r.raw, []);
    assertEquals((await store.listUsers({ limit: 10 })).users.length, 1);
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() refuses a role no registry declares when every role is admitted", async () => {
  const { store, close } = await memoryStore();
  try {
    const r = await run(
      store,
      ["--email", "a@b.c", "--name", "A", "--role", "root", "--password-stdin"],
      [`${PASSWORD}\n`],
      // The older option keeps the list given (empty: every role).
      { privileged: [], roles: undefined, capabilities: roleRegistry(ROLES) },
    );
    assertEquals(r.code, 1);
    assertEquals(r.err, 'Role is not known: "root"\n');
    const member = await run(
      store,
      [
        "--email",
        "a@b.c",
        "--name",
        "A",
        "--role",
        "member",
        "--password-stdin",
      ],
      [`${PASSWORD}\n`],
      // The older option keeps the list given (empty: every role).
      { privileged: [], roles: undefined, capabilities: roleRegistry(ROLES) },
    );
    assertEquals(member.code, 0, member.err);
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() opens the store only for valid arguments and always closes it", async () => {
  const { store, close } = await memoryStore();
  try {
    let opened = 0;
    let closed = 0;
    const openStore = () => {
      opened++;
      return Promise.resolve({ store, close: () => void closed++ });
    };
    const usage = await run(store, ["--email", "a@b.c"], [], {
      openStore,
      store: undefined,
    });
    assertEquals([usage.code, opened], [2, 0]);
    const refused = await run(store, [...ARGS, "--password-stdin"], ["x\n"], {
      openStore,
      store: undefined,
    });
    assertEquals([refused.code, opened, closed], [1, 1, 1]);
    const ok = await run(store, [...ARGS, "--password-stdin"], [
      `${PASSWORD}\n`,
    ], { openStore, store: undefined });
    assertEquals([ok.code, opened, closed], [0, 2, 2]);
    const failing = await run(store, [...ARGS, "--password-stdin"], [], {
      store: undefined,
      openStore: () =>
        Promise.reject(new Error("DATABASE_URL is set but\nunreachable")),
    });
    assertEquals(failing.code, 1);
    assertEquals(
      failing.err,
      "Cannot open the store: DATABASE_URL is set but\n",
    );
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() prints its usage for --help", async () => {
  const { store, close } = await memoryStore();
  try {
    const r = await run(store, ["--help"], []);
    assertEquals(r.code, 0);
    assertEquals(
      r.out,
      "Usage: deno task create-admin --email E --name N --role R [--password-stdin]\n",
    );
  } finally {
    await close();
  }
});

Deno.test("runCreateAdmin() refuses a password whose bytes are not UTF-8, creating nothing", async () => {
  // A Latin-1 terminal's "é" (0xE9), and a lone surrogate as CESU-8
  // (ED A0 80): decoded leniently, each became U+FFFD, so the account got a
  // password other than the one typed (and two different ones the same).
  const encoder = new TextEncoder();
  for (
    const bad of [
      new Uint8Array([0xe9]),
      new Uint8Array([0xed, 0xa0, 0x80]),
    ]
  ) {
    for (const terminal of [false, true]) {
      const { store, close } = await memoryStore();
      try {
        const line = new Uint8Array([
          ...encoder.encode("correct horse "),
          ...bad,
          ...encoder.encode(" battery staple\n"),
        ]);
        const chunks = terminal ? [line, line] : [line];
        let err = "";
        const code = await runCreateAdmin(
          terminal ? ARGS : [...ARGS, "--password-stdin"],
          {
            store,
            roles: ROLES,
            hasher,
            io: {
              input: new ReadableStream({
                pull(controller) {
                  const chunk = chunks.shift();
                  if (chunk === undefined) controller.close();
                  else controller.enqueue(chunk);
                },
              }, { highWaterMark: 0 }),
              isTerminal: () => terminal,
              setRaw: () => {},
              write: () => {},
              writeError: (text) => void (err += text),
            },
          },
        );
        assertEquals(code, 1, err);
        assertMatch(err, /The password is not UTF-8 text\n$/);
        assertEquals(await store.hasUsers(), false);
      } finally {
        await close();
      }
    }
  }
});

Deno.test("runCreateAdmin() refuses a password typed with keys the prompt does not apply (arrows, Tab), creating nothing", async () => {
  // Echo and line editing are off at the prompt: the Left arrow arrives as
  // ESC [ D, and was kept in the password, typed the same way twice. No
  // browser could type that password, so its owner could never sign in.
  for (
    const typed of [
      "correct horse batery\x1b[D\x1b[Dt staple", // Left arrow, twice
      "correct horse\tbattery staple", // Tab
    ]
  ) {
    const { store, close } = await memoryStore();
    try {
      const r = await run(store, ARGS, [`${typed}\r${typed}\r`]);
      assertEquals(r.code, 1, r.err);
      assertMatch(r.err, /control character/);
      assertEquals(r.raw.at(-1), false, "the terminal is restored");
      assertEquals(await store.hasUsers(), false);
    } finally {
      await close();
    }
  }
});

Deno.test("runCreateAdmin() stops reading a password line once it is past the limit", async () => {
  // A line with no end (`--password-stdin < /dev/zero | tr …`, a wrong
  // file) was kept whole, at some 25 bytes of memory a byte, before its
  // length was checked: 30 MB took 700 MB, and an endless one all memory.
  // It is refused once it is longer than any password could be.
  const chunk = new TextEncoder().encode("a".repeat(65_536));
  const available = 8 * 1024 * 1024;
  for (const terminal of [false, true]) {
    const { store, close } = await memoryStore();
    try {
      let pulled = 0;
      let err = "";
      const code = await runCreateAdmin(
        terminal ? ARGS : [...ARGS, "--password-stdin"],
        {
          store,
          roles: ROLES,
          hasher,
          io: {
            input: new ReadableStream({
              pull(controller) {
                if (pulled >= available) return controller.close();
                pulled += chunk.length;
                controller.enqueue(chunk);
              },
            }, { highWaterMark: 0 }),
            isTerminal: () => terminal,
            setRaw: () => {},
            write: () => {},
            writeError: (text) => void (err += text),
          },
        },
      );
      assertEquals(code, 1, err);
      assertMatch(err, /Password is too long: use at most 256 characters\n$/);
      assert(
        pulled <= 2 * chunk.length,
        `read ${pulled} bytes of a password line`,
      );
      assertEquals(await store.hasUsers(), false);
    } finally {
      await close();
    }
  }
});
