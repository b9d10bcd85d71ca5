import { describe, expect, test } from 'vitest';
import { FRONTEND_TYPES, VITE_FRAMEWORKS, frontendSchema, validateConfig } from '@fw/schemas';

const FRAMEWORK_LIST = 'lit, none, preact, qwik, react, solid, svelte, vue';

describe('validateConfig: allowed blocks', () => {
  test('the framework list is exactly the reference list', () => {
    expect([...VITE_FRAMEWORKS]).toEqual(['lit', 'none', 'preact', 'qwik', 'react', 'solid', 'svelte', 'vue']);
    expect([...FRONTEND_TYPES]).toEqual(['none', 'htmx', 'vite']);
  });

  test('none takes no other key', () => {
    expect(validateConfig({ type: 'none' })).toEqual([true, { type: 'none' }]);
  });

  test('htmx: alpine defaults to false, true and false are kept', () => {
    expect(validateConfig({ type: 'htmx' })).toEqual([true, { type: 'htmx', alpine: false }]);
    expect(validateConfig({ type: 'htmx', alpine: true })).toEqual([true, { type: 'htmx', alpine: true }]);
    expect(validateConfig({ type: 'htmx', alpine: false })).toEqual([true, { type: 'htmx', alpine: false }]);
  });

  test.each(VITE_FRAMEWORKS.map((f) => [f]))('vite with framework %s gets typescript=false, register_index=true', (framework) => {
    expect(validateConfig({ type: 'vite', framework })).toEqual([
      true,
      { type: 'vite', framework, typescript: false, register_index: true },
    ]);
  });

  test.each([
    [true, true],
    [true, false],
    [false, true],
    [false, false],
  ])('vite typescript=%s register_index=%s are kept', (typescript, registerIndex) => {
    expect(validateConfig({ type: 'vite', framework: 'vue', typescript, register_index: registerIndex })).toEqual([
      true,
      { type: 'vite', framework: 'vue', typescript, register_index: registerIndex },
    ]);
  });

  test('the input object is not mutated', () => {
    const block = { type: 'htmx' };
    validateConfig(block);
    expect(block).toEqual({ type: 'htmx' });
  });
});

describe('validateConfig: forbidden blocks and their exact reasons', () => {
  const cases: Array<[string, unknown, string]> = [
    ['unknown framework', { type: 'vite', framework: 'angular' }, `frontend.framework: got "angular"; expected one of ${FRAMEWORK_LIST}`],
    ['missing framework (no default)', { type: 'vite' }, `frontend.framework: got nothing; expected one of ${FRAMEWORK_LIST} (required)`],
    ['framework in another case', { type: 'vite', framework: 'React' }, `frontend.framework: got "React"; expected one of ${FRAMEWORK_LIST} (did you mean react?)`],
    ['framework mistyped', { type: 'vite', framework: 'sveltte' }, `frontend.framework: got "sveltte"; expected one of ${FRAMEWORK_LIST} (did you mean svelte?)`],
    ['framework not a string', { type: 'vite', framework: 1 }, `frontend.framework: got 1; expected one of ${FRAMEWORK_LIST}`],
    ['framework null', { type: 'vite', framework: null }, `frontend.framework: got null; expected one of ${FRAMEWORK_LIST}`],
    ['unknown type', { type: 'react' }, 'frontend.type: got "react"; expected one of none, htmx, vite'],
    ['missing type', {}, 'frontend.type: got nothing; expected one of none, htmx, vite (required)'],
    ['type in another case', { type: 'HTMX' }, 'frontend.type: got "HTMX"; expected one of none, htmx, vite (did you mean htmx?)'],
    ['type mistyped', { type: 'htmz' }, 'frontend.type: got "htmz"; expected one of none, htmx, vite (did you mean htmx?)'],
    ['type not a string', { type: true }, 'frontend.type: got true; expected one of none, htmx, vite'],
    ['not an object: string', 'htmx', 'frontend: got "htmx"; expected an object'],
    ['not an object: null', null, 'frontend: got null; expected an object'],
    ['not an object: array', [{ type: 'htmx' }], 'frontend: got [{"type":"htmx"}]; expected an object'],
    ['not an object: undefined', undefined, 'frontend: got nothing; expected an object (required)'],
    ['alpine not a boolean', { type: 'htmx', alpine: 'yes' }, 'frontend.alpine: got "yes"; expected a boolean (true or false)'],
    ['alpine as 1', { type: 'htmx', alpine: 1 }, 'frontend.alpine: got 1; expected a boolean (true or false)'],
    ['typescript not a boolean', { type: 'vite', framework: 'lit', typescript: 'no' }, 'frontend.typescript: got "no"; expected a boolean (true or false)'],
    ['register_index not a boolean', { type: 'vite', framework: 'lit', register_index: null }, 'frontend.register_index: got null; expected a boolean (true or false)'],
    ['alpine on none', { type: 'none', alpine: true }, 'frontend.alpine: unknown key; expected only the key type for type "none"'],
    ['framework on htmx', { type: 'htmx', framework: 'react' }, 'frontend.framework: unknown key; expected only the keys type, alpine for type "htmx"'],
    ['alpine on vite', { type: 'vite', framework: 'react', alpine: true }, 'frontend.alpine: unknown key; expected only the keys type, framework, typescript, register_index for type "vite"'],
    ['registerIndex spelled camelCase', { type: 'vite', framework: 'react', registerIndex: false }, 'frontend.registerIndex: unknown key; did you mean register_index? (expected only the keys type, framework, typescript, register_index for type "vite")'],
  ];

  test.each(cases)('%s', (_name, block, reason) => {
    expect(validateConfig(block)).toEqual([false, reason]);
  });

  test('every problem gets its own line', () => {
    expect(validateConfig({ type: 'vite', framework: 'angular', typescript: 'yes', extra: 1 })).toEqual([
      false,
      [
        `frontend.framework: got "angular"; expected one of ${FRAMEWORK_LIST}`,
        'frontend.typescript: got "yes"; expected a boolean (true or false)',
        'frontend.extra: unknown key; expected only the keys type, framework, typescript, register_index for type "vite"',
      ].join('\n'),
    ]);
  });

  test('the path prefix can be named (APP_FRONTEND)', () => {
    expect(validateConfig({ type: 'vite' }, 'APP_FRONTEND')).toEqual([
      false,
      `APP_FRONTEND.framework: got nothing; expected one of ${FRAMEWORK_LIST} (required)`,
    ]);
  });

  test('frontendSchema agrees with validateConfig', () => {
    expect(frontendSchema.safeParse({ type: 'vite' }).success).toBe(false);
    expect(frontendSchema.parse({ type: 'htmx' })).toEqual({ type: 'htmx', alpine: false });
  });
});
