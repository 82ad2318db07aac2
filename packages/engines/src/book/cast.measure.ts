import { type CastBook, castParagraphs } from './cast.fixture.ts';
import { attributeSpeakers } from './speakers.ts';

const norm = (s: string) => s.normalize('NFKC');

/**
 * The cast of a whole book against the hand-written list: precision (roles that are characters of the
 * list / roles found), recall (main characters found / main characters), splits (one character found as
 * two roles or more: each extra role is one).
 */
export function measureCast(book: CastBook) {
  const roles = attributeSpeakers(castParagraphs(book)).characters;
  const people = [...book.main, ...book.minor];
  const groups = [...people, ...(book.crowds ?? [])].map((g) => new Set(g.split('|').map(norm)));
  const main = book.main.length;
  const owner = (name: string) => groups.findIndex((g) => g.has(norm(name)));
  const notPeople = roles.filter((r) => owner(r.name) < 0);
  const found = new Map<number, string[]>();
  for (const r of roles) {
    const i = owner(r.name);
    if (i >= 0) found.set(i, [...(found.get(i) ?? []), r.name]);
  }
  const mainFound = [...found.keys()].filter((i) => i < main).length;
  const splits = [...found].filter(([i, names]) => i < people.length && names.length > 1).map(([, n]) => n);
  return {
    roles,
    notPeople,
    precision: roles.length ? (roles.length - notPeople.length) / roles.length : 1,
    recall: mainFound / main,
    missing: book.main.filter((_, i) => !found.has(i)).map((g) => g.split('|')[0]),
    splits,
    splitErrors: splits.reduce((n, s) => n + s.length - 1, 0),
  };
}
