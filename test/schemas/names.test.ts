import { describe, expect, test } from 'vitest';
import { JS_RESERVED_WORDS, RESERVED_ADDITIVE_NAMES, validateAdditiveName, validateProjectName } from '@fw/schemas';

describe('validateProjectName', () => {
  test.each(['my-app', 'app', 'a', 'app2', '2fa-demo', 'my.app', 'my_app', 'x'.repeat(214)])('accepts %s', (name) => {
    expect(validateProjectName(name)).toEqual([true, name]);
  });

  const rejected: Array<[unknown, string]> = [
    ['../x', 'project name "../x" contains a path separator; expected a single name without "/" or "\\", such as "my-app"'],
    ['a/b', 'project name "a/b" contains a path separator; expected a single name without "/" or "\\", such as "my-app"'],
    ['a\\b', 'project name "a\\\\b" contains a path separator; expected a single name without "/" or "\\", such as "my-app"'],
    ['..', 'project name ".." contains ".."; expected a single name without "..", such as "my-app"'],
    ['a..b', 'project name "a..b" contains ".."; expected a single name without "..", such as "my-app"'],
    ['', 'project name "" is empty; expected a non-empty name, such as "my-app"'],
    [' app', 'project name " app" starts or ends with whitespace; expected a name without surrounding spaces, such as "my-app"'],
    ['My-App', 'project name "My-App" contains uppercase letters; expected a lowercase name (npm forbids uppercase), such as "my-app"'],
    // The lowercase name is suggested only when it is itself valid.
    ['Foo!', 'project name "Foo!" contains uppercase letters; expected a lowercase name (npm forbids uppercase), such as "my-app"'],
    ['HTTP', 'project name "HTTP" contains uppercase letters; expected a lowercase name (npm forbids uppercase), such as "my-app"'],
    ['Blog', 'project name "Blog" contains uppercase letters; expected a lowercase name (npm forbids uppercase), such as "blog"'],
    ['.hidden', 'project name ".hidden" starts with "."; expected a name starting with a lowercase letter or digit, such as "my-app"'],
    ['_private', 'project name "_private" starts with "_"; expected a name starting with a lowercase letter or digit, such as "my-app"'],
    ['-flag', 'project name "-flag" starts with "-"; expected a name starting with a lowercase letter or digit, such as "my-app"'],
    ['my app', 'project name "my app" contains " "; expected only lowercase letters, digits, "-", "." and "_" (npm package name rules), such as "my-app"'],
    ['caf\u00e9', 'project name "café" contains "é"; expected only lowercase letters, digits, "-", "." and "_" (npm package name rules), such as "my-app"'],
    ['a~b', 'project name "a~b" contains "~"; expected only lowercase letters, digits, "-", "." and "_" (npm package name rules), such as "my-app"'],
    ['@scope/app', 'project name "@scope/app" contains a path separator; expected a single name without "/" or "\\", such as "my-app"'],
    ['node_modules', 'project name "node_modules" is reserved by npm; expected any name except node_modules and favicon.ico'],
    ['favicon.ico', 'project name "favicon.ico" is reserved by npm; expected any name except node_modules and favicon.ico'],
    ['http', 'project name "http" is the name of a Node.js core module; expected a name that does not shadow a core module, such as "http-app"'],
    ['fs', 'project name "fs" is the name of a Node.js core module; expected a name that does not shadow a core module, such as "fs-app"'],
    ['x'.repeat(215), 'project name "' + 'x'.repeat(215) + '" is 215 characters long; expected at most 214 characters'],
    [42, 'project name 42 is a number; expected a string, such as "my-app"'],
  ];
  test.each(rejected)('rejects %j', (name, reason) => {
    expect(validateProjectName(name)).toEqual([false, reason]);
  });
});

describe('validateAdditiveName', () => {
  test.each(['blog', 'my-blog', 'my_blog', 'b2', 'shop-v2', 'a'.repeat(64), 'classes', 'apis'])('accepts %s', (name) => {
    expect(validateAdditiveName(name)).toEqual([true, name]);
  });

  test.each(RESERVED_ADDITIVE_NAMES.map((n) => [n]))('rejects the reserved path %s', (name) => {
    expect(validateAdditiveName(name)).toEqual([
      false,
      `additive name "${name}" is a path the kernel reserves; expected any name except fluid, api, ws, static, frontend, vite-dev, additives, node_modules`,
    ]);
  });

  test('the reserved paths are the ones the kernel serves', () => {
    expect([...RESERVED_ADDITIVE_NAMES].sort()).toEqual(
      ['additives', 'api', 'fluid', 'frontend', 'node_modules', 'static', 'vite-dev', 'ws'].sort(),
    );
  });

  test.each(['class', 'function', 'delete', 'new', 'enum', 'await', 'yield', 'let'])('rejects the reserved word %s', (name) => {
    expect(validateAdditiveName(name)).toEqual([
      false,
      `additive name "${name}" is a JavaScript reserved word; expected a name that is not a reserved word, such as "my-${name}"`,
    ]);
  });

  test('every reserved word is rejected', () => {
    for (const word of JS_RESERVED_WORDS) expect(validateAdditiveName(word)[0]).toBe(false);
  });

  const shape = 'a lowercase name matching ^[a-z][a-z0-9_-]*$, such as "blog"';
  const rejected: Array<[unknown, string]> = [
    ['../x', 'additive name "../x" contains a path separator; expected a single name without "/" or "\\", such as "blog"'],
    ['a/b', 'additive name "a/b" contains a path separator; expected a single name without "/" or "\\", such as "blog"'],
    ['..', 'additive name ".." contains ".."; expected a single name without "..", such as "blog"'],
    ['', `additive name "" is empty; expected ${shape}`],
    ['Blog', 'additive name "Blog" contains uppercase letters; expected a lowercase name, such as "blog"'],
    ['myBlog', 'additive name "myBlog" contains uppercase letters; expected a lowercase name, such as "myblog"'],
    ['1blog', `additive name "1blog" starts with "1"; expected ${shape}`],
    ['-blog', `additive name "-blog" starts with "-"; expected ${shape}`],
    ['_blog', `additive name "_blog" starts with "_"; expected ${shape}`],
    ['my.blog', `additive name "my.blog" contains "."; expected ${shape}`],
    ['my blog', `additive name "my blog" contains " "; expected ${shape}`],
    ['a'.repeat(65), `additive name "${'a'.repeat(65)}" is 65 characters long; expected at most 64 characters`],
    [null, `additive name null is null; expected ${shape}`],
    [undefined, `additive name undefined is missing; expected ${shape}`],
    [['blog'], `additive name ["blog"] is a list; expected ${shape}`],
  ];
  test.each(rejected)('rejects %j', (name, reason) => {
    expect(validateAdditiveName(name)).toEqual([false, reason]);
  });
});
