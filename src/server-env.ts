/**
 * Runs first in the server process: libraries read NODE_ENV when they load, and graphql-js drops
 * its development-time checks in production (about a fifth of a large query's CPU). The service
 * runs as production unless NODE_ENV says otherwise.
 */
process.env.NODE_ENV ??= 'production';
