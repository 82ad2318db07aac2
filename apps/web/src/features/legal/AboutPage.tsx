import { Link } from 'react-router';
import { aboutPage as t } from '@/locales/zh-CN/legal.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import './legal.css';

export function Component() {
  return (
    <div className="vw-page">
      <header className="vw-page-header">
        <h1>{zhCN.about.title}</h1>
        <p>{zhCN.app.slogan}</p>
      </header>
      <section className="vw-card">
        <h2>{t.introTitle}</h2>
        <p style={{ lineHeight: 1.9, color: '#4b5563', marginTop: 0 }}>{t.intro}</p>
        <div className="vw-about-grid">
          {t.tools.map(([name, desc]) => (
            <div key={name}>
              <strong>{name}</strong>
              <span>{desc}</span>
            </div>
          ))}
        </div>
      </section>
      <section className="vw-card">
        <h2>{t.policies}</h2>
        <p style={{ display: 'flex', gap: 20, margin: 0 }}>
          <Link to="/terms" target="_blank">
            {zhCN.legal.terms}
          </Link>
          <Link to="/privacy" target="_blank">
            {zhCN.legal.privacy}
          </Link>
          <Link to="/subscribe-agreement" target="_blank">
            {zhCN.legal.subscribeAgreement}
          </Link>
        </p>
      </section>
      <section className="vw-card">
        <h2>{zhCN.about.version}</h2>
        <p style={{ margin: 0, color: '#4b5563' }}>
          {zhCN.app.nameEn} {__APP_VERSION__}
        </p>
      </section>
    </div>
  );
}
