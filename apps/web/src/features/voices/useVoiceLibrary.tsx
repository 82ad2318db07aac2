import useApp from 'antd/es/app/useApp';
import { useCallback, useMemo } from 'react';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useCatalogueStore } from '@/stores/data.ts';
import { useUserStore } from '@/stores/user.ts';
import { languageInfo, splitCatalogue } from './model.ts';
import type { Voice } from './types.ts';

/** The catalogue's voices with the actions both the library and the picker need. */
export function useVoiceLibrary() {
  const { message } = useApp();
  const voices = useCatalogueStore((s) => s.voices);
  const loaded = useCatalogueStore((s) => s.voicesLoaded);
  const icons = useCatalogueStore((s) => s.languageIcons);
  const level = useUserStore((s) => s.tenantBonus.level);
  const { builtin, mine } = useMemo(() => splitCatalogue(voices), [voices]);

  const toggleFavorite = useCallback(
    async (v: Voice) => {
      const favor = !v.is_favorite;
      const patch = useCatalogueStore.getState().patchVoice;
      patch(v.voice_id, { is_favorite: favor });
      try {
        const d = await request(api.favorVoice, { body: { voice_id: v.voice_id, favor } });
        patch(v.voice_id, { is_favorite: d.is_favorite });
        message.success({
          key: 'vw-fav',
          content: d.is_favorite ? zhCN.voices.favorited : zhCN.voices.unfavorited,
        });
      } catch {
        patch(v.voice_id, { is_favorite: !favor });
      }
    },
    [message],
  );

  const languageName = useCallback(
    (code: string) => {
      const { name, icon } = languageInfo(code, icons);
      return (
        <span className="vw-lang">
          {icon &&
            (icon.startsWith('data:') || icon.startsWith('http') || icon.startsWith('/') ? (
              <img src={icon} alt="" className="vw-lang-icon" />
            ) : (
              <span className="vw-lang-icon">{icon}</span>
            ))}
          {name}
        </span>
      );
    },
    [icons],
  );

  return { voices, builtin, mine, loaded, level, icons, toggleFavorite, languageName };
}
