// Builds the GraphiQL page's assets (dist/graphiql/graphiql.js and .css) from the npm packages
// graphiql, react and react-dom with esbuild; run by `npm install` (the `prepare` script) and by
// `npm run build:graphiql`. Without the packages (an install without dev dependencies) it says so
// and leaves the page unbuilt: /graphql/ then answers 503 and names this script.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const outdir = join(root, 'dist', 'graphiql');

function available(name) {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

const missing = ['esbuild', 'graphiql', 'react', 'react-dom'].filter((name) => !available(name));
if (missing.length > 0) {
  console.warn(`GraphiQL assets not built: ${missing.join(', ')} not installed (dev dependencies).`);
  process.exit(0);
}

const { build } = await import(require.resolve('esbuild'));
const started = Date.now();
mkdirSync(outdir, { recursive: true });
await build({
  entryPoints: { graphiql: join(root, 'src', 'graphql', 'graphiql', 'entry.js') },
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  outdir,
  loader: { '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.svg': 'dataurl' },
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'linked',
  logLevel: 'warning',
});
const size = (file) => (existsSync(join(outdir, file)) ? `${(statSync(join(outdir, file)).size / 1024).toFixed(0)} kB` : 'none');
console.log(`GraphiQL assets built in ${Date.now() - started} ms: graphiql.js ${size('graphiql.js')}, graphiql.css ${size('graphiql.css')}`);
