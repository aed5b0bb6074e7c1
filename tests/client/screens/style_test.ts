// The stylesheet: shipped as a file and as the `stylesheet` export (kept
// identical), scoped under .gh, themed by custom properties whose default
// colours meet WCAG AA contrast, a visible focus ring, and nothing wider
// than a 320 px screen.

import assert from "node:assert/strict";
import { stylesheet } from "@gatehouse/client/screens";
import { styleModule } from "../../../scripts/build_style_css.ts";

const CSS_URL = new URL("../../../client/screens/style.css", import.meta.url);
const TS_URL = new URL("../../../client/screens/style_css.ts", import.meta.url);
const css = await Deno.readTextFile(CSS_URL);

interface Rule {
  readonly selector: string;
  readonly media: string;
  readonly declarations: ReadonlyArray<readonly [string, string]>;
}

/** The rules of a stylesheet, with the at-rule they sit in (one level). */
function parse(text: string, media = ""): Rule[] {
  const source = text.replace(/\/\*[\s\S]*?\*\//g, "");
  const rules: Rule[] = [];
  let at = 0;
  while (true) {
    const open = source.indexOf("{", at);
    if (open < 0) break;
    let depth = 1;
    let close = open + 1;
    for (; depth > 0; close++) {
      if (source[close] === "{") depth++;
      if (source[close] === "}") depth--;
    }
    const prelude = source.slice(at, open).trim();
    const body = source.slice(open + 1, close - 1);
    if (prelude.startsWith("@")) rules.push(...parse(body, prelude));
    else {
      const declarations = body.split(";").map((d) => d.trim()).filter(Boolean)
        .map((d) => {
          const colon = d.indexOf(":");
          return [d.slice(0, colon).trim(), d.slice(colon + 1).trim()] as const;
        });
      rules.push({ selector: prelude, media, declarations });
    }
    at = close;
  }
  return rules;
}

const rules = parse(css);
const root = rules.find((rule) => rule.selector === ":where(:root)");
const defaults = new Map(root?.declarations ?? []);

Deno.test("the stylesheet export is exactly style.css, and style_css.ts is what the script writes", async () => {
  assert.equal(stylesheet, css);
  assert.equal(
    await Deno.readTextFile(TS_URL),
    styleModule(css),
    "run scripts/build_style_css.ts after editing style.css",
  );
});

Deno.test("the client package exports ./screens and publishes the CSS file", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(
      new URL("../../../client/deno.json", import.meta.url),
    ),
  );
  assert.equal(config.exports["./screens"], "./screens/mod.ts");
  assert.ok(config.publish.include.includes("**/*.css"));
});

Deno.test("every rule is scoped under .gh (or is the theme's defaults)", () => {
  assert.ok(rules.length > 40);
  for (const rule of rules) {
    for (const selector of rule.selector.split(",").map((s) => s.trim())) {
      assert.match(
        selector,
        /^(\.gh(?:[\s.:[]|-nav-item|$)|:where\(:root\)$)/,
        `"${selector}" is scoped`,
      );
    }
  }
});

Deno.test("colours, spacing, radius and font come from --gh-* custom properties", () => {
  for (
    const name of [
      "--gh-font-family",
      "--gh-font-size",
      "--gh-color-text",
      "--gh-color-background",
      "--gh-color-accent",
      "--gh-color-danger",
      "--gh-color-focus",
      "--gh-space-1",
      "--gh-space-3",
      "--gh-radius",
    ]
  ) {
    assert.ok(defaults.has(name), `${name} has a default`);
  }
  // Outside the defaults no colour is written literally, so a theme reaches
  // every one of them (forced-colors mode uses system colours on purpose).
  for (const rule of rules) {
    if (
      rule.selector === ":where(:root)" || rule.media.includes("forced-colors")
    ) continue;
    for (const [property, value] of rule.declarations) {
      assert.doesNotMatch(
        value,
        /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i,
        `${rule.selector} { ${property}: ${value} } uses a custom property`,
      );
    }
  }
  // The defaults have zero specificity, so an app's :root or .gh wins.
  assert.equal(root?.selector, ":where(:root)");
});

/** Relative luminance of a #rrggbb colour (WCAG 2.x). */
function luminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  assert.ok(match, `${hex} is #rrggbb`);
  const [r, g, b] = match.slice(1).map((part) => {
    const c = parseInt(part, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

// The dark palette: the defaults with prefers-color-scheme: dark's values.
const darkRoot = rules.find((rule) =>
  rule.selector === ":where(:root)" && rule.media.includes("dark")
);
const PALETTES = {
  light: defaults,
  dark: new Map([...defaults, ...(darkRoot?.declarations ?? [])]),
};

const colorIn = (palette: Map<string, string>) => (name: string) => {
  const value = palette.get(`--gh-color-${name}`);
  assert.ok(value, `--gh-color-${name} is set`);
  return value;
};

Deno.test("contrast() is the WCAG ratio", () => {
  assert.equal(contrast("#000000", "#ffffff").toFixed(1), "21.0");
  assert.equal(contrast("#ffffff", "#ffffff"), 1);
  assert.equal(contrast("#767676", "#ffffff").toFixed(2), "4.54");
});

Deno.test("the default colours, light and dark, meet WCAG AA: 4.5:1 for text, 3:1 for borders and focus", async (t) => {
  assert.ok(darkRoot, "a dark palette under prefers-color-scheme: dark");
  // [foreground, background, minimum, where the pair meets]
  const pairs: Array<[string, string, number, string]> = [
    ["text", "background", 4.5, "body text"],
    ["text", "surface", 4.5, "text in account rows and notices"],
    ["text-muted", "background", 4.5, "hints, emails"],
    ["text-muted", "surface", 4.5, "emails in account rows"],
    ["accent", "background", 4.5, "links, link buttons, the nav item"],
    ["on-accent", "accent", 4.5, "primary buttons"],
    ["on-accent", "accent-hover", 4.5, "primary buttons, hovered"],
    ["danger", "background", 4.5, "field errors, disable buttons, badges"],
    ["danger", "danger-surface", 4.5, "alerts"],
    ["on-danger", "danger", 4.5, "disable buttons, hovered"],
    ["success", "success-surface", 4.5, "status messages"],
    ["success", "background", 4.5, "the Active badge"],
    ["warning", "warning-surface", 4.5, "few recovery codes left"],
    ["border", "background", 3, "input and button borders"],
    ["border", "surface", 3, "borders inside account rows"],
    ["focus", "background", 3, "the focus ring"],
    ["focus", "surface", 3, "the focus ring inside account rows"],
    ["danger", "surface", 3, "invalid field borders inside rows"],
    ["text", "row-hover", 4.5, "a hovered row, a focused menu item"],
    ["text-muted", "row-hover", 4.5, "emails in a hovered row"],
    ["danger", "row-hover", 4.5, "a focused danger menu item"],
  ];
  for (const [name, palette] of Object.entries(PALETTES)) {
    const color = colorIn(palette);
    for (const [fg, bg, minimum, where] of pairs) {
      await t.step(`${name}: ${fg} on ${bg} (${where})`, () => {
        const ratio = contrast(color(fg), color(bg));
        assert.ok(
          ratio >= minimum,
          `${name}: ${fg} on ${bg}: ${ratio.toFixed(2)}:1 < ${minimum}:1`,
        );
      });
    }
  }
});

Deno.test("focus is always visible: an outline of at least 2 px on :focus-visible", () => {
  const focus = rules.filter((rule) =>
    rule.selector.includes(":focus-visible")
  );
  assert.ok(focus.length > 0);
  for (const rule of focus) {
    const outline = new Map(rule.declarations).get("outline") ?? "";
    assert.match(
      outline,
      /var\(--gh-focus-width\) solid var\(--gh-color-focus\)/,
    );
  }
  assert.ok(parseFloat(defaults.get("--gh-focus-width") ?? "0") >= 2);
  // Only the containers focused by script (tabindex -1) drop the outline.
  for (const rule of rules) {
    for (const [property, value] of rule.declarations) {
      if (property === "outline" && /none|0/.test(value)) {
        assert.match(rule.selector, /\[tabindex="-1"\]:focus$/);
      }
    }
  }
});

/** A length in px, or null for anything that is not a fixed length. */
function pixels(value: string): number | null {
  const match = /^(-?[\d.]+)(px|rem|em)$/.exec(value.trim());
  if (!match) return null;
  return Number(match[1]) * (match[2] === "px" ? 1 : 16);
}

Deno.test("nothing is wider than a 320 px screen", () => {
  let checked = 0;
  for (const rule of rules) {
    for (const [property, value] of rule.declarations) {
      const lengths = property === "flex"
        ? [value.split(/\s+/)[2] ?? ""]
        : ["width", "min-width", "flex-basis", "inline-size", "min-inline-size"]
            .includes(property)
        ? [value]
        : [];
      for (const length of lengths) {
        checked++;
        const px = pixels(length);
        if (px !== null) {
          assert.ok(px <= 320, `${rule.selector} { ${property}: ${value} }`);
        } else {
          assert.match(length, /^(100%|auto|0|1px)$/, `${property}: ${value}`);
        }
      }
    }
  }
  assert.ok(checked > 3, "widths were found to check");
  for (const [name, value] of defaults) {
    if (name.includes("width") && !name.includes("max")) {
      assert.ok((pixels(value) ?? 0) <= 320, `${name}: ${value}`);
    }
  }
});

Deno.test("the visually-hidden class keeps labels for screen readers only", () => {
  const rule = rules.find((r) => r.selector === ".gh .gh-visually-hidden");
  const declarations = new Map(rule?.declarations);
  assert.equal(declarations.get("position"), "absolute");
  assert.equal(declarations.get("width"), "1px");
  assert.equal(declarations.get("overflow"), "hidden");
  assert.notEqual(declarations.get("display"), "none");
});
