// `npm run build`: step 2 of the recipe done for you. Copies public/ to dist/ with the integrity of
// the installed agent-chat.js (node_modules/agent-chat/dist/manifest.json) in the page's script
// tag, whatever it held (the placeholder, or the hash of an older version). `npm start` serves dist/.
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const SCRIPT_TAG = /(<script src="\/agent-chat\.js" integrity=")[^"]*(")/;

const manifestPath = fileURLToPath(import.meta.resolve('agent-chat/manifest.json'));
const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
const integrity = manifest.files['agent-chat.js'].integrity;
const publicDir = fileURLToPath(new URL('public', import.meta.url));
const distDir = fileURLToPath(new URL('dist', import.meta.url));

await rm(distDir, { recursive: true, force: true });
await cp(publicDir, distDir, { recursive: true });
const pagePath = `${distDir}/index.html`;
const page = await readFile(pagePath, 'utf8');
if (!SCRIPT_TAG.test(page)) throw new Error('public/index.html has no <script src="/agent-chat.js" integrity="…">');
await writeFile(pagePath, page.replace(SCRIPT_TAG, `$1${integrity}$2`));
console.log(`dist/index.html: agent-chat.js ${manifest.version} ${integrity}`);
