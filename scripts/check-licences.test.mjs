import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { declaredLicence, incompatiblePackages, isCompatible } from './check-licences.mjs';

describe('isCompatible', () => {
  it('accepts permissive and GPL-family licences that combine with AGPL-3.0-or-later', () => {
    for (const id of [
      'MIT',
      'ISC',
      'Apache-2.0',
      'BSD-3-Clause',
      'MPL-2.0',
      'LGPL-3.0-or-later',
      'AGPL-3.0-only',
    ]) {
      expect(isCompatible(id), id).toBe(true);
    }
  });

  it('refuses proprietary, source-available, non-commercial and GPL-2.0-only licences', () => {
    for (const id of ['UNLICENSED', 'SSPL-1.0', 'BUSL-1.1', 'CC-BY-NC-4.0', 'GPL-2.0-only', 'GPL-2.0']) {
      expect(isCompatible(id), id).toBe(false);
    }
  });

  it('reads the deprecated GNU spellings: "+" is or-later, a bare version is only', () => {
    expect(isCompatible('GPL-2.0+')).toBe(true);
    expect(isCompatible('GPL-3.0')).toBe(true);
    expect(isCompatible('LGPL-2.1')).toBe(true);
  });

  it('needs one allowed side of an OR and both sides of an AND', () => {
    expect(isCompatible('(MIT OR GPL-2.0-only)')).toBe(true);
    expect(isCompatible('SSPL-1.0 OR BUSL-1.1')).toBe(false);
    expect(isCompatible('MIT AND Zlib')).toBe(true);
    expect(isCompatible('MIT AND BUSL-1.1')).toBe(false);
    expect(isCompatible('Apache-2.0 AND (MIT OR SSPL-1.0)')).toBe(true);
    // AND binds tighter than OR.
    expect(isCompatible('SSPL-1.0 AND MIT OR ISC')).toBe(true);
  });

  it('judges "X WITH exception" as X', () => {
    expect(isCompatible('Apache-2.0 WITH LLVM-exception')).toBe(true);
    expect(isCompatible('GPL-2.0-only WITH Classpath-exception-2.0')).toBe(false);
  });

  it('refuses what is missing or not an SPDX expression', () => {
    for (const text of [undefined, '', 'SEE LICENSE IN LICENSE.txt', 'MIT/X11', 'MIT OR', '(MIT', 'MIT)']) {
      expect(isCompatible(text), String(text)).toBe(false);
    }
  });
});

describe('declaredLicence', () => {
  it('reads the license field, and the old licenses forms as a choice', () => {
    expect(declaredLicence({ license: 'MIT' })).toBe('MIT');
    expect(declaredLicence({ license: { type: 'ISC' } })).toBe('ISC');
    expect(declaredLicence({ license: ['MIT', 'Apache2'] })).toBe('(MIT OR Apache2)');
    expect(declaredLicence({ licenses: [{ type: 'MIT' }, { type: 'GPL-2.0' }] })).toBe('(MIT OR GPL-2.0)');
    expect(declaredLicence({})).toBeUndefined();
  });
});

describe('incompatiblePackages', () => {
  let root;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const tree = (lockPackages, installed) => {
    root = mkdtempSync(join(tmpdir(), 'licences-'));
    writeFileSync(join(root, 'package-lock.json'), JSON.stringify({ packages: { '': {}, ...lockPackages } }));
    for (const [path, manifest] of Object.entries(installed)) {
      mkdirSync(join(root, path), { recursive: true });
      writeFileSync(join(root, path, 'package.json'), JSON.stringify(manifest));
    }
    return root;
  };

  it('lists production packages only, preferring the installed manifest to the lock', () => {
    tree(
      {
        'node_modules/ok': { version: '1.0.0', license: 'MIT' },
        'node_modules/closed': { version: '2.0.0', license: 'MIT' },
        'node_modules/tool': { version: '1.0.0', license: 'UNLICENSED', dev: true },
        'node_modules/@vw/server': { resolved: 'apps/server', link: true },
        'node_modules/other-platform': { version: '1.0.0', license: 'SSPL-1.0', optional: true },
      },
      {
        'node_modules/ok': { name: 'ok', version: '1.0.0', license: 'MIT' },
        'node_modules/closed': { name: 'closed', version: '2.0.0', license: 'BUSL-1.1' },
      },
    );
    expect(incompatiblePackages(root)).toEqual([
      { name: 'closed', version: '2.0.0', path: 'node_modules/closed', licence: 'BUSL-1.1' },
      { name: 'other-platform', version: '1.0.0', path: 'node_modules/other-platform', licence: 'SSPL-1.0' },
    ]);
  });

  it('applies a reviewed entry only while the package declares what was reviewed', () => {
    tree(
      { 'node_modules/buffers': { version: '0.1.1' }, 'node_modules/chainsaw': { version: '0.2.0' } },
      {
        'node_modules/buffers': { name: 'buffers', version: '0.1.1' },
        'node_modules/chainsaw': { name: 'chainsaw', version: '0.2.0', license: 'SSPL-1.0' },
      },
    );
    expect(incompatiblePackages(root).map((p) => p.name)).toEqual(['chainsaw']);
  });
});
