import { legalDocs } from '@/locales/zh-CN/legal.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { LegalDoc } from './LegalDoc.tsx';

export function Component() {
  return <LegalDoc title={zhCN.legal.terms} {...legalDocs.terms} />;
}
