/**
 * The shared file-tree engine every fw command writes through: an in-memory {@link FileTree},
 * {@link plan} (format, compare with disk, classify), {@link commit} (atomic writes, then the
 * generation record) and {@link formatPlan} for `--dry-run`.
 */
export { writeFileAtomic, TEMP_MARKER } from './atomic.js';
export { renderBlueprint, type RenderBlueprintOptions, type RenderString } from './blueprint.js';
export { commit, type CommitOptions, type CommitResult } from './commit.js';
export { FileTree, FILE_MODE, EXECUTABLE_MODE, type TreeEntry, type WriteEntry, type DeleteEntry, type WriteOptions } from './file-tree.js';
export { formatFile, isFormattable } from './format.js';
export { sha256 } from './hash.js';
export { normalizeProjectPath, PathRefusedError } from './paths.js';
export { plan, planChangesDisk, type Plan, type PlanAction, type PlanEntry } from './plan.js';
export { formatPlan } from './print.js';
export {
  readRecord, readStored, updateRecord, serializeRecord, detectEol, formatMode, parseMode, RecordError,
  RECORD_DIR, RECORD_FILE, STORE_DIR, type GenerationRecord, type RecordEntry, type WrittenFile,
} from './record.js';
