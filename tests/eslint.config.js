// The front end's ESLint rules (frontend/eslint.config.js, with its packages) for the tests here.
export { default } from '../frontend/eslint.config.js';
