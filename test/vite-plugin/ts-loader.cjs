// A minimal webpack loader for the tests: strips TypeScript with esbuild (webpack has no TS support).
const { transformSync } = require('esbuild');

module.exports = function tsLoader(source) {
  return transformSync(source, { loader: 'ts', format: 'esm', sourcefile: this.resourcePath }).code;
};
