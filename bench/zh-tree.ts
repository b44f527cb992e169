/**
 * A bench tree whose tools are described in Chinese, as the seed catalogs are: bench/gen-tree.ts's
 * tree of N tools with every "Handle <word> <i> requests for the current chat" rewritten to a
 * Chinese sentence about the same word (names, schemas and everything else unchanged). The
 * `discover` index of such a catalog has CJK tokens (single characters and bigrams), which the
 * index module spells in ASCII (runtime/deferred/search-format.ts spellToken).
 *
 *   node --import tsx bench/zh-tree.ts <N> <dir>
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTree } from './gen-tree.js';

const ZH: Readonly<Record<string, string>> = {
  weather: '天气',
  ticket: '工单',
  music: '音乐',
  lottery: '彩票',
  order: '订单',
  member: '成员',
  reminder: '提醒',
  poll: '投票',
  quote: '语录',
  search: '搜索',
  channel: '频道',
};
const VERBS = ['查询', '创建', '更新', '删除', '列出', '订阅', '统计', '推送'];
const ENGLISH = /description: 'Handle ([a-z]+) (\d+) requests for the current chat'/;

/** Rewrites every tool description under `root` in place; returns how many it rewrote. */
export function chineseDescriptions(root: string): number {
  let rewritten = 0;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === 'index.ts') {
        const text = readFileSync(path, 'utf8');
        const next = text.replace(ENGLISH, (_, word: string, i: string) => {
          const zh = ZH[word] ?? word;
          return `description: '处理${zh}${i}号请求：为当前群聊${VERBS[Number(i) % VERBS.length]}${zh}信息'`;
        });
        if (next !== text) {
          writeFileSync(path, next);
          rewritten += 1;
        }
      }
    }
  };
  walk(root);
  return rewritten;
}

/** bench/gen-tree.ts's tree of `n` tools at `root`, described in Chinese. */
export function generateChineseTree(n: number, root: string): number {
  generateTree(n, root);
  return chineseDescriptions(root);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const n = Number(process.argv[2] ?? 1000);
  const root = resolve(process.argv[3] ?? `bench/trees/tree-${n}-zh`);
  console.log(`${generateChineseTree(n, root)} descriptions in Chinese under ${root}`);
}
