import { useMemo, useState } from 'react';
import { emptyFilter, matches, type VoiceFilter } from './model.ts';
import type { Voice } from './types.ts';

export type VoiceTab = 'all' | 'favorites' | 'mine';

/**
 * The tab (built-in, favourites, mine) and filters of a voice list: `source` is the tab's voices
 * (what the filters offer), `shown` those that match the filters.
 */
export function useVoiceTabs(builtin: Voice[], mine: Voice[]) {
  const [tab, setTab] = useState<VoiceTab>('all');
  const [filter, setFilter] = useState<VoiceFilter>(emptyFilter);
  const source = useMemo(
    () =>
      tab === 'mine'
        ? mine
        : tab === 'favorites'
          ? [...builtin, ...mine].filter((v) => v.is_favorite)
          : builtin,
    [tab, builtin, mine],
  );
  const shown = useMemo(() => source.filter((v) => matches(v, filter)), [source, filter]);
  return { tab, setTab, filter, setFilter, source, shown };
}
