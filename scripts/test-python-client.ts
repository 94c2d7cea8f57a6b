import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm run test:python`: the Python client's pytest suite (clients/python) against the real
// reference server, with Debian's python3 (a pyenv or venv python3 earlier on PATH may lack the
// Debian packages; AGENT_CHAT_PYTHON names another interpreter). Fails with what to install when
// python3, httpx or pytest is missing, and when pytest collects no test at all (its exit code 5).
const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const python = process.env.AGENT_CHAT_PYTHON ?? '/usr/bin/python3';
const install = "install Debian's packages (apt-get install -y python3 python3-httpx python3-pytest; .ci/run does)";

function fail(message: string): never {
  console.error(`test:python: ${message}`);
  process.exit(1);
}

if (!existsSync(python)) fail(`${python} not found: ${install}, or set AGENT_CHAT_PYTHON.`);
for (const module of ['httpx', 'pytest']) {
  const probe = spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore' });
  if (probe.status !== 0) fail(`${python} cannot import ${module}: ${install}.`);
}
const run = spawnSync(python, ['-m', 'pytest', '-q'], {
  cwd: resolve(rootDir, 'clients/python'),
  stdio: 'inherit',
  env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
});
if (run.status === 5) fail('pytest collected no tests in clients/python/tests.');
if (run.status !== 0) fail(`pytest failed (exit ${run.status ?? run.signal}).`);
