// Declaration files for both packages, so a user's `tsc` reads .d.ts (checked under the user's own
// options, skipLibCheck or not) instead of zhin-gen's .ts sources. The runtime's first: zhin-gen's
// program then resolves `@zhin-gen/runtime` through that package's `types` condition, exactly as
// a user's program does, and never re-reads the runtime's sources. `noCheck`: the sources are
// type-checked by `npm run typecheck` and the tests; here only declarations are produced, which is
// ~2x faster. Still ~4 s on an idle machine (parsing ~10 MB of libraries: lib.dom, @types/node,
// ts-morph, webpack), so the emitted files are cached (node_modules/.cache/zhin-gen-declarations/)
// under the content hash of every file the programs read: a build whose inputs did not change
// hashes them and copies the files (~0.3 s, without loading TypeScript).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';

/** Loaded on a cache miss only: importing TypeScript alone is ~0.4 s of an up-to-date build. */
let ts;

/**
 * Parsed files shared by both programs (the lib files, @types/node): parsing is most of the cost
 * of a declarations-only program, and both read the same libraries.
 */
const parsedFiles = new Map();

/** Emits the declarations of the project `configFile`; throws with every diagnostic on failure. */
function emitProject(configFile) {
  const configHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(format([d]));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, { noCheck: true }, configHost);
  if (!parsed) throw new Error(`cannot read ${configFile}`);
  const host = ts.createCompilerHost(parsed.options);
  const read = host.getSourceFile;
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    if (!parsedFiles.has(key)) parsedFiles.set(key, read.call(host, fileName, languageVersion, ...rest));
    return parsedFiles.get(key);
  };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    host,
  });
  const result = program.emit(undefined, undefined, undefined, true);
  const diagnostics = [
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...result.diagnostics,
  ];
  if (diagnostics.length > 0)
    throw new Error(`declarations of ${relative(process.cwd(), configFile)}:\n${format(diagnostics)}`);
  return { outDir: parsed.options.outDir, read: program.getSourceFiles().map((file) => file.fileName) };
}

/** Every TypeScript source of both packages now: a file added or removed changes the key. */
function sourceNames(root) {
  return fg
    .sync(['runtime/**/*.ts', 'compiler/**/*.ts', 'vite-plugin/**/*.ts'], {
      cwd: root,
      ignore: ['**/dist/**', '**/node_modules/**'],
    })
    .sort();
}

function digestOf(file) {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('base64url');
  } catch {
    return null;
  }
}

function format(diagnostics) {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  });
}

/**
 * The .d.ts files reachable from the package's `types` targets, following relative imports and
 * `import("./x")` types. Everything else under `outDir` is internal and deleted (it would only
 * ship bytes); a reachable import of a path that is not emitted, or of a file outside the
 * package (`../runtime/...`), fails the build: the published types would not resolve.
 */
function pruneUnreachable(packageDir, outDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const targets = [];
  const collect = (value) => {
    if (typeof value === 'string') return;
    for (const [condition, target] of Object.entries(value)) {
      if (condition === 'types' && typeof target === 'string') targets.push(join(packageDir, target));
      else if (target && typeof target === 'object') collect(target);
    }
  };
  collect(manifest.exports ?? {});
  const reachable = new Set();
  const queue = [...targets];
  while (queue.length > 0) {
    const file = queue.pop();
    if (reachable.has(file)) continue;
    if (!existsSync(file))
      throw new Error(`${relative(packageDir, file)} is referenced by the package's types but was not emitted`);
    reachable.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from\s+|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const next = join(dirname(file), match[1].replace(/\.js$/, '.d.ts'));
      if (relative(packageDir, next).startsWith('..'))
        throw new Error(`${relative(packageDir, file)} imports ${match[1]}, outside the package`);
      // A hand-written declaration (vite-plugin/virtual.d.ts) is copied, not emitted.
      if (next.startsWith(outDir) || existsSync(next)) queue.push(next);
    }
  }
  for (const file of ts.sys.readDirectory(outDir, ['.d.ts'])) {
    if (!reachable.has(file)) rmSync(file);
  }
  return reachable.size;
}

/** Both packages' declarations; returns how many .d.ts files each ships and whether they were cached. */
export async function emitDeclarations(root) {
  const runtimeDir = join(root, 'runtime');
  const projects = [
    { name: 'runtime', dir: runtimeDir, config: join(runtimeDir, 'tsconfig.build.json') },
    { name: 'zhin-gen', dir: root, config: join(root, 'tsconfig.build.json') },
  ];
  const cacheDir = join(root, 'node_modules', '.cache', 'zhin-gen-declarations');
  const recordFile = join(cacheDir, 'record.json');
  const typescriptVersion = JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('typescript/package.json'), 'utf8'),
  ).version;
  const key = {
    typescript: typescriptVersion,
    script: digestOf(fileURLToPath(import.meta.url)),
    sources: sourceNames(root),
  };
  const record = existsSync(recordFile) ? JSON.parse(readFileSync(recordFile, 'utf8')) : undefined;
  const fresh =
    record !== undefined &&
    JSON.stringify(record.key) === JSON.stringify(key) &&
    Object.entries(record.inputs).every(([file, digest]) => digestOf(file) === digest) &&
    projects.every((p) => existsSync(join(cacheDir, p.name)));
  if (fresh) {
    for (const project of projects)
      cpSync(join(cacheDir, project.name), join(project.dir, record.outDirs[project.name]), { recursive: true });
    return { ...record.counts, cached: true };
  }
  ts = (await import('typescript')).default;
  const inputs = {};
  const counts = {};
  const outDirs = {};
  rmSync(cacheDir, { recursive: true, force: true });
  const outputs = [];
  for (const project of projects) {
    const { outDir, read } = emitProject(project.config);
    outputs.push(`${outDir}/`);
    // Declarations an earlier project emitted (zhin-gen's program reads the runtime's) are
    // products of inputs already listed; the build deletes them before this check runs.
    for (const file of [project.config, ...read])
      if (!outputs.some((dir) => file.startsWith(dir))) inputs[file] = digestOf(file);
    counts[project.name] = pruneUnreachable(project.dir, outDir);
    outDirs[project.name] = relative(project.dir, outDir);
    for (const file of ts.sys.readDirectory(outDir, ['.d.ts'])) {
      const target = join(cacheDir, project.name, relative(outDir, file));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(file, target);
    }
  }
  writeFileSync(recordFile, `${JSON.stringify({ key, inputs, counts, outDirs })}\n`);
  return { ...counts, cached: false };
}
