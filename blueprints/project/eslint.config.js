// `npm run lint`: ESLint's and typescript-eslint's recommended rules. ESLint (not oxlint) because
// it is plain JavaScript: no per-platform binary to install, and its plugins cover what you add.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Built, generated or linted by their own tools: `npm run build` output, the typed translation
  // modules, Prisma's client, and Vite workspaces (each has its own lint setup).
  {
    ignores: [
      'dist/',
      'fluid/frontend/',
      'additives/*/frontend/',
      'fluid/i18n/',
      'generated/',
      '.fw/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
);
