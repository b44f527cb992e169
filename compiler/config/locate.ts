/**
 * Positions inside the config file for config diagnostics: a JSON config (or the "zhin-gen" key
 * of package.json) is parsed with positions; a TS/MJS config module is searched for the option
 * name. Falls back to 1:1 when the option cannot be found.
 */
import { readFileSync } from 'node:fs';
import type * as Jsonc from 'jsonc-parser';
import { lazyRequire } from '../util/lazy.js';
import { lineStarts, positionAt } from '../diagnostics.js';
import { firstTooDeep } from '../parse/depth.js';

export interface ConfigText {
  /** POSIX file name relative to the root. */
  readonly file: string;
  readonly text: string;
  /** Path prefix of the config object inside the JSON document (['zhin-gen'] in package.json). */
  readonly prefix: readonly string[];
}

export type ConfigPath = readonly (string | number)[];

/** The config file's text and where the config object sits in it (for diagnostic positions). */
export function readConfigText(root: string, configFile: string): ConfigText | undefined {
  try {
    const text = readFileSync(configFile, 'utf8').replace(/^\uFEFF/, '');
    const file = relativeName(root, configFile);
    return { file, text, prefix: file === 'package.json' ? ['zhin-gen'] : [] };
  } catch {
    return undefined;
  }
}

export function relativeName(root: string, file: string): string {
  return file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
}

// Loaded on the first config diagnostic: a run over a valid config never needs positions.
const jsoncParser = lazyRequire<typeof Jsonc>('jsonc-parser');

export function locateConfig(
  config: ConfigText,
  path: ConfigPath,
  unknownKey?: string,
): { file: string; line: number; column: number } {
  const starts = lineStarts(config.text);
  const at = (offset: number): { file: string; line: number; column: number } => ({
    file: config.file,
    ...positionAt(starts, offset),
  });
  // jsonc-parser recurses once per level: a JSON config nested deeper than any config is located
  // by option name instead (below), like a config module.
  if (config.file.endsWith('.json') && firstTooDeep(config.text, 'json') === undefined) {
    const { findNodeAtLocation, parseTree } = jsoncParser();
    const tree = parseTree(config.text);
    if (tree) {
      const node = findNodeAtLocation(tree, [...config.prefix, ...path]);
      if (node && unknownKey !== undefined && node.type === 'object') {
        const prop = node.children?.find((child: Jsonc.Node) => child.children?.[0]?.value === unknownKey);
        if (prop) return at(prop.offset);
      }
      if (node) return at(node.offset);
    }
    return { file: config.file, line: 1, column: 1 };
  }
  const name = unknownKey ?? [...path].reverse().find((p): p is string => typeof p === 'string');
  if (name !== undefined) {
    const match = new RegExp(`(["']?)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1\\s*:`).exec(config.text);
    if (match) return at(match.index);
  }
  return { file: config.file, line: 1, column: 1 };
}
