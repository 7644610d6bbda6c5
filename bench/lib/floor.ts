/**
 * Floors per body (issue 22: "a bare server on this machine sending the same bytes as the
 * page"): one bare Fastify process serves every list scenario's own bytes, and each distinct
 * body is driven once with the same client and settings as the scenarios.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BENCH_DIR, DATA_DIR } from './env.js';
import { drive } from './load.js';
import { watchMemory } from './memory.js';
import { startChild } from './server.js';
import type { LoadFigures, LoadSettings } from './load.js';
import type { ChildServer } from './server.js';

/** Seconds each floor is driven for (after the usual warm-up). */
const FLOOR_SECONDS = 2;

export type FloorFigures = LoadFigures & { bytes: number; peakRssMb: number };

export class FloorServer {
  private readonly dir = path.join(DATA_DIR, 'floor-bodies');
  private readonly measured = new Map<string, FloorFigures>();

  private constructor(private readonly child: ChildServer, private readonly settings: LoadSettings) {}

  static async start(settings: LoadSettings): Promise<FloorServer> {
    const dir = path.join(DATA_DIR, 'floor-bodies');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const child = await startChild({ script: path.join(BENCH_DIR, 'floor-server.ts'), args: [dir], env: {}, healthPath: '/health/' });
    // A bare route's rate holds steady within a second or two: 2 s each (32 distinct bodies in a run) keeps the run near its 10 minutes.
    return new FloorServer(child, { ...settings, duration: Math.min(settings.duration, FLOOR_SECONDS) });
  }

  /** The floor for these exact bytes: measured on the first call for a body, then reused. */
  async figuresFor(body: Buffer): Promise<FloorFigures> {
    const file = `${crypto.createHash('sha1').update(body).digest('hex')}.json`;
    const known = this.measured.get(file);
    if (known) return known;
    fs.writeFileSync(path.join(this.dir, file), body);
    const mem = watchMemory(this.child.pid);
    const fig = await drive({ base: this.child.url, paths: [`/floor/${file}`], headers: { accept: 'application/json' }, settings: this.settings });
    const figures = { ...fig, bytes: body.length, peakRssMb: mem.stop().peakMb };
    this.measured.set(file, figures);
    return figures;
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}
