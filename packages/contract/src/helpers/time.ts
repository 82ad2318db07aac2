const TIME_RE = /^(\d{1,2}):([0-5]?\d):([0-5]?\d)(?:[.,](\d{1,3}))?$/;

/** Parses `hh:mm:ss`, `hh:mm:ss.mmm` or `hh:mm:ss,mmm` (SRT) into milliseconds; null when malformed. */
export function parseTime(text: string): number | null {
  const m = TIME_RE.exec(text.trim());
  if (!m) return null;
  const [, h, min, s, frac = '0'] = m;
  const ms = Number(frac.padEnd(3, '0'));
  return ((Number(h) * 60 + Number(min)) * 60 + Number(s)) * 1000 + ms;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function split(ms: number) {
  const total = Math.max(0, Math.round(ms));
  return {
    h: Math.floor(total / 3_600_000),
    m: Math.floor((total % 3_600_000) / 60_000),
    s: Math.floor((total % 60_000) / 1000),
    ms: total % 1000,
  };
}

/** `hh:mm:ss.mmm` */
export function formatTime(ms: number): string {
  const t = split(ms);
  return `${pad(t.h)}:${pad(t.m)}:${pad(t.s)}.${pad(t.ms, 3)}`;
}

/** The short form with tenths of a second: `mm:ss.t`, or `h:mm:ss.t` from one hour on. */
export function formatTimeShort(ms: number): string {
  const t = split(Math.floor(Math.max(0, ms) / 100) * 100);
  const tenths = Math.floor(t.ms / 100);
  const head = t.h > 0 ? `${t.h}:${pad(t.m)}` : pad(t.m);
  return `${head}:${pad(t.s)}.${tenths}`;
}

/** Unix seconds → `YYYY-MM-DD` in local time (plan expiry dates, spec §9). */
export function formatDate(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
