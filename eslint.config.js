// ESLint flat config: typescript-eslint's recommended rules. Formatting is Prettier's job
// (.prettierrc.json), chosen over Biome because it also formats the YAML, JSON and Markdown we
// ship (fixtures, CI recipes, READMEs), and because typescript-eslint recommends leaving
// formatting to a formatter: https://typescript-eslint.io/users/what-about-formatting/
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' };

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.tmp/', 'test/data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: nodeGlobals },
    rules: {
      // Types come from @kubernetes/client-node and our own modules: no `any` where a type exists.
      '@typescript-eslint/no-explicit-any': 'error',
      // `_name` marks a parameter kept for its position (callbacks, interfaces).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // A watch handle declared before the callbacks that stop it and assigned after them.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Raw JSON bodies of the API under test, read by path: having no type is the point there.
    files: ['test/sim/api/clientNode.test.ts', 'test/sim/profiles/load.test.ts', 'test/support/simApi.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // chai's property assertions (`expect(x).to.be.true`) are expressions by design.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    // mocha loads its reporters as CommonJS.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
