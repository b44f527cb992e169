// Which directory entries the bench's own walks (the floor, the peers) leave out: dependencies,
// dot files, the generated trees' `src/` and `docs/` noise, and zhin-gen's generated output
// (`*.gen.ts` and its `*.gen.validators/` folder), which is not an input of the tree.
export function skipped(name) {
  return (
    name === 'node_modules' ||
    name.startsWith('.') ||
    name === 'src' ||
    name === 'docs' ||
    name.endsWith('.gen.ts') ||
    name.endsWith('.gen.validators')
  );
}
