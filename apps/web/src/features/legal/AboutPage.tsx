import { Link } from 'react-router';
import { zhCN } from '@/locales/zh-CN.ts';
import './legal.css';

const tools: Array<[string, string]> = [
  ['文字转语音', '多声音、多语种，支持语速调节'],
  ['变声器', '把一段人声转换为另一种音色'],
  ['声音克隆', '复刻你自己的声音'],
  ['声音库', '浏览、试听与收藏声音'],
  ['视频翻译', '字幕擦除、识别、配音与合成'],
  ['有声书', '导入文本批量合成有声书'],
];

export function Component() {
  return (
    <div className="vw-page">
      <header className="vw-page-header">
        <h1>{zhCN.about.title}</h1>
        <p>{zhCN.app.slogan}</p>
      </header>
      <section className="vw-card">
        <h2>产品介绍</h2>
        <p style={{ lineHeight: 1.9, color: '#4b5563', marginTop: 0 }}>
          声音工作台是一款面向中文创作者的 AI
          声音与视频工作台，可由团队或个人部署在自己的服务器上。它把文字转语音、变声、声音克隆、视频翻译与有声书制作放在同一个工作台里，按会员套餐与积分计费，用多少扣多少。
        </p>
        <div className="vw-about-grid">
          {tools.map(([name, desc]) => (
            <div key={name}>
              <strong>{name}</strong>
              <span>{desc}</span>
            </div>
          ))}
        </div>
      </section>
      <section className="vw-card">
        <h2>协议与政策</h2>
        <p style={{ display: 'flex', gap: 20, margin: 0 }}>
          <Link to="/terms" target="_blank">
            服务条款
          </Link>
          <Link to="/privacy" target="_blank">
            隐私政策
          </Link>
          <Link to="/subscribe-agreement" target="_blank">
            会员服务协议
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
