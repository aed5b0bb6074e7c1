// The store conformance suite against the rules over the in-memory record
// store: the rules on their own, without a database's behaviour.

import { storeConformance } from "../../server/stores/conformance/mod.ts";
import { RuleStore } from "../../server/core/rules/mod.ts";
import { MemoryRecords } from "../fixtures/memory_records.ts";

storeConformance("RuleStore over MemoryRecords", () => ({
  store: new RuleStore(new MemoryRecords()),
  close() {},
}));
