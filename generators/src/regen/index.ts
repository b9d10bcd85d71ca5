/**
 * Three-way regeneration: merge what fw last generated (base, from `.fw/store`), the file on
 * disk (ours) and the new render (theirs), classify every path, and apply the plan through the
 * engine's atomic writer. See docs/regeneration.md.
 */
export { mergeFile, hasConflictMarkers, MARKER_OURS, MARKER_BASE, MARKER_SEP, MARKER_THEIRS, type MergeInput, type MergeResult } from './merge.js';
export { classify, REGEN_ACTIONS, SIDECAR_SUFFIX, type RegenAction, type RecordOp, type ClassifyInput, type Classification } from './classify.js';
export { planRegeneration, type PlanRegenerationOptions, type RenderedFile, type RegenItem, type RegenPlan } from './regenerate.js';
export { summarise, toJSON, hasConflicts, countActions, itemDiff, itemChangesDisk, type RegenJson, type RegenJsonItem } from './summary.js';
export { unifiedDiff } from './diff.js';
export { applyPlan, applyPlanToDisk, diskWriter, type RegenWriter, type RecordUpdates } from './apply.js';
export { decodeText, detectEol, sameContent, type Eol } from './text.js';
export { planDestroy, type PlanDestroyOptions, type DestroyPlan } from './destroy.js';
export { renderedFromTree, type TreeRender } from './from-tree.js';
