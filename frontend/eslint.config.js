// ESLint decides what is a bug or a trap; Prettier (.prettierrc.json at the repository root) decides the layout.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'dist-ssr*', 'src/wasm-pkg', 'test-output'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat['recommended-latest'],
  jsxA11y.flatConfigs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // An argument or binding named with a leading underscore is unused on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // No import circle anywhere in the page's code, and feature folders kept apart: what two
    // features share lives below both, in lib/. Packages are not followed (ignoreExternal): that
    // tripled ESLint's time for no circle of ours.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // A feature imports no other, types included, except the voice island hosting the chat.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/features/chat', from: './src/features/!(chat)/**' },
            { target: './src/features/quote', from: './src/features/!(quote)/**' },
            { target: './src/features/particles', from: './src/features/!(particles)/**' },
            { target: './src/features/voice', from: './src/features/!(voice|chat)/**' },
          ],
        },
      ],
    },
  },
);
