import { describe, expect, it } from 'vitest';
import { OceanError, parseOceanInstallArgs, parseOceanSearchArgs } from '../../generators/src/ocean/index.ts';

describe('parseOceanInstallArgs', () => {
  it.each([
    [['blog'], { requests: ['blog'], bundles: [], policy: 'stable' }],
    [['blog', 'auth==1.0.0'], { requests: ['blog', 'auth==1.0.0'], bundles: [], policy: 'stable' }],
    [['-p', 'blog'], { requests: ['blog'], bundles: [], policy: 'pre' }],
    [['blog', '--pre'], { requests: ['blog'], bundles: [], policy: 'pre' }],
    [['-ps', 'blog'], { requests: ['blog'], bundles: [], policy: 'prefer-stable' }],
    [['blog', '--prefer-stable'], { requests: ['blog'], bundles: [], policy: 'prefer-stable' }],
    [['-b', '000042'], { requests: [], bundles: ['000042'], policy: 'stable' }],
    [['--bundle', '42', 'blog'], { requests: ['blog'], bundles: ['42'], policy: 'stable' }],
    [['--bundle=7', '-b', '42', '-b1'], { requests: [], bundles: ['7', '42', '1'], policy: 'stable' }],
    [['-p', '-p', 'x'], { requests: ['x'], bundles: [], policy: 'pre' }],
    [['--', '-weird'], { requests: ['-weird'], bundles: [], policy: 'stable' }],
  ] as const)('%j', (argv, expected) => {
    expect(parseOceanInstallArgs(argv)).toEqual({ ...expected, help: false });
  });

  it('--help needs nothing to install', () => {
    expect(parseOceanInstallArgs(['--help'])).toEqual({ requests: [], bundles: [], policy: 'stable', help: true });
    expect(parseOceanInstallArgs(['-h']).help).toBe(true);
  });

  it.each([
    [['-p', '-ps', 'blog'], /-p and -ps cannot be used together: choose one version policy/],
    [['--prefer-stable', 'blog', '--pre'], /--pre and --prefer-stable cannot be used together/],
    [['blog', '-b'], /option -b needs a bundle id, such as -b 42/],
    [['--bundle', '--pre'], /option --bundle needs a bundle id/],
    [['--bundle='], /option --bundle= needs a bundle id/],
    [['blog', '-x'], /unknown option "-x" for fw ocean install/],
    [['blog', '-pss'], /unknown option "-pss"/],
    [['--prerelease', 'blog'], /unknown option "--prerelease"/],
    [[], /nothing to install: name at least one Additive id or a bundle/],
    [['-p'], /nothing to install/],
  ] as const)('rejects %j', (argv, message) => {
    expect(() => parseOceanInstallArgs(argv)).toThrow(OceanError);
    expect(() => parseOceanInstallArgs(argv)).toThrow(message);
  });

  it('an unknown option error shows the usage', () => {
    expect(() => parseOceanInstallArgs(['-q'])).toThrow(/Usage: fw ocean install <id\[==version\]>\.\.\./);
  });
});

describe('parseOceanSearchArgs', () => {
  it('takes no term, one term, or --help', () => {
    expect(parseOceanSearchArgs([])).toEqual({ help: false });
    expect(parseOceanSearchArgs(['blog'])).toEqual({ term: 'blog', help: false });
    expect(parseOceanSearchArgs(['--help'])).toEqual({ help: true });
  });

  it('rejects two terms and unknown options', () => {
    expect(() => parseOceanSearchArgs(['a', 'b'])).toThrow(/at most one term, got 2: a b/);
    expect(() => parseOceanSearchArgs(['--all'])).toThrow(/unknown option "--all" for fw ocean search/);
  });
});
