import { SearchOutlined } from '@ant-design/icons';
import { Input, Select } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { ageName, facet, genderName, genders, styles, type VoiceFilter } from './model.ts';
import type { Voice } from './types.ts';

const t = zhCN.voices;

function Chips({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  options: { value: string; label: ReactNode }[];
  onChange: (v: string) => void;
  testId: string;
}) {
  return (
    <div className="vw-filter-row" data-testid={testId}>
      <span className="vw-filter-label">{label}</span>
      <div className="vw-filter-chips">
        {[{ value: '', label: t.all }, ...options].map((o) => (
          <button
            key={o.value || 'all'}
            type="button"
            className={`vw-chip ${value === o.value ? 'is-on' : ''}`}
            aria-pressed={value === o.value}
            onClick={() => onChange(o.value)}
          >
            {o.label}
          </button>
        ))}
      </div>
    </div>
  );
}

/** Search plus gender, language, age and style filters (values taken from the voices present). */
export function VoiceFilters({
  voices,
  filter,
  onChange,
  languageName,
  compact,
}: {
  voices: readonly Voice[];
  filter: VoiceFilter;
  onChange: (f: VoiceFilter) => void;
  languageName: (code: string) => ReactNode;
  /** The picker shows selects in one row instead of chip rows. */
  compact?: boolean;
}) {
  const opts = useMemo(
    () => ({
      gender: facet(voices, genders).map((g) => ({ value: g, label: genderName(g) })),
      language: facet(voices, (v) => [v.labels.language]).map((l) => ({ value: l, label: languageName(l) })),
      age: facet(voices, (v) => [v.labels.age]).map((a) => ({ value: a, label: ageName(a) })),
      style: facet(voices, styles).map((s) => ({ value: s, label: s })),
    }),
    [voices, languageName],
  );
  const set = (patch: Partial<VoiceFilter>) => onChange({ ...filter, ...patch });
  const search = (
    <Input
      allowClear
      prefix={<SearchOutlined />}
      placeholder={t.search}
      value={filter.search}
      onChange={(e) => set({ search: e.target.value })}
      className="vw-voice-search"
      data-testid="voice-search"
    />
  );
  if (compact) {
    const sel = (key: 'gender' | 'language' | 'age' | 'style', label: string) => (
      <Select
        key={key}
        value={filter[key]}
        onChange={(v) => set({ [key]: v })}
        options={[{ value: '', label: `${label}：${t.all}` }, ...opts[key]]}
        popupMatchSelectWidth={false}
        className="vw-picker-select"
        data-testid={`voice-filter-${key}`}
        aria-label={label}
      />
    );
    return (
      <div className="vw-picker-filters">
        {search}
        <div className="vw-picker-selects">
          {sel('gender', t.gender)}
          {sel('language', t.language)}
          {sel('age', t.age)}
          {sel('style', t.style)}
        </div>
      </div>
    );
  }
  return (
    <div className="vw-voice-filters">
      {search}
      <Chips
        label={t.gender}
        value={filter.gender}
        options={opts.gender}
        onChange={(v) => set({ gender: v })}
        testId="filter-gender"
      />
      <Chips
        label={t.language}
        value={filter.language}
        options={opts.language}
        onChange={(v) => set({ language: v })}
        testId="filter-language"
      />
      <Chips
        label={t.age}
        value={filter.age}
        options={opts.age}
        onChange={(v) => set({ age: v })}
        testId="filter-age"
      />
      <Chips
        label={t.style}
        value={filter.style}
        options={opts.style}
        onChange={(v) => set({ style: v })}
        testId="filter-style"
      />
    </div>
  );
}
