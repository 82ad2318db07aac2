/**
 * Dialogue attribution of the audiobook casting (who is speaking) on the hand-labelled passages of
 * public-domain fiction: accuracy on the tuning parts and on the three held-out parts, and how many of the
 * characters found are speakers the labels name (the rest are printed, to be judged by eye).
 * `npm run bench:speakers` (also part of `npm run bench:chinese`)
 */

import { CAST_BOOKS } from '../../../packages/engines/src/book/cast.fixture.ts';
import { measureCast } from '../../../packages/engines/src/book/cast.measure.ts';
import { loadWp, measureExternal } from '../../../packages/engines/src/book/external.measure.ts';
import { IN_BOOK_TUNING, measureInBook } from '../../../packages/engines/src/book/in-book.measure.ts';
import {
  type LabelledPassage,
  SPEAKERS_HELDOUT,
  SPEAKERS_TUNING,
} from '../../../packages/engines/src/book/speakers.fixture.ts';
import { measureSpeakers } from '../../../packages/engines/src/book/speakers.measure.ts';
import {
  SPEAKERS_HELDOUT_NEW,
  SPEAKERS_TUNING_MORE,
} from '../../../packages/engines/src/book/speakers.more.fixture.ts';
import {
  SPEAKERS_HELDOUT_THIRD,
  SPEAKERS_TUNING_THIRD,
} from '../../../packages/engines/src/book/speakers.third.fixture.ts';
import { attributeSpeakers } from '../../../packages/engines/src/book/speakers.ts';

const TUNING = [...SPEAKERS_TUNING, ...SPEAKERS_TUNING_MORE];
const TUNING_PARTS = [TUNING, SPEAKERS_TUNING_THIRD];
const HELDOUT = [...SPEAKERS_HELDOUT, ...SPEAKERS_HELDOUT_NEW, ...SPEAKERS_HELDOUT_THIRD];
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

const parts: Array<[string, LabelledPassage[]]> = [
  ['tuning part', TUNING],
  ['third tuning part (老舍, 施耐庵, 曹雪芹, 吴承恩, 鲁迅)', SPEAKERS_TUNING_THIRD],
  ['held-out part', SPEAKERS_HELDOUT],
  ['second held-out part (老舍《四世同堂》, 《西游记》)', SPEAKERS_HELDOUT_NEW],
  ['third held-out part (《在酒楼上》, 《社戏》, 《三国演义》)', SPEAKERS_HELDOUT_THIRD],
  ['all held-out parts', HELDOUT],
];
for (const [name, set] of parts) {
  const m = measureSpeakers(set);
  console.log(`attribution, ${name}: ${m.right}/${m.total} quotes right = ${pct(m.accuracy)}`);
  // Misses are printed for the tuning parts only; held-out misses stay unseen.
  if (TUNING_PARTS.includes(set))
    for (const w of m.wrong) console.log(`  wrong: ${w.source} “${w.quote}” ${w.got} ≠ ${w.expected}`);
  if (set === HELDOUT) continue;
  for (const p of set) {
    const one = measureSpeakers([p]);
    console.log(`  ${p.source}: ${one.right}/${one.total} = ${pct(one.accuracy)}`);
  }
}

/** Characters found in a passage, and those among them that its labels name as speakers. */
function characters(p: LabelledPassage) {
  const norm = (s: string) => s.normalize('NFKC');
  const labelled = new Set(p.speakers.split(/[ |]/u).map(norm));
  const found = attributeSpeakers(p.paragraphs).characters.map((c) => c.name);
  return { found, unlabelled: found.filter((n) => !labelled.has(norm(n))) };
}

let found = 0;
let unlabelled = 0;
for (const p of [...TUNING, ...SPEAKERS_TUNING_THIRD, ...HELDOUT]) {
  const c = characters(p);
  found += c.found.length;
  unlabelled += c.unlabelled.length;
  if (p.source.includes('阿Q正传'))
    console.log(
      `characters in ${p.source}: ${c.found.join(' ')} (not labelled: ${c.unlabelled.join(' ') || 'none'})`,
    );
  // Names are listed for the tuning part only (held-out output stays unseen); all count in the total.
  else if (c.unlabelled.length && !HELDOUT.includes(p))
    console.log(`  not labelled in ${p.source}: ${c.unlabelled.join(' ')}`);
}
console.log(
  `characters found that the labels name as speakers: ${found - unlabelled}/${found} = ${pct((found - unlabelled) / found)}`,
);

// The cast of whole books (every role the audiobook would offer), against the lists written by hand.
console.log('cast (whole books, roles the audiobook offers):');
let castRoles = 0;
let castRight = 0;
let castMain = 0;
let castFound = 0;
let castSplits = 0;
for (const book of CAST_BOOKS) {
  const m = measureCast(book);
  castRoles += m.roles.length;
  castRight += m.roles.length - m.notPeople.length;
  castMain += book.main.length;
  castFound += Math.round(m.recall * book.main.length);
  castSplits += m.splitErrors;
  console.log(
    `  ${book.source}: ${m.roles.length} roles, precision ${pct(m.precision)}, recall ${pct(m.recall)}, splits ${m.splitErrors}`,
  );
  console.log(`    roles: ${m.roles.map((r) => `${r.name}×${r.lines}`).join(' ')}`);
  if (m.notPeople.length) console.log(`    not characters: ${m.notPeople.map((r) => r.name).join(' ')}`);
  if (m.missing.length) console.log(`    missing: ${m.missing.join(' ')}`);
  if (m.splits.length) console.log(`    split: ${m.splits.map((s) => s.join('/')).join(' ')}`);
}
console.log(
  `cast, all books: precision ${castRight}/${castRoles} = ${pct(castRight / castRoles)}, recall ${castFound}/${castMain} = ${pct(castFound / castMain)}, splits ${castSplits}`,
);

// An independent public data set (World of Plainness, Chen et al.), read from outside the repository:
// BENCH_SPEAKERS_EXTERNAL=<dir with train/dev/test_unsplit.txt and name_list.txt>. Misses of its tuning
// part are printed with BENCH_SPEAKERS_EXTERNAL_MISSES=1; held-out misses never.
const externalDir = process.env.BENCH_SPEAKERS_EXTERNAL;
if (!externalDir) console.log('external set (World of Plainness): skipped (set BENCH_SPEAKERS_EXTERNAL)');
else {
  const data = loadWp(externalDir);
  for (const [name, set] of [
    ['tuning part', data.tuning],
    ['held-out part', data.heldout],
  ] as const) {
    const m = measureExternal(set, data.names);
    console.log(
      `external set (World of Plainness), ${name}: ${set.length} passages, ${m.right}/${m.total} quotes right = ${pct(m.accuracy)} (all names exact aliases: ${m.exact}); labelled lines with no quote found ${m.notFound}, given no speaker ${m.noSpeaker}; quotes found on unlabelled lines ${m.unlabelled}`,
    );
    if (set === data.tuning && process.env.BENCH_SPEAKERS_EXTERNAL_MISSES)
      for (const w of m.wrong) console.log(`  wrong: ${w.source} ${w.got} ≠ ${w.expected}: ${w.line}`);
  }
}

// The passages read inside their books, as the product reads a whole book in one pass: the novels'
// text from outside the repository, BENCH_SPEAKERS_BOOKS=<dir> (files named in in-book.measure.ts).
// First the tuning passages from the novels, then the held-out ones (whole short stories count as read
// alone). Scores only; held-out misses stay unseen.
const booksDir = process.env.BENCH_SPEAKERS_BOOKS;
if (!booksDir) console.log('passages inside their books: skipped (set BENCH_SPEAKERS_BOOKS)');
else {
  const tuningNovels = [...TUNING, ...SPEAKERS_TUNING_THIRD].filter((p) =>
    IN_BOOK_TUNING.some((e) => e.source === p.source),
  );
  for (const [name, set, table] of [
    ['tuning', tuningNovels, IN_BOOK_TUNING],
    ['held-out', HELDOUT, undefined],
  ] as const) {
    const rows = await measureInBook(set, booksDir, table);
    const sum = (pick: (r: (typeof rows)[number]) => { right: number; total: number }) => {
      const right = rows.reduce((n, r) => n + pick(r).right, 0);
      const total = rows.reduce((n, r) => n + pick(r).total, 0);
      return `${right}/${total} = ${pct(right / total)}`;
    };
    const frac = (x: { right: number; total: number }) => `${x.right}/${x.total}`;
    console.log(
      `${name} inside their books (quoteSpeakers as measured above; attributeSpeakers as the product):`,
    );
    for (const r of rows)
      console.log(
        `  ${r.source}: alone ${frac(r.alone)}, in book ${frac(r.inBook)}; product alone ${frac(r.aloneProduct)}, in book ${frac(r.inBookProduct)}${r.book ? ` (${r.book}, ${r.contextParagraphs} paragraphs / ${r.contextChars} characters before it)` : ' (whole text)'}`,
      );
    console.log(
      `${name}, all parts: alone ${sum((r) => r.alone)}, in book ${sum((r) => r.inBook)}; product alone ${sum((r) => r.aloneProduct)}, in book ${sum((r) => r.inBookProduct)}`,
    );
  }
}
