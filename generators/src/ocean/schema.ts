import semver from 'semver';
import { z } from 'zod';

/** npm package name (optionally scoped), per npm's naming rules. */
const NPM_NAME = /^(?:@[a-z0-9-*~][a-z0-9-*._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** An Additive id: lower-case letters, digits and hyphens, starting with a letter. */
export const ADDITIVE_ID = /^[a-z][a-z0-9-]*$/;

const validVersions = new Map<string, boolean>();

/**
 * True when `v` is a full semver version written canonically. Memoised (an index repeats the same
 * version strings across thousands of Additives, and semver parsing dominates validation).
 */
function isFullSemver(v: string): boolean {
  let valid = validVersions.get(v);
  if (valid === undefined) {
    valid = semver.valid(v) === v;
    if (validVersions.size >= 10_000) validVersions.clear();
    validVersions.set(v, valid);
  }
  return valid;
}

/** Largest bundle id: bundle ids print as six zero-padded digits. */
export const MAX_BUNDLE_ID = 999_999;

/** One Additive in the Ocean index: an id, the npm package that carries it, and its versions. */
export const OceanAdditiveSchema = z.strictObject({
  id: z.string().regex(ADDITIVE_ID, 'must be lower-case letters, digits and hyphens, starting with a letter'),
  package: z.string().regex(NPM_NAME, 'must be a valid npm package name'),
  description: z.string(),
  versions: z
    .array(
      z.string().refine(isFullSemver, {
        message: 'must be a full semver version such as 1.2.0 or 1.2.0-rc.1',
      }),
    )
    .min(1, 'must list at least one version'),
  tags: z.array(z.string()).optional(),
});

/** A bundle: a numeric id (printed zero-padded to six digits) naming a set of Additive ids. */
export const OceanBundleSchema = z.strictObject({
  id: z.number().int().min(0).max(MAX_BUNDLE_ID),
  name: z.string().min(1),
  description: z.string().optional(),
  members: z.array(z.string()).min(1, 'must name at least one Additive'),
});

/**
 * The Ocean index document. Besides the shape, it checks what a shape cannot: Additive ids,
 * their npm packages and bundle ids are unique, versions are not repeated, and every bundle
 * member is a listed Additive.
 */
export const OceanIndexSchema = z
  .object({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    name: z.string().optional(),
    additives: z.array(OceanAdditiveSchema),
    bundles: z.array(OceanBundleSchema).default([]),
  })
  .strict()
  .superRefine((index, ctx) => {
    const ids = new Set<string>();
    const packages = new Map<string, string>();
    index.additives.forEach((additive, i) => {
      if (ids.has(additive.id)) {
        ctx.addIssue({ code: 'custom', path: ['additives', i, 'id'], message: `duplicate Additive id "${additive.id}"` });
      }
      ids.add(additive.id);
      const owner = packages.get(additive.package);
      if (owner !== undefined && owner !== additive.id) {
        ctx.addIssue({
          code: 'custom',
          path: ['additives', i, 'package'],
          message: `package "${additive.package}" is already the package of Additive "${owner}"`,
        });
      }
      packages.set(additive.package, additive.id);
      const seen = new Set<string>();
      additive.versions.forEach((version, j) => {
        if (seen.has(version)) {
          ctx.addIssue({ code: 'custom', path: ['additives', i, 'versions', j], message: `duplicate version "${version}"` });
        }
        seen.add(version);
      });
    });
    const bundleIds = new Set<number>();
    index.bundles.forEach((bundle, i) => {
      if (bundleIds.has(bundle.id)) {
        ctx.addIssue({ code: 'custom', path: ['bundles', i, 'id'], message: `duplicate bundle id ${bundle.id}` });
      }
      bundleIds.add(bundle.id);
      bundle.members.forEach((member, j) => {
        if (!ids.has(member)) {
          ctx.addIssue({
            code: 'custom',
            path: ['bundles', i, 'members', j],
            message: `"${member}" is not an Additive id listed in "additives"`,
          });
        }
      });
    });
  });

/** A validated Additive entry of the index. */
export type OceanAdditive = z.infer<typeof OceanAdditiveSchema>;
/** A validated bundle entry of the index. */
export type OceanBundle = z.infer<typeof OceanBundleSchema>;
/** A validated Ocean index. */
export type OceanIndex = z.infer<typeof OceanIndexSchema>;

/** Formats a zod issue path as a key path: `additives[2].versions[1]`. */
export function keyPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

/** Zero-pads a bundle id to six digits, as `fw ocean search` prints it: 42 → `000042`. */
export function formatBundleId(id: number): string {
  return String(id).padStart(6, '0');
}
