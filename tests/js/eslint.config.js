// ESLint for the site's JavaScript (`make lint`; the Makefile installs the pinned packages of
// package.json into tests/js/node_modules/). One style for every file, whether the browser loads it as an
// ES module (the builder) or as a classic script (the page scripts every page loads with `defer`,
// the engine's Web Worker, the service worker template): see docs/builder.md.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import globals from 'globals';

const style = {
  '@stylistic/indent': ['error', 2, {SwitchCase: 1}],
  '@stylistic/quotes': ['error', 'single', {avoidEscape: true}],
  '@stylistic/semi': ['error', 'always'],
  '@stylistic/comma-dangle': ['error', 'always-multiline'],
  // {row, col}, not { row, col }. (Deprecated in favour of list-style, which would also dictate where
  // a long list breaks; it prints a notice.)
  '@stylistic/object-curly-spacing': ['error', 'never'],
  '@stylistic/arrow-parens': ['error', 'always'],
  '@stylistic/arrow-spacing': 'error',
  '@stylistic/brace-style': ['error', '1tbs', {allowSingleLine: true}],
  '@stylistic/comma-spacing': 'error',
  '@stylistic/key-spacing': 'error',
  '@stylistic/keyword-spacing': 'error',
  '@stylistic/space-before-blocks': 'error',
  '@stylistic/space-before-function-paren': ['error', {anonymous: 'always', named: 'never', asyncArrow: 'always'}],
  '@stylistic/space-in-parens': 'error',
  '@stylistic/space-infix-ops': 'error',
  '@stylistic/semi-spacing': 'error',
  '@stylistic/operator-linebreak': ['error', 'before'],
  '@stylistic/quote-props': ['error', 'as-needed'],
  '@stylistic/no-trailing-spaces': 'error',
  '@stylistic/no-multiple-empty-lines': ['error', {max: 1, maxEOF: 0}],
  '@stylistic/eol-last': 'error',
  '@stylistic/padded-blocks': ['error', 'never'],
  '@stylistic/template-curly-spacing': 'error',
  // As ruff's line length for the Python (pyproject.toml).
  '@stylistic/max-len': ['error', {code: 120, ignoreUrls: true, ignoreRegExpLiterals: true}],
};

const code = {
  // camelCase names, UPPER_CASE constants, PascalCase classes; the API's JSON fields keep their
  // snake_case (`combat_card`), so properties are exempt.
  camelcase: ['error', {properties: 'never', ignoreDestructuring: true}],
  'new-cap': 'error',
  eqeqeq: ['error', 'always', {null: 'ignore'}],
  'no-var': 'error',
  'prefer-const': 'error',
  'prefer-arrow-callback': 'error',
  'object-shorthand': 'error',
  'prefer-template': 'error',
  'no-unused-vars': ['error', {args: 'after-used', caughtErrors: 'none'}],
};

export default [
  {ignores: ['**/node_modules/', '.venv/', 'instance/', 'adjudicator/static/offline/',
    'adjudicator/static/js/builder.bundle.js']},
  js.configs.recommended,
  {plugins: {'@stylistic': stylistic}, rules: {...style, ...code}},
  {
    // ES modules: the builder's, loaded as one bundle (adjudicator/bundle.py).
    files: ['adjudicator/static/js/builder*.js', 'adjudicator/static/js/offline-engine.js'],
    languageOptions: {sourceType: 'module', globals: globals.browser},
  },
  {
    // Classic scripts of every page (base.html loads them with `defer`, theme.js before the first
    // paint): each keeps its names to
    // itself inside one function, so they never share a global by accident.
    files: ['adjudicator/static/js/search.js', 'adjudicator/static/js/offline-search.js',
      'adjudicator/static/js/sw-register.js', 'adjudicator/static/js/theme.js'],
    languageOptions: {sourceType: 'script', globals: globals.browser},
    rules: {'no-implicit-globals': 'error', strict: ['error', 'function']},
  },
  {
    // The engine's Web Worker: a classic worker, since Pyodide is loaded with importScripts().
    files: ['adjudicator/static/js/engine-worker.js'],
    languageOptions: {sourceType: 'script', globals: globals.worker},
  },
  {
    // The service worker, a template: adjudicator/web/offline.py fills in the two constants.
    files: ['adjudicator/static_templates/sw.js'],
    languageOptions: {sourceType: 'script',
      globals: {...globals.serviceworker, __VERSION__: 'readonly', __PRECACHE__: 'readonly'}},
  },
  {
    files: ['tests/js/eslint.config.js'],
    languageOptions: {sourceType: 'module', globals: globals.node},
  },
];
