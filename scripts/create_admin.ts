// `deno task create-admin --email E --name N --role R [--password-stdin]`:
// creates an administrator in the store the environment names
// (`DATABASE_URL`, the SQLite file at `GATEHOUSE_SQLITE_PATH`, or the KV
// file at `GATEHOUSE_KV_PATH`), with the demo's roles, through the package's
// public entries as the demo does. See server/features/create_admin.ts for
// the rules.

import { runCreateAdmin } from "@gatehouse/server/create-admin";
import { openStoreFromEnv } from "@gatehouse/server/open";
import { ROLES } from "../demo_config.ts";

if (import.meta.main) {
  const code = await runCreateAdmin(Deno.args, {
    openStore: () => openStoreFromEnv(),
    roles: ROLES,
  });
  Deno.exit(code);
}
