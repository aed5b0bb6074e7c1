// axe-core on every page and state of the demo (tests/e2e/_walk.ts), in
// English and Spanish, at 1280 px and on a 390 px phone (in dark mode, so
// the dark palette's contrast is checked too): no violation of WCAG 2.1 A
// and AA, nor of axe's best practices.

import assert from "node:assert/strict";
import { axeViolations, type Violation } from "../fixtures/axe.ts";
import { e2eTest } from "../fixtures/demo.ts";
import { seedAccounts, walk } from "./_walk.ts";

const VIEWPORTS = [
  { width: 1280, height: 800, colorScheme: "light" },
  { width: 390, height: 844, colorScheme: "dark" },
] as const;

for (const locale of ["en-US", "es-ES"]) {
  e2eTest(
    `axe finds nothing on any page or state of the demo in ${locale}, at 1280 and 390 px`,
    async ({ browser, demo }) => {
      await seedAccounts(demo);
      const found: Array<[string, Violation[]]> = [];
      let states = 0;
      for (const viewport of VIEWPORTS) {
        const { colorScheme, ...size } = viewport;
        await walk(browser, demo, {
          locale,
          viewport: size,
          colorScheme,
          visit: async (state, page) => {
            states += 1;
            const violations = await axeViolations(page);
            if (violations.length > 0) {
              found.push([
                `${size.width}px ${colorScheme} ${state}`,
                violations,
              ]);
            }
          },
        });
      }
      assert.ok(states >= 50, `${states} states checked`);
      assert.deepEqual(found, [], JSON.stringify(found, null, 2));
    },
  );
}

e2eTest(
  "the axe check reports what it should: a page with known violations fails it",
  async ({ browser, demo }) => {
    // Without this, a check that never runs its rules would pass all above.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${demo.origin}/`);
    await page.evaluate(() => {
      document.body.insertAdjacentHTML(
        "beforeend",
        '<input type="text"><h3>Skipped a level</h3><p style="color:#eee">faint</p>',
      );
    });
    const ids = (await axeViolations(page)).map((v) => v.id).sort();
    assert.ok(ids.includes("label"), ids.join());
    assert.ok(ids.includes("color-contrast"), ids.join());
    assert.ok(ids.includes("region"), ids.join());
    await context.close();
  },
);
