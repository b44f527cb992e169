/**
 * The incremental encoder of the shipped discover index (runtime/deferred/search-encoder.ts): one
 * encoder taken through a long run of edits (a description, keywords, a word no other document
 * has, a word removed from every document, a name's case, tools added and removed, a skill, many
 * documents at once, equal documents as new objects) writes after every step exactly the bytes
 * a fresh encoder writes, and those bytes rank as the runtime-built index (the oracle).
 */
import { describe, expect, it } from 'vitest';
import { type SearchDocument, SearchIndex } from '../../../runtime/deferred/search.js';
import {
  encodeSearchData,
  readSearchHeader,
  SearchEncoder,
  ShippedSegment,
  searchDocument,
} from '../../../runtime/deferred/search-data.js';
import { seededRandom as random } from '../../helpers.js';

const WORDS = ['weather', 'ticket', 'music', 'order', 'member', 'reminder', 'poll', 'image', 'note', '天气', 'city'];

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;

function tool(i: number, next: () => number, extra = ''): SearchDocument {
  const words = Array.from({ length: 3 + Math.floor(next() * 6) }, () => pick(next, WORDS));
  return searchDocument(
    `plugin__kind-${String(i).padStart(4, '0')}`,
    [pick(next, WORDS)],
    i % 5 === 0 ? ['tag'] : [],
    `${words.join(' ')} ${extra}`.trim(),
  );
}

/** An index over shipped data alone (document i of the data is document i), as the runtime reads it. */
function shippedIndex(data: string, documents: readonly SearchDocument[]): SearchIndex {
  const header = readSearchHeader(data)!;
  const ids = Int32Array.from(documents, (_, i) => i);
  const names = new Map<string, number[]>();
  documents.forEach((document, doc) => {
    names.set(document.name.toLowerCase(), [doc]);
  });
  return new SearchIndex({
    segments: [new ShippedSegment(data, header, ids)],
    size: documents.length,
    totalLength: header.totalLength,
    named: (name) => names.get(name) ?? [],
  });
}

describe('SearchEncoder', () => {
  it('writes after every edit what a fresh encoder writes, ranking as the runtime index', () => {
    const next = random(21);
    let tools = Array.from({ length: 300 }, (_, i) => tool(i, next));
    let skills = [searchDocument('trip', ['travel'], [], 'Plan a trip with weather and tickets')];
    const encoder = new SearchEncoder();
    const steps: [string, () => void][] = [
      ['a description', () => (tools[17] = tool(17, next, 'forecast'))],
      ['a word no other document has', () => (tools[40] = tool(40, next, 'zyzzyva'))],
      ['that word removed again', () => (tools[40] = tool(40, next))],
      ['keywords', () => (tools[3] = searchDocument(tools[3]!.name, ['lottery', 'draw'], [], 'draw a lottery'))],
      ['the first and the last', () => ((tools[0] = tool(0, next, 'first')), (tools[299] = tool(299, next, 'last')))],
      ['a name in upper case', () => (tools[5] = searchDocument('plugin__Kind-0005', ['x'], [], 'Upper name'))],
      [
        'equal documents as new objects',
        () => (tools = tools.map((d) => ({ name: d.name, fields: d.fields.map((f) => ({ ...f })) }))),
      ],
      ['a tool added', () => tools.splice(120, 0, tool(1200, next, 'added'))],
      ['a tool removed', () => tools.splice(7, 1)],
      ['a skill', () => (skills = [searchDocument('trip', ['travel'], [], 'Plan a journey by train')])],
      ['many tools at once', () => (tools = tools.map((d, i) => (i % 3 === 0 ? tool(i, next, 'bulk') : d)))],
      ['a word every document had, gone', () => (tools = tools.map((d) => searchDocument(d.name, [], [], 'plain')))],
      ['no tools', () => (tools = [])],
      ['tools again', () => (tools = Array.from({ length: 40 }, (_, i) => tool(i, next)))],
    ];
    for (const [step, edit] of steps) {
      edit();
      const data = encoder.encode(tools, skills);
      expect(data, step).toBe(encodeSearchData(tools, skills));
      const shipped = shippedIndex(data, [...tools, ...skills]);
      const built = SearchIndex.build([...tools, ...skills]);
      for (const query of [...WORDS, 'forecast', 'zyzzyva', 'lottery', 'kind', 'trip', 'bulk', 'plain', 'journey'])
        expect([...shipped.search(query)], `${step}: ${query}`).toEqual([...built.search(query)]);
    }
  });

  it('renumbers the postings when tools are added or removed, tokenizing only the new or moved documents', () => {
    const next = random(33);
    const tools = Array.from({ length: 400 }, (_, i) => tool(i, next));
    const encoder = new SearchEncoder();
    encoder.encode(tools, []);
    // [step, edit, documents the step may tokenize (the rest are renumbered)]
    const steps: [string, () => void, number][] = [
      ['one added in the middle', () => tools.splice(200, 0, tool(5000, next, 'middle')), 1],
      ['one added first and one removed last', () => (tools.unshift(tool(5001, next, 'first')), tools.pop()), 1],
      ['three removed', () => tools.splice(10, 3), 0],
      ['a document moved against the order', () => tools.splice(350, 0, ...tools.splice(20, 1)), 1],
      ['an equal copy added beside its original', () => tools.splice(31, 0, { ...tools[30]! }), 1],
      ['a word no other document has, added with a new tool', () => tools.splice(5, 0, tool(5002, next, 'quokka')), 1],
      ['that tool removed again', () => tools.splice(5, 1), 0],
      [
        'a weight above one code unit',
        () => tools.splice(1, 0, searchDocument('plugin__kind-wide', [], [], Array(70_000).fill('echo').join(' '))),
        1,
      ],
      ['it removed again', () => tools.splice(1, 1), 0],
      [
        'more than a patch adds: indexed again',
        () => tools.push(...Array.from({ length: 80 }, (_, i) => tool(6000 + i, next))),
        80,
      ],
    ];
    for (const [step, edit, tokenized] of steps) {
      edit();
      const before = encoder.indexed;
      const data = encoder.encode(tools, []);
      expect(data, step).toBe(encodeSearchData(tools, []));
      expect(encoder.indexed - before, step).toBeLessThanOrEqual(tokenized);
      const shipped = shippedIndex(data, tools);
      const built = SearchIndex.build(tools);
      for (const query of [...WORDS, 'middle', 'first', 'quokka', 'echo', 'kind'])
        expect([...shipped.search(query)], `${step}: ${query}`).toEqual([...built.search(query)]);
    }
  });
});
