// Declarations of scripts/build-server.mjs for the TypeScript that imports it (bench/lib/server.ts).
export declare const OUT: string;
export declare function isStale(): boolean;
export declare function buildServer(): Promise<{ ms: number; modules: number }>;
export declare function ensureBuilt(): Promise<boolean>;
