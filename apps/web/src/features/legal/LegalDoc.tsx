import type { ReactNode } from 'react';
import { BrandMark } from '@/components/BrandMark.tsx';
import { zhCN } from '@/locales/zh-CN.ts';
import './legal.css';

export interface LegalSection {
  title: string;
  paragraphs: ReactNode[];
}

/** A standalone agreement page (opened in a new tab; no sidebar, no sign-in needed). */
export function LegalDoc({
  title,
  intro,
  sections,
}: {
  title: string;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  return (
    <div className="vw-legal">
      <header className="vw-legal-bar">
        <a href={import.meta.env.BASE_URL} className="vw-legal-brand">
          <BrandMark size={28} />
          <span>{zhCN.app.name}</span>
        </a>
      </header>
      <article className="vw-legal-doc">
        <h1>{title}</h1>
        <p className="vw-legal-updated">{zhCN.legal.updated}</p>
        <div className="vw-legal-intro">{intro}</div>
        {sections.map((s, i) => (
          <section key={s.title}>
            <h2>
              {i + 1}. {s.title}
            </h2>
            {s.paragraphs.map((p, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static text
              <p key={j}>{p}</p>
            ))}
          </section>
        ))}
      </article>
    </div>
  );
}
