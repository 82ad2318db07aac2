// npm run dev: the API (restarting on change) and the Vite dev server, together; Ctrl-C stops both.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@vw/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@vw/web'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
