// `npm run dev`: the API with reload (tsx watch) and the Vite dev server, which proxies /api.
import { spawn } from 'node:child_process';
import { ROOT } from './lib/build.mjs';

const children = [
  spawn('npm', ['run', 'dev', '--workspace', '@bdms/server'], { cwd: ROOT, stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '--workspace', '@bdms/web'], { cwd: ROOT, stdio: 'inherit' }),
];
const stop = (signal) => children.forEach((child) => child.kill(signal));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const child of children)
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exitCode = code ?? 0;
  });
