#!/usr/bin/env node
// Prints the test files for `npm test`, the longest-running first: node's runner starts files in
// the order given (--test-concurrency at a time), so a long file started last would run on alone
// after the others end. The rest follow in path order. Measured with the whole suite (CI=true, both
// databases, 2 cores); a file missing here only runs later, a file listed here but gone is skipped.
import fs from 'node:fs';
import path from 'node:path';

const SLOW_FIRST = [
  'test/contract/generic.test.ts',
  'test/api/swagger-ui-browser.test.ts',
  'test/api/openapi.test.ts',
  'test/events/crash-delivery.test.ts',
  'test/events/change-stream.test.ts',
  'test/fuzz/fuzz.test.ts',
  'test/ui/journey-browser.test.ts',
  'test/ui/pages.test.ts',
  'test/contract/search.test.ts',
  'test/events/webhooks.test.ts',
  'test/api/protocol.test.ts',
  'test/apps/users/constraints.test.ts',
  'test/server/graphql-workers.test.ts',
  'test/server/concurrency.test.ts',
  'test/server/workers.test.ts',
  'test/db/graphql-query-count.test.ts',
  'test/db/query-count.test.ts',
  'test/apps/dcim/cable-bulk.test.ts',
  'test/api/metrics.test.ts',
  'test/apps/users/permission-matrix.test.ts',
  'test/apps/dcim/special-filters.test.ts',
];

function testFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const all = testFiles('test').sort();
const present = new Set(all);
const first = SLOW_FIRST.filter((file) => present.has(file));
const rest = all.filter((file) => !first.includes(file));
process.stdout.write([...first, ...rest].join('\n') + '\n');
