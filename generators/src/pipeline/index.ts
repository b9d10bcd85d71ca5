/**
 * The one generator pipeline every fw command writes through (docs/generators.md):
 *
 *   render into a {@link Tree} → {@link Tree.plan} (one three-way planner) → print or {@link apply}
 *
 * The tree holds renders (merged three ways with the user's file and the record's base) and
 * explicit changes (`fw.json` edits, codemods, app configs); reads see pending changes. The plan
 * writes nothing; apply writes atomically, then updates `.fw/record.json`, `.fw/store` and
 * `.fw/cache`. prettier is not part of this module: `prettier.ts` is imported by the commands
 * that format, so the create path never loads it.
 */
export { Tree, type TreeOptions, type RenderOptions, type WriteOptions } from './tree.js';
export { Planner, FILE_MODE, EXECUTABLE_MODE, type Plan, type PlanItem } from './plan.js';
export { classify, PLAN_ACTIONS, SIDECAR_SUFFIX, type PlanAction, type RecordOp, type ClassifyInput, type Classification } from './classify.js';
export { mergeFile, hasConflictMarkers, MARKER_OURS, MARKER_BASE, MARKER_SEP, MARKER_THEIRS, type MergeInput, type MergeResult } from './merge.js';
export { apply, applyPlan, diskWriter, APPLYING_FILE, type ApplyResult, type Writer, type RecordUpdates } from './apply.js';
export { summarise, summaryLine, toJSON, hasConflicts, countActions, itemDiff, itemChangesDisk, planChangesDisk, planDiff, type PlanJson, type PlanJsonItem } from './print.js';
export { unifiedDiff } from './diff.js';
export { runPipeline, type PipelineOptions, type PipelineResult } from './run.js';
export { verbatim, formatConfig, isFormattable, DEFAULT_PRETTIER_OPTIONS, type Formatter, type FormatConfig, type SourceFile } from './format.js';
export { Cache, CACHE_DIR } from './cache.js';
export { withProjectLock, acquireLock, lockStatus, LOCK_FILE, type LockHolder, type LockStatus } from './lock.js';
export { findTempLeftovers, removeTempLeftovers, findEngineLeftovers, removeEngineLeftovers, interruptedFolders, type EngineLeftovers } from './leftovers.js';
export { emptiedFolders, removeFolders, type EmptiedFoldersOptions } from './folders.js';
export { normalizeProjectPath, PathRefusedError } from './paths.js';
export { writeFileAtomic, TEMP_MARKER } from './atomic.js';
export { sha256 } from './hash.js';
export { decodeText, detectEol, sameContent, type Eol } from './text.js';
export {
  readRecord, readStored, updateRecord, writeRecord, ensureGitattributes, serializeRecord, formatMode, parseMode, RecordError, Store,
  RECORD_DIR, RECORD_FILE, STORE_DIR, GITATTRIBUTES_FILE, type GenerationRecord, type RecordEntry, type WrittenFile,
} from './record.js';
