// The islands' browser bundle: `deno bundle` of islands/_hydrate.tsx, one
// file holding every island with one copy of Preact, TanStack Query and
// @wordpress/i18n. The demo builds it at start (locally); on Deno Deploy,
// where no subprocess runs, `deno task build` makes it beforehand and the
// demo loads the file.

import { type HashedAsset, hashedAsset } from "./hash.ts";

/**
 * The built bundle: its JavaScript and the content-hashed path it is served
 * at from memory, e.g. `/build/islands-1a2b3c4d5e6f.js`.
 */
export type IslandBundle = HashedAsset;

/** Options of {@linkcode buildIslands}. */
export interface BuildOptions {
  /** Minify the output (the default; tests turn it off to read comments). */
  minify?: boolean;
  /**
   * Where to write the bundle; `static/build/islands.js` by default. The file
   * is written beside and renamed into place, so concurrent builds never
   * leave a half-written file.
   */
  output?: string | URL;
}

const ROOT = new URL("../", import.meta.url);
const ENTRY = "islands/_hydrate.tsx";

/** Where `deno task build` writes the bundle and Deno Deploy finds it. */
export const PREBUILT = new URL("static/build/islands.js", ROOT);

/**
 * Bundles the islands with `deno bundle --platform browser`.
 *
 * @param options Minification and output path.
 * @returns The bundle.
 */
export async function buildIslands(
  options: BuildOptions = {},
): Promise<IslandBundle> {
  const output = new URL(options.output ?? PREBUILT, ROOT);
  const dir = new URL("./", output);
  await Deno.mkdir(dir, { recursive: true });
  const partial = new URL(`.${crypto.randomUUID()}.partial.js`, dir);
  const args = ["bundle", "--quiet", "--platform", "browser"];
  if (options.minify ?? true) args.push("--minify");
  args.push("--output", partial.pathname, ENTRY);
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  try {
    if (code !== 0) {
      throw new Error(
        `Cannot bundle the islands: deno bundle exited with ${code}\n${
          new TextDecoder().decode(stderr)
        }`,
      );
    }
    await Deno.rename(partial, output);
  } finally {
    await Deno.remove(partial).catch(() => {});
  }
  return await loadIslands(output);
}

/**
 * Reads a bundle built earlier (by `deno task build`).
 *
 * @param path The file; `static/build/islands.js` by default.
 * @returns The bundle.
 */
export async function loadIslands(
  path: string | URL = PREBUILT,
): Promise<IslandBundle> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (cause) {
    throw new Error(
      `Cannot read the island bundle at ${
        String(path)
      }: run "deno task build" first`,
      { cause },
    );
  }
  return await hashedAsset("/build/islands", "js", text);
}
