import { describe, expect, it } from 'vitest';
import { loadIndex, OceanError, resolveInstall, type VersionPolicy } from '../../generators/src/ocean/index.ts';

/** The example index docs/ocean.md describes (fw's embedded index lists only what fw publishes). */
const DOCS_INDEX_URL = new URL('./docs-index.json', import.meta.url);
import { INDEX } from './fixtures.ts';

interface Row {
  name: string;
  requests?: string[];
  bundles?: string[];
  /** Expected `id@version` list in install order, per policy; a RegExp expects an OceanError. */
  stable: string[] | RegExp;
  pre: string[] | RegExp;
  preferStable: string[] | RegExp;
}

const NO_STABLE = /"beta-only" has no stable version \(it has only 1\.1\.0-beta\.2, 1\.1\.0-alpha\.3\); use --pre or --prefer-stable/;

const rows: Row[] = [
  // plain ids
  { name: 'plain id with stable and prereleases', requests: ['alpha'], stable: ['alpha@1.0.0'], pre: ['alpha@1.1.0-rc.1'], preferStable: ['alpha@1.0.0'] },
  { name: 'plain id with prereleases only', requests: ['beta-only'], stable: NO_STABLE, pre: ['beta-only@1.1.0-beta.2'], preferStable: ['beta-only@1.1.0-beta.2'] },
  { name: 'stable 1.1.0 beats 1.1.0-rc.1', requests: ['final'], stable: ['final@1.1.0'], pre: ['final@1.1.0'], preferStable: ['final@1.1.0'] },
  { name: '1.2.0-beta.1 beats 1.1.0 only under --pre', requests: ['next'], stable: ['next@1.1.0'], pre: ['next@1.2.0-beta.1'], preferStable: ['next@1.1.0'] },
  { name: 'semver, not string, order', requests: ['numeric'], stable: ['numeric@10.0.0'], pre: ['numeric@10.0.0'], preferStable: ['numeric@10.0.0'] },
  // pins
  { name: 'pin to an old stable', requests: ['alpha==1.0.0'], stable: ['alpha@1.0.0'], pre: ['alpha@1.0.0'], preferStable: ['alpha@1.0.0'] },
  { name: 'pin to a prerelease works under any policy', requests: ['alpha==1.1.0-alpha.3'], stable: ['alpha@1.1.0-alpha.3'], pre: ['alpha@1.1.0-alpha.3'], preferStable: ['alpha@1.1.0-alpha.3'] },
  { name: 'pin on a prerelease-only Additive', requests: ['beta-only==1.1.0-alpha.3'], stable: ['beta-only@1.1.0-alpha.3'], pre: ['beta-only@1.1.0-alpha.3'], preferStable: ['beta-only@1.1.0-alpha.3'] },
  // duplicates
  { name: 'same plain id twice installs once', requests: ['alpha', 'alpha'], stable: ['alpha@1.0.0'], pre: ['alpha@1.1.0-rc.1'], preferStable: ['alpha@1.0.0'] },
  { name: 'same pin twice installs once', requests: ['final==1.0.0', 'final==1.0.0'], stable: ['final@1.0.0'], pre: ['final@1.0.0'], preferStable: ['final@1.0.0'] },
  { name: 'pin beats a plain id given before it', requests: ['final', 'final==1.0.0'], stable: ['final@1.0.0'], pre: ['final@1.0.0'], preferStable: ['final@1.0.0'] },
  { name: 'pin beats a plain id given after it', requests: ['final==1.0.0', 'final'], stable: ['final@1.0.0'], pre: ['final@1.0.0'], preferStable: ['final@1.0.0'] },
  { name: 'two different pins for one id', requests: ['final==1.0.0', 'final==1.1.0'], stable: /conflicting pins for "final": argument "final==1\.0\.0" asks for 1\.0\.0, argument "final==1\.1\.0" asks for 1\.1\.0/, pre: /conflicting pins/, preferStable: /conflicting pins/ },
  // bundles
  { name: 'bundle = naming every member', bundles: ['42'], stable: ['alpha@1.0.0', 'final@1.1.0'], pre: ['alpha@1.1.0-rc.1', 'final@1.1.0'], preferStable: ['alpha@1.0.0', 'final@1.1.0'] },
  { name: 'leading zeros optional', bundles: ['000042'], stable: ['alpha@1.0.0', 'final@1.1.0'], pre: ['alpha@1.1.0-rc.1', 'final@1.1.0'], preferStable: ['alpha@1.0.0', 'final@1.1.0'] },
  { name: 'single-digit bundle with zeros', bundles: ['000007'], stable: ['final@1.1.0', 'next@1.1.0'], pre: ['final@1.1.0', 'next@1.2.0-beta.1'], preferStable: ['final@1.1.0', 'next@1.1.0'] },
  { name: 'same bundle twice (42 and 000042)', bundles: ['42', '000042'], stable: ['alpha@1.0.0', 'final@1.1.0'], pre: ['alpha@1.1.0-rc.1', 'final@1.1.0'], preferStable: ['alpha@1.0.0', 'final@1.1.0'] },
  { name: 'overlapping bundles install shared member once', bundles: ['42', '7'], stable: ['alpha@1.0.0', 'final@1.1.0', 'next@1.1.0'], pre: ['alpha@1.1.0-rc.1', 'final@1.1.0', 'next@1.2.0-beta.1'], preferStable: ['alpha@1.0.0', 'final@1.1.0', 'next@1.1.0'] },
  { name: 'bundle member also named plainly', requests: ['final'], bundles: ['42'], stable: ['final@1.1.0', 'alpha@1.0.0'], pre: ['final@1.1.0', 'alpha@1.1.0-rc.1'], preferStable: ['final@1.1.0', 'alpha@1.0.0'] },
  { name: 'pin beats the bundle plain id', requests: ['alpha==1.1.0-beta.2'], bundles: ['42'], stable: ['alpha@1.1.0-beta.2', 'final@1.1.0'], pre: ['alpha@1.1.0-beta.2', 'final@1.1.0'], preferStable: ['alpha@1.1.0-beta.2', 'final@1.1.0'] },
  { name: 'pin beats the plain id of two bundles', requests: ['final==1.0.0'], bundles: ['7', '42'], stable: ['final@1.0.0', 'next@1.1.0', 'alpha@1.0.0'], pre: ['final@1.0.0', 'next@1.2.0-beta.1', 'alpha@1.1.0-rc.1'], preferStable: ['final@1.0.0', 'next@1.1.0', 'alpha@1.0.0'] },
  { name: 'bundle with a prerelease-only member', bundles: ['100'], stable: NO_STABLE, pre: ['beta-only@1.1.0-beta.2'], preferStable: ['beta-only@1.1.0-beta.2'] },
  { name: 'bundle with a prerelease-only member, pinned', requests: ['beta-only==1.1.0-alpha.3'], bundles: ['100'], stable: ['beta-only@1.1.0-alpha.3'], pre: ['beta-only@1.1.0-alpha.3'], preferStable: ['beta-only@1.1.0-alpha.3'] },
  // unknowns
  { name: 'unknown id suggests close ids', requests: ['alpah'], stable: /unknown Additive "alpah" in argument "alpah" \(did you mean alpha\?\)/, pre: /unknown Additive "alpah"/, preferStable: /unknown Additive "alpah"/ },
  { name: 'unknown id with no close id', requests: ['zzzzzzzz'], stable: /^unknown Additive "zzzzzzzz" in argument "zzzzzzzz"$/, pre: /unknown Additive/, preferStable: /unknown Additive/ },
  { name: 'unknown pinned id', requests: ['finl==1.0.0'], stable: /unknown Additive "finl" in argument "finl==1\.0\.0" \(did you mean final\?\)/, pre: /unknown Additive "finl"/, preferStable: /unknown Additive "finl"/ },
  { name: 'unknown bundle lists known bundles', bundles: ['000043'], stable: /unknown bundle 000043 \(from "000043"\); known bundles: 000042, 000007, 000100/, pre: /unknown bundle 000043/, preferStable: /unknown bundle 000043/ },
  { name: 'non-numeric bundle id', bundles: ['starter'], stable: /invalid bundle id "starter": expected up to six digits/, pre: /invalid bundle id/, preferStable: /invalid bundle id/ },
  { name: 'bundle id longer than six digits', bundles: ['0000042'], stable: /invalid bundle id "0000042"/, pre: /invalid bundle id/, preferStable: /invalid bundle id/ },
  { name: 'pinned version not listed names the available ones', requests: ['alpha==1.2.0'], stable: /"alpha" has no version 1\.2\.0; available: 1\.1\.0-rc\.1, 1\.1\.0-beta\.2, 1\.1\.0-alpha\.3, 1\.0\.0/, pre: /has no version 1\.2\.0/, preferStable: /has no version 1\.2\.0/ },
  { name: 'pin that is not semver', requests: ['alpha==1.1rc1'], stable: /invalid version in "alpha==1\.1rc1": "1\.1rc1" is not a semver version/, pre: /invalid version/, preferStable: /invalid version/ },
  { name: 'single = is not a pin', requests: ['alpha=1.0.0'], stable: /invalid Additive request "alpha=1\.0\.0": expected <id> or <id>==<version>/, pre: /invalid Additive request/, preferStable: /invalid Additive request/ },
  { name: 'empty id', requests: ['==1.0.0'], stable: /invalid Additive request "==1\.0\.0"/, pre: /invalid Additive request/, preferStable: /invalid Additive request/ },
];

const policies: Array<[VersionPolicy, keyof Pick<Row, 'stable' | 'pre' | 'preferStable'>]> = [
  ['stable', 'stable'],
  ['pre', 'pre'],
  ['prefer-stable', 'preferStable'],
];

describe('resolveInstall', () => {
  for (const [policy, key] of policies) {
    describe(`policy ${policy}`, () => {
      it.each(rows.map((row) => [row.name, row] as const))('%s', (_name, row) => {
        const input = { index: INDEX, requests: row.requests ?? [], bundles: row.bundles ?? [], policy };
        const expected = row[key];
        if (expected instanceof RegExp) {
          expect(() => resolveInstall(input)).toThrow(OceanError);
          expect(() => resolveInstall(input)).toThrow(expected);
        } else {
          expect(resolveInstall(input).map((r) => `${r.id}@${r.version}`)).toEqual(expected);
        }
      });
    });
  }

  it('returns the npm package and an exact spec for each Additive', () => {
    expect(resolveInstall({ index: INDEX, requests: ['beta-only'], bundles: [], policy: 'pre' })).toEqual([
      { id: 'beta-only', package: '@acme/beta-only', version: '1.1.0-beta.2', spec: '@acme/beta-only@1.1.0-beta.2' },
    ]);
  });

  it('with nothing requested resolves to nothing', () => {
    expect(resolveInstall({ index: INDEX, requests: [], bundles: [], policy: 'stable' })).toEqual([]);
  });

  it('with many bundles, an unknown bundle lists the ten nearest ids', () => {
    const bundles = Array.from({ length: 30 }, (_, i) => ({ id: i * 10, name: `b${i}`, members: ['alpha'] }));
    const index = { ...INDEX, bundles };
    expect(() => resolveInstall({ index, requests: [], bundles: ['000101'], policy: 'stable' })).toThrow(
      /unknown bundle 000101 \(from "000101"\); nearest known bundles: 000100, 000110, 000090, 000120, 000080, 000130, 000070, 000140, 000060, 000150$/,
    );
  });

  it('an index without bundles says so for an unknown bundle', () => {
    const index = { ...INDEX, bundles: [] };
    expect(() => resolveInstall({ index, requests: [], bundles: ['1'], policy: 'stable' })).toThrow(
      /unknown bundle 000001 \(from "1"\); the index lists no bundles/,
    );
  });
});

describe('the examples of docs/ocean.md, against its example index (docs-index.json)', () => {
  it.each([
    [['blog'], [], 'stable', ['blog@1.1.0']],
    [['blog==1.2.0-beta.2'], [], 'stable', ['blog@1.2.0-beta.2']],
    [[], ['000042'], 'stable', ['auth@1.0.1', 'blog@1.1.0', 'admin@0.2.0']],
    [['auth==1.1.0-rc.1'], ['42'], 'stable', ['auth@1.1.0-rc.1', 'blog@1.1.0', 'admin@0.2.0']],
    [['blog'], [], 'pre', ['blog@1.2.0-beta.2']],
    [['mail-outbox'], [], 'prefer-stable', ['mail-outbox@0.1.0-rc.1']],
  ] as const)('%j -b %j (%s)', async (requests, bundles, policy, expected) => {
    const index = await loadIndex({ url: DOCS_INDEX_URL });
    expect(resolveInstall({ index, requests, bundles, policy }).map((r) => `${r.id}@${r.version}`)).toEqual(expected);
  });
});
