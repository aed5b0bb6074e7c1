// Extracts every translatable string of the screens from their source: the
// first arguments of __(), _x() and _n() calls, which the screens always
// write as string literals followed by DOMAIN (as gettext tools expect).

import { fileURLToPath } from "node:url";

const SCREENS = fileURLToPath(
  new URL("../../../client/screens/", import.meta.url),
);

/** One translatable string and where it was found. */
export interface SourceString {
  /** The catalogue key: the text, prefixed by `context\u0004` for _x(). */
  readonly key: string;
  /** The English text (the singular for _n()). */
  readonly text: string;
  /** The plural of an _n() call. */
  readonly plural?: string;
  readonly file: string;
}

const LITERAL = String.raw`("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')`;
const SEP = String.raw`\s*,\s*`;
const CALLS: Array<
  [RegExp, (m: RegExpExecArray) => Omit<SourceString, "file">]
> = [
  [
    new RegExp(String.raw`\b__\(\s*${LITERAL}${SEP}DOMAIN\s*,?\s*\)`, "g"),
    (m) => ({ key: unquote(m[1]!), text: unquote(m[1]!) }),
  ],
  [
    new RegExp(
      String.raw`\b_x\(\s*${LITERAL}${SEP}${LITERAL}${SEP}DOMAIN\s*,?\s*\)`,
      "g",
    ),
    (m) => ({
      key: `${unquote(m[2]!)}\u0004${unquote(m[1]!)}`,
      text: unquote(m[1]!),
    }),
  ],
  [
    new RegExp(
      String
        .raw`\b_n\(\s*${LITERAL}${SEP}${LITERAL}${SEP}[^,()]+${SEP}DOMAIN\s*,?\s*\)`,
      "g",
    ),
    (m) => ({
      key: unquote(m[1]!),
      text: unquote(m[1]!),
      plural: unquote(m[2]!),
    }),
  ],
];

/** Any call of a translation function, well formed or not. */
const ANY_CALL = /\b(?:__|_x|_n|_nx)\(/g;

function unquote(literal: string): string {
  // Both quote styles hold plain JS string literals.
  return literal.startsWith("'")
    ? JSON.parse(
      `"${literal.slice(1, -1).replaceAll('"', '\\"').replaceAll("\\'", "'")}"`,
    )
    : JSON.parse(literal);
}

/** The gate, whose default states translate like the screens. */
const GATE = fileURLToPath(
  new URL("../../../client/gate.tsx", import.meta.url),
);

/** The source files of the screens (catalogues excluded), and the gate's. */
export async function screenSources(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  async function walk(dir: string, prefix: string) {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory) {
        if (entry.name !== "catalogs") {
          await walk(`${dir}${entry.name}/`, `${prefix}${entry.name}/`);
        }
      } else if (/\.tsx?$/.test(entry.name)) {
        files.set(
          `${prefix}${entry.name}`,
          await Deno.readTextFile(`${dir}${entry.name}`),
        );
      }
    }
  }
  await walk(SCREENS, "");
  files.set("../gate.tsx", await Deno.readTextFile(GATE));
  return files;
}

/** Every translatable string, and the calls the patterns could not read. */
export async function sourceStrings(): Promise<
  { strings: SourceString[]; unreadable: string[] }
> {
  const strings: SourceString[] = [];
  const unreadable: string[] = [];
  for (const [file, source] of await screenSources()) {
    let read = 0;
    for (const [pattern, build] of CALLS) {
      for (const match of source.matchAll(pattern)) {
        strings.push({ ...build(match as RegExpExecArray), file });
        read += 1;
      }
    }
    const calls = [...source.matchAll(ANY_CALL)].length;
    if (calls !== read) {
      unreadable.push(`${file}: ${calls} calls, ${read} read`);
    }
  }
  return { strings, unreadable };
}

if (import.meta.main) {
  const { strings, unreadable } = await sourceStrings();
  const seen = new Set<string>();
  for (const s of strings) {
    if (seen.has(s.key)) continue;
    seen.add(s.key);
    console.log(JSON.stringify(s.plural ? [s.key, s.plural] : s.key));
  }
  console.error(unreadable);
}
