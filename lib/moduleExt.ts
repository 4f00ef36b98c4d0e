// ".ts" when running from source (tsx: npm test, npm start), ".js" when running the build in
// dist/ (the wincheck bin): the extension of the modules the harness loads by path (catalog
// feature files, suite files, the sim's entry).
export const MODULE_EXT: '.ts' | '.js' = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
