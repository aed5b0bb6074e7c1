// The record-and-commit tables against the in-memory reference store, so
// the reference and the tables agree.

import { recordStoreConformance } from "../../server/stores/conformance/records.ts";
import { MemoryRecords } from "../fixtures/memory_records.ts";

recordStoreConformance("MemoryRecords", () => ({
  records: new MemoryRecords(),
  close() {},
}));
