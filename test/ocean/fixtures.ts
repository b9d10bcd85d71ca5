import type { OceanIndex } from '../../generators/src/ocean/index.ts';

/** A small index whose versions exercise every policy rule. */
export const INDEX: OceanIndex = {
  name: 'test index',
  additives: [
    // stable 1.0.0 plus prereleases of three channels for 1.1.0
    { id: 'alpha', package: 'fw-additive-alpha', description: 'Stable plus rc/beta/alpha', versions: ['1.0.0', '1.1.0-alpha.3', '1.1.0-beta.2', '1.1.0-rc.1'] },
    // prereleases only, no rc
    { id: 'beta-only', package: '@acme/beta-only', description: 'Only prereleases', versions: ['1.1.0-alpha.3', '1.1.0-beta.2'] },
    // the final release is above its own candidate
    { id: 'final', package: 'fw-additive-final', description: 'Released after rc', versions: ['1.1.0', '1.0.0', '1.1.0-rc.1'] },
    // a prerelease of a higher minor beats the stable under --pre
    { id: 'next', package: 'fw-additive-next', description: 'Has a next beta', versions: ['1.1.0', '1.2.0-beta.1'], tags: ['edge'] },
    // numeric, not string, ordering
    { id: 'numeric', package: 'fw-additive-numeric', description: 'Ten beats nine', versions: ['2.0.0', '10.0.0', '9.1.0'] },
  ],
  bundles: [
    { id: 42, name: 'starter', description: 'alpha and final', members: ['alpha', 'final'] },
    { id: 7, name: 'edge', members: ['final', 'next'] },
    { id: 100, name: 'previews', description: 'Prerelease-only things', members: ['beta-only'] },
  ],
};
