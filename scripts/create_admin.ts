// `deno task create-admin --email E --name N --role R [--password-stdin]`:
// creates an administrator in the store the environment names
// (`DATABASE_URL`, or the KV file at `GATEHOUSE_KV_PATH`), with the demo's
// roles. See server/create_admin.ts for the rules.

import { PRIVILEGED, ROLES } from "../demo_config.ts";
import { runCreateAdmin } from "../mod.ts";
import { openStoreFromEnv } from "../server/stores/open.ts";

if (import.meta.main) {
  const code = await runCreateAdmin(Deno.args, {
    openStore: () => openStoreFromEnv(),
    privileged: PRIVILEGED,
    capabilities: ROLES,
  });
  Deno.exit(code);
}
