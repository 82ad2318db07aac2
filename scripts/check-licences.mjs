// Fails when a production dependency carries a licence that cannot be combined with the product's
// AGPL-3.0-or-later. Reads every non-dev package of package-lock.json (platform-only optional packages
// too: they ship on other machines), preferring the installed package.json's licence to the lock's.
// Usage: node scripts/check-licences.mjs
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** SPDX identifiers whose terms let the code be distributed as part of an AGPL-3.0-or-later work. */
const COMPATIBLE = new Set(
  [
    'MIT',
    'MIT-0',
    'ISC',
    'BSD-2-Clause',
    'BSD-3-Clause',
    'Apache-2.0',
    '0BSD',
    'Unlicense',
    'CC0-1.0',
    'BlueOak-1.0.0',
    'Python-2.0',
    'MPL-2.0',
    'Zlib',
    'BSL-1.0',
    'WTFPL',
    'CC-BY-3.0',
    'CC-BY-4.0',
    // The LGPLs allow relicensing under the GPL; GPL-3.0 and AGPL-3.0 combine by section 13 of each.
    'LGPL-2.0-only',
    'LGPL-2.0-or-later',
    'LGPL-2.1-only',
    'LGPL-2.1-or-later',
    'LGPL-3.0-only',
    'LGPL-3.0-or-later',
    'GPL-2.0-or-later',
    'GPL-3.0-only',
    'GPL-3.0-or-later',
    'AGPL-3.0-only',
    'AGPL-3.0-or-later',
  ].map((id) => id.toLowerCase()),
);

/**
 * Packages whose declared licence is missing or not an SPDX identifier, each read by hand. An entry
 * applies only while the package still declares what was reviewed.
 */
export const REVIEWED = [
  {
    name: 'buffers',
    declared: undefined,
    licence: 'MIT',
    reason:
      'no licence field in 0.1.1; the upstream repository (substack/node-buffers) carries the MIT LICENSE',
  },
  {
    name: 'combine-errors',
    declared: undefined,
    licence: 'MIT',
    reason: 'no licence field; its Readme.md ends with "License: MIT"',
  },
  { name: 'chainsaw', declared: 'MIT/X11', licence: 'MIT', reason: '"MIT/X11" is the MIT licence' },
  {
    name: 'js-clipper',
    declared: 'boost',
    licence: 'BSL-1.0',
    reason: '"boost" is the Boost Software License 1.0, GPL-compatible',
  },
];

/** The SPDX expression a package.json "license" (or old "licenses" array) declares, or undefined. */
export function declaredLicence(manifest) {
  const field = manifest.license ?? manifest.licenses;
  if (field === undefined || field === null || field === '') return undefined;
  if (typeof field === 'string') return field;
  // The old forms: { type } or an array of them / of strings, which meant a choice between them.
  const items = (Array.isArray(field) ? field : [field]).map((item) =>
    typeof item === 'string' ? item : item?.type,
  );
  return items.length > 1 ? `(${items.join(' OR ')})` : items[0];
}

/** GNU identifiers in the deprecated spellings ("GPL-3.0", "LGPL-2.1+") mapped to the current ones. */
function canonicalId(id) {
  const gnu = /^(A?GPL|LGPL)-(\d\.\d)(\+)?$/i.exec(id);
  if (!gnu) return id;
  return `${gnu[1]}-${gnu[2]}-${gnu[3] ? 'or-later' : 'only'}`;
}

/**
 * Whether an SPDX expression permits use in an AGPL-3.0-or-later work: an OR needs one allowed side,
 * an AND needs both, and "X WITH exception" is judged as X (an exception only adds permissions).
 * Anything that does not parse as SPDX is refused.
 */
export function isCompatible(expression) {
  if (typeof expression !== 'string') return false;
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? [];
  let at = 0;
  const peek = () => tokens[at]?.toUpperCase();
  const fail = () => {
    throw new Error(`not an SPDX expression: ${expression}`);
  };
  const term = () => {
    const token = tokens[at++];
    if (token === undefined || token === ')') fail();
    if (token === '(') {
      const inner = or();
      if (tokens[at++] !== ')') fail();
      return inner;
    }
    if (['AND', 'OR', 'WITH'].includes(token.toUpperCase())) fail();
    if (peek() === 'WITH') at += 2;
    return COMPATIBLE.has(canonicalId(token).toLowerCase());
  };
  const and = () => {
    let allowed = term();
    while (peek() === 'AND') {
      at++;
      allowed = term() && allowed;
    }
    return allowed;
  };
  const or = () => {
    let allowed = and();
    while (peek() === 'OR') {
      at++;
      allowed = and() || allowed;
    }
    return allowed;
  };
  try {
    const allowed = or();
    return at === tokens.length && allowed;
  } catch {
    return false;
  }
}

/** Every production package of the tree at `root` whose licence is not compatible: [{ name, version, path, licence }]. */
export function incompatiblePackages(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const found = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    // Workspaces are linked in (they are the product itself); dev-only packages never ship.
    if (!path.includes('node_modules/') || entry.link || entry.dev) continue;
    const manifestFile = join(root, path, 'package.json');
    const manifest = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : entry;
    const name = manifest.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const declared = declaredLicence(manifest);
    const reviewed = REVIEWED.find((r) => r.name === name && r.declared === declared);
    const licence = reviewed?.licence ?? declared;
    if (!isCompatible(licence)) found.push({ name, version: manifest.version, path, licence: declared });
  }
  return found;
}

if (import.meta.main) {
  const root = resolve(import.meta.dirname, '..');
  const found = incompatiblePackages(root);
  if (found.length === 0) {
    console.log('licences: every production dependency is compatible with AGPL-3.0-or-later');
  } else {
    console.error(`licences: ${found.length} production dependencies not compatible with AGPL-3.0-or-later`);
    for (const p of found)
      console.error(`  ${p.name}@${p.version}: ${p.licence ?? 'no licence declared'} (${p.path})`);
    console.error(
      'Replace the dependency, or — after reading its licence — add it to REVIEWED in scripts/check-licences.mjs.',
    );
    process.exit(1);
  }
}
