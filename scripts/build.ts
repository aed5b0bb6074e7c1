// `deno task build`: bundles the demo's islands into static/build/islands.js.
// `deno task demo` does this itself at start; Deno Deploy runs it as the
// build step, since the demo loads the prebuilt file there.

import { buildIslands, PREBUILT } from "../demo/bundle.ts";

if (import.meta.main) {
  const bundle = await buildIslands();
  const size = new TextEncoder().encode(bundle.text).length;
  console.log(
    `Wrote ${PREBUILT.pathname} (${
      (size / 1024).toFixed(1)
    } KiB, served as ${bundle.path})`,
  );
}
