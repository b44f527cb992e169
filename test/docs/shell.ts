/**
 * `sh` / `bash` / `shell` blocks of the docs: every command line is run, or — for npm commands,
 * which install packages or run this repository's whole suite — checked.
 *
 * The rule:
 * - A line is one command line (`\` continuations joined; blank and `#` comment lines skipped).
 *   A trailing `# … exits N …` comment states the expected exit code; otherwise it is 0.
 * - A line whose `&&`-separated commands are all `npm …` is checked, not run:
 *   `npm i` / `install` / `add` / `ci` with package names → each name must be a package of this
 *   repository (root or workspace) or one it depends on (so, a real registry package; versions
 *   like `vite@8` are allowed); `npm ci` without names needs a lockfile; `npm start`,
 *   `npm test`, `npm run <script>` → the script must exist in the package.json of the directory
 *   the block runs in (the repository for `dir=repo`). Any other npm command fails the test
 *   (extend the rule here). A line mixing npm with other commands fails too.
 * - Every other line runs in `bash -c` in the block's directory, `npx zhin-gen` mapped to the
 *   built CLI (`node <repo>/bin/zhin-gen.mjs`).
 * - The directory (a fresh copy for every block): `dir=bot` (default) is a bot made by
 *   `zhin-gen init`, with zhin-gen linked into its node_modules as `npm install` would put it
 *   (where a user stands after the README's first steps); `dir=example-bot` is the repository's
 *   example bot after `zhin-gen generate`; `dir=repo` is a directory holding a copy of the
 *   repository's `fixtures/` (commands for people working on zhin-gen, such as running a
 *   fixture's example; they never touch the checkout), with npm scripts looked up in the
 *   repository's package.json.
 * Lines of one block run in order in the same directory; a line that is only `cd DIR` moves the
 * following lines (and the npm script lookup) there; variables do not carry over.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { where, type Snippet } from './extract.js';

export interface CommandLine {
  /** 1-based line in the block. */
  readonly line: number;
  readonly text: string;
  readonly expectedStatus: number;
}

/** Strips a trailing comment that is not inside quotes; returns [command, comment]. */
function splitComment(text: string): [string, string] {
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? '')))
      return [text.slice(0, i).trimEnd(), text.slice(i + 1).trim()];
  }
  return [text, ''];
}

export function commandLines(code: string): CommandLine[] {
  const raw = code.split('\n');
  const out: CommandLine[] = [];
  for (let i = 0; i < raw.length; i++) {
    const start = i;
    let text = raw[i] ?? '';
    while (text.endsWith('\\') && i + 1 < raw.length) text = `${text.slice(0, -1)} ${raw[++i] ?? ''}`;
    const [command, comment] = splitComment(text.trim());
    if (command === '') continue;
    const exits = /\bexits? (\d+)\b/.exec(comment);
    out.push({ line: start + 1, text: command, expectedStatus: exits ? Number(exits[1]) : 0 });
  }
  return out;
}

interface PackageJson {
  readonly name?: string;
  readonly workspaces?: readonly string[];
  readonly scripts?: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
}

const readPackage = (dir: string): PackageJson | undefined =>
  existsSync(join(dir, 'package.json'))
    ? (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson)
    : undefined;

/** Names `npm i` in the docs may install: this repository's packages and what it depends on. */
export function knownPackages(repo: string): Set<string> {
  const root = readPackage(repo) ?? {};
  const names = new Set<string>();
  for (const pkg of [root, ...(root.workspaces ?? []).map((w) => readPackage(join(repo, w)) ?? {})]) {
    if (pkg.name) names.add(pkg.name);
    for (const deps of [pkg.dependencies, pkg.devDependencies, pkg.peerDependencies, pkg.optionalDependencies])
      for (const n of Object.keys(deps ?? {})) names.add(n);
  }
  return names;
}

const packageName = (spec: string): string =>
  spec.startsWith('@') ? `@${spec.slice(1).split('@')[0]}` : (spec.split('@')[0] ?? spec);

/** Checks one npm command; returns the problem or undefined. */
export function checkNpmCommand(command: string, dir: string, repo: string): string | undefined {
  const words = command.trim().split(/\s+/).slice(1);
  const [verb, ...rest] = words;
  const args = rest.filter((w) => !w.startsWith('-'));
  if (verb === 'i' || verb === 'install' || verb === 'add' || verb === 'ci') {
    if (args.length === 0) {
      return verb === 'ci' && !existsSync(join(dir, 'package-lock.json'))
        ? `"${command}" needs a package-lock.json in ${dir}`
        : undefined;
    }
    const known = knownPackages(repo);
    const unknown = args.map(packageName).filter((n) => !known.has(n));
    return unknown.length
      ? `"${command}" installs ${unknown.join(', ')}: not a package of this repository nor one it depends on`
      : undefined;
  }
  const script =
    verb === 'start' || verb === 'test' ? verb : verb === 'run' || verb === 'run-script' ? args[0] : undefined;
  if (script === undefined)
    return `"${command}": npm ${verb ?? ''} is neither an install nor a script (extend the rule in test/docs/shell.ts)`;
  const scripts = readPackage(dir)?.scripts ?? {};
  return scripts[script] === undefined
    ? `"${command}": no script "${script}" in ${join(dir, 'package.json')}`
    : undefined;
}

/** `&&`-separated commands of a line (quotes respected). */
function andList(text: string): string[] {
  const parts: string[] = [];
  let quote = '';
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '&' && text[i + 1] === '&') {
      parts.push(current.trim());
      current = '';
      i++;
      continue;
    }
    current += c;
  }
  parts.push(current.trim());
  return parts;
}

export interface ShellOptions {
  readonly repo: string;
  /** The directory the block's lines run in (fresh for each block). */
  readonly dir: string;
  /** Where npm scripts are looked up (the repository for `dir=repo`). */
  readonly scriptsDir: string;
}

/** Runs (or checks) every line of a block; returns the problems. */
export function runShellSnippet(snippet: Snippet, options: ShellOptions): string[] {
  const problems: string[] = [];
  const cliPath = JSON.stringify(join(options.repo, 'bin', 'zhin-gen.mjs'));
  let cwd = options.dir;
  let scriptsDir = options.scriptsDir;
  for (const line of commandLines(snippet.code)) {
    const at = where(snippet, line.line);
    // `cd DIR` on a line of its own moves the rest of the block, as in a terminal.
    const cd = /^cd\s+(\S+)$/.exec(line.text);
    if (cd?.[1]) {
      const next = resolve(cwd, cd[1]);
      if (!existsSync(next)) problems.push(`${at}: "${line.text}": no such directory`);
      else cwd = scriptsDir = next;
      continue;
    }
    const commands = andList(line.text);
    const npm = commands.filter((c) => /^npm\s/.test(c));
    if (npm.length > 0) {
      if (npm.length !== commands.length)
        problems.push(`${at}: "${line.text}" mixes npm with other commands (write them on separate lines)`);
      for (const c of npm) {
        const problem = checkNpmCommand(c, scriptsDir, options.repo);
        if (problem) problems.push(`${at}: ${problem}`);
      }
      continue;
    }
    const script = line.text.replace(/(^|[\s;&|(])npx zhin-gen(?=\s|$)/g, `$1node ${cliPath}`);
    const result = spawnSync('bash', ['-c', script], {
      cwd,
      encoding: 'utf8',
      timeout: 180_000,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    const status = result.status ?? -1;
    if (status !== line.expectedStatus) {
      const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-15).join('\n    ');
      problems.push(
        `${at}: "${line.text}" exited ${status}${result.signal ? ` (${result.signal})` : ''}, expected ${line.expectedStatus}\n    ${output}`,
      );
    }
  }
  return problems;
}
